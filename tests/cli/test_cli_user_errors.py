"""``sam-agent run`` as an analyst meets it: every mistake names the problem and what to do,
exits with the docs/architecture.md §6 code, and never shows a Python traceback."""

from __future__ import annotations

import pytest
from cli_support import StubQuadModule, base_args, new_workspace, run_cli, saved_counts

from sam_plugin.cli import run as cli
from sam_plugin.compilers import registry
from tests.support.fake_vocabulary import fake_spec

SPEC = fake_spec("build", "audit", summary="Add two unit QUADs at z=5 and audit.")


@pytest.fixture
def stub_module(monkeypatch):
    module = StubQuadModule()
    monkeypatch.setattr(registry, "get_module", lambda mode: module)
    return module


def _script(fake) -> None:
    fake.enqueue_reply(SPEC)
    fake.enqueue_reply(tool_calls=[("build_part", '{"quads": 2}'), ("audit_part", "{}")])


def _args(tmp_path, *extra: str, mode: str = "part", part: str = "Plate") -> list[str]:
    workspace = new_workspace(tmp_path / "w.sam.json", quads=1)
    return base_args(workspace, tmp_path / "runs", mode=mode, part=part) + list(extra)


def _usage(run, message: str) -> None:
    assert run.code == 2, run.err
    assert f"sam-agent: error: {message}\n" in run.err
    assert "Traceback" not in run.err + run.out


def test_a_request_file_that_is_not_utf8_is_usage_exit_2(tmp_path, capsys, provider_env):
    request = tmp_path / "request.txt"
    request.write_bytes("建一个 60 x 100 的板".encode("gbk"))
    run = run_cli(_args(tmp_path, "--request-file", str(request), "--yes"), capsys)
    _usage(run, f"--request-file: {request} is not UTF-8 text; save it as UTF-8 "
                "(e.g. iconv -f GBK -t UTF-8) and run again")
    assert provider_env.requests == []


def test_a_chinese_request_file_reaches_the_provider_intact(
    tmp_path, capsys, provider_env, stub_module
):
    request = tmp_path / "request.txt"
    request.write_text("在 z=5 处加两个单位四边形单元并审核\n", encoding="utf-8")
    _script(provider_env)
    run = run_cli(_args(tmp_path, "--request-file", str(request), "--yes"), capsys)
    assert run.code == 0, run.err
    design = provider_env.requests[0].json
    assert any("在 z=5 处加两个单位四边形单元并审核" in str(m.get("content"))
               for m in design["messages"])


def test_an_empty_request_file_names_the_flag(tmp_path, capsys, provider_env):
    request = tmp_path / "request.txt"
    request.write_text("  \n", encoding="utf-8")
    run = run_cli(_args(tmp_path, "--request-file", str(request)), capsys)
    _usage(run, "--request-file: empty; describe the change you want")


def test_a_directory_as_workspace_says_so(tmp_path, capsys, provider_env):
    args = _args(tmp_path, "--request", "x")
    args[args.index("--workspace") + 1] = str(tmp_path)
    run = run_cli(args, capsys)
    _usage(run, f"--workspace: {tmp_path} is a directory; give a *.sam.json file")


def test_a_corrupt_workspace_is_named_once_with_the_reason(tmp_path, capsys, provider_env):
    args = _args(tmp_path, "--request", "x")
    broken = tmp_path / "broken.sam.json"
    broken.write_text("garbage{", encoding="utf-8")
    args[args.index("--workspace") + 1] = str(broken)
    run = run_cli(args, capsys)
    _usage(run, f"--workspace: cannot open {broken} (not a JSON document (expected value at "
                "line 1 column 1))")


def test_an_unknown_model_is_usage_before_any_provider_call(tmp_path, capsys, provider_env):
    args = _args(tmp_path, "--request", "x", "--yes")
    args[args.index("--model") + 1] = "Model-9"
    run = run_cli(args, capsys)
    _usage(run, f"--model: no model 'Model-9' in {tmp_path / 'w.sam.json'}; "
                "models there: 'Model-1'")
    assert provider_env.requests == []


def test_mesh_mode_on_a_missing_part_is_usage_before_any_provider_call(
    tmp_path, capsys, provider_env
):
    run = run_cli(_args(tmp_path, "--request", "refine", mode="mesh", part="My Panel"), capsys)
    _usage(run, "--part: no part 'My Panel' in model 'Model-1' (parts: 'Plate'); mesh mode "
                "changes an existing part: build it first with --mode part")
    assert provider_env.requests == []


def test_save_onto_a_directory_is_usage_before_any_provider_call(tmp_path, capsys, provider_env):
    run = run_cli(_args(tmp_path, "--request", "x", "--yes", "--save", str(tmp_path)), capsys)
    _usage(run, f"--save: {tmp_path} is a directory; give a file name such as "
                f"{tmp_path / 'out.sam.json'}")
    assert provider_env.requests == []


def test_save_below_a_file_is_usage_before_any_provider_call(tmp_path, capsys, provider_env):
    blocker = tmp_path / "notes.txt"
    blocker.write_text("not a directory", encoding="utf-8")
    target = blocker / "sub" / "out.sam.json"
    run = run_cli(_args(tmp_path, "--request", "x", "--yes", "--save", str(target)), capsys)
    _usage(run, f"--save: cannot write {target} ({blocker} is not a writable directory)")
    assert provider_env.requests == []


def test_save_into_a_missing_folder_is_usage_and_creates_nothing(tmp_path, capsys, provider_env):
    target = tmp_path / "new" / "deeper" / "plate.sam.json"
    run = run_cli(_args(tmp_path, "--request", "quads", "--yes", "--save", str(target)), capsys)
    _usage(run, f"--save: cannot write {target}: the folder {target.parent} does not exist; "
                "create it first, or save into a folder that exists")
    assert not (tmp_path / "new").exists()
    assert provider_env.requests == []


def test_save_under_a_name_sam_would_change_is_usage(tmp_path, capsys, provider_env):
    target = tmp_path / "out.json"
    run = run_cli(_args(tmp_path, "--request", "quads", "--yes", "--save", str(target)), capsys)
    _usage(run, f"--save: {target} does not end in .sam.json, and SAM saves a database only "
                f"under that ending (it would write out.json.sam.json); give the name to "
                f"write, such as {tmp_path / 'out.sam.json'}")
    assert list(tmp_path.glob("out*")) == []
    assert provider_env.requests == []
def test_a_base_url_that_is_not_http_is_usage_exit_2(tmp_path, capsys, provider_env):
    run = run_cli(_args(tmp_path, "--request", "x", "--base-url", "ftp:/x"), capsys)
    _usage(run, "provider setting base_url (--base-url or SAM_AGENT_BASE_URL): 'ftp:/x' is not "
                "an http:// or https:// URL "
                "(e.g. https://api.deepseek.com/v1 or http://localhost:11434/v1)")


def test_a_refused_connection_fails_at_provider_with_what_to_do(
    tmp_path, capsys, provider_env, stub_module, monkeypatch
):
    real_settings = cli._settings
    monkeypatch.setattr(
        cli, "_settings", lambda args: real_settings(args).model_copy(update={"max_retries": 0})
    )
    out = tmp_path / "out.sam.json"
    url = "http://127.0.0.1:9/v1"
    run = run_cli(_args(tmp_path, "--request", "q", "--yes", "--base-url", url,
                        "--save", str(out)), capsys)
    assert run.code == 1, run.err
    first = next(line for line in run.err.splitlines() if "provider" in line)
    assert first == ("sam-agent: provider: nothing answers at http://127.0.0.1:9 (the base URL "
                     f"{url}, flags or environment): start the server there, or correct "
                     "--base-url or "
                     "SAM_AGENT_BASE_URL")
    assert "unknown server" not in run.err and "did not say what it is" not in run.err
    assert "Failed at provider\n" in run.out
    assert (f"  next: Nothing was executed. Check that the provider at {url} is running and "
            "reachable (--base-url or SAM_AGENT_BASE_URL), then run again.\n") in run.out
    assert f"  --save: {out} was not written (the run did not verify)\n" in run.out
    assert not out.exists()
    assert "Traceback" not in run.err


def test_a_rejected_key_says_to_check_the_key(tmp_path, capsys, provider_env, stub_module):
    provider_env.enqueue_error(401, {"error": {"message": "Incorrect API key provided"}})
    run = run_cli(_args(tmp_path, "--request", "q", "--yes"), capsys)
    assert run.code == 1, run.err
    assert (f"  next: Nothing was executed. Check the API key (SAM_AGENT_API_KEY) for "
            f"{provider_env.base_url}, then run again.\n") in run.out


def test_declining_through_a_pipe_shows_the_answer_and_what_next(
    tmp_path, capsys, provider_env, stub_module
):
    _script(provider_env)
    run = run_cli(_args(tmp_path, "--request", "quads"), capsys, stdin="n\n")
    assert run.code == 3, run.err
    assert "Confirm this spec and let the model fill in the tool calls? [y/N] n\n" in run.err
    assert run.out.startswith("Cancelled: nothing was executed.\n")
    assert "  next: Nothing was executed. Edit the request (or --request-file) and run again.\n" \
        in run.out


def test_no_answer_without_a_terminal_names_yes_as_the_remedy(
    tmp_path, capsys, provider_env, stub_module
):
    _script(provider_env)
    run = run_cli(_args(tmp_path, "--request", "quads"), capsys, stdin="")
    assert run.code == 3, run.err
    assert ("Confirm this spec and let the model fill in the tool calls? [y/N] "
            "(no answer: the input is not a terminal)\n") in run.err
    assert run.out.startswith("Cancelled: nothing was executed.\n")
    assert ("  next: Nothing was executed: the question got no answer (the input is not a "
            "terminal). Run again with --yes to confirm the spec and a plan without warnings, "
            "or --yes-with-warnings to approve a plan with warnings too; or run it at a "
            "terminal to answer.\n") in run.out
    assert "Edit the request" not in run.out


def test_a_part_name_with_spaces_is_built_and_saved(tmp_path, capsys, provider_env, stub_module):
    _script(provider_env)
    out = tmp_path / "out.sam.json"
    run = run_cli(_args(tmp_path, "--request", "quads", "--yes", "--save", str(out),
                        part="My Plate"), capsys)
    assert run.code == 0, run.err
    assert saved_counts(out, part="My Plate") == (8, 2)


def test_a_bad_profile_names_its_environment_variable(tmp_path, capsys, provider_env,
                                                      monkeypatch):
    monkeypatch.setenv("SAM_AGENT_PROFILE", "bogus")
    run = run_cli(_args(tmp_path, "--request", "x"), capsys)
    _usage(run, "provider setting profile (SAM_AGENT_PROFILE): Input should be 'openai', "
                "'deepseek', 'ollama', 'vllm', 'llamacpp' or 'generic'")


def test_a_200_mb_request_file_is_refused_with_its_size_before_it_is_read(
        tmp_path, capsys, provider_env):
    """It used to be read and sent to the provider (820 MiB RSS)."""
    request = tmp_path / "request.txt"
    with request.open("wb") as handle:
        handle.truncate(200_000_000)  # sparse: nothing is written, nothing should be read
    run = run_cli(_args(tmp_path, "--request-file", str(request), "--yes"), capsys)
    _usage(run, f"--request-file: {request} is 200,000,000 bytes; a request may have at most "
                "65,536 bytes (64 KB): describe the change in words and keep the data in the "
                "workspace")
    assert provider_env.requests == []


def test_a_request_over_64_kb_is_refused_with_its_size(tmp_path, capsys, provider_env):
    run = run_cli(_args(tmp_path, "--request", "x" * 70_000, "--yes"), capsys)
    _usage(run, "--request: the request is 70,000 bytes; a request may have at most 65,536 "
                "bytes (64 KB): describe the change in words and keep the data in the workspace")
    assert provider_env.requests == []


def test_a_part_that_is_not_there_in_part_mode_is_usage_listing_the_parts(tmp_path, capsys,
                                                                         provider_env):
    """As in Mesh mode: said before any provider is asked, and no run directory is made;
    Part mode builds a new part only when --new-part says the name is meant."""
    workspace = new_workspace(tmp_path / "w.sam.json", quads=1, part="Panel")
    args = base_args(workspace, tmp_path / "runs", part="Wing", new_part=False)
    run = run_cli(args + ["--request", "move the whole plate 5 along x"], capsys)
    _usage(run, "--part: no part 'Wing' in model 'Model-1' (parts: 'Panel'); to build a new "
                "part named 'Wing', add --new-part")
    empty = new_workspace(tmp_path / "e.sam.json")
    run = run_cli(base_args(empty, tmp_path / "runs", new_part=False) + ["--request", "x"],
                  capsys)
    _usage(run, "--part: no part 'Plate' in model 'Model-1' (parts: none); to build a new part "
                "named 'Plate', add --new-part")
    assert provider_env.requests == []
    assert not (tmp_path / "runs").exists()


def test_a_misspelt_part_in_part_mode_is_usage_listing_the_parts(tmp_path, capsys,
                                                                 provider_env):
    """'Pannel' next to 'Panel' is offered as the typo it may be: said before any provider is
    asked, and no run directory is made."""
    workspace = new_workspace(tmp_path / "w.sam.json", quads=1, part="Panel")
    args = base_args(workspace, tmp_path / "runs", part="Pannel", new_part=False) + [
        "--request", "x"]
    run = run_cli(args, capsys)
    _usage(run, "--part: no part 'Pannel' in model 'Model-1' (parts: 'Panel'); did you mean "
                "'Panel'? To build a new part named 'Pannel', add --new-part")
    assert provider_env.requests == []
    assert not (tmp_path / "runs").exists()


def test_new_part_says_the_name_is_meant(tmp_path, capsys, provider_env, stub_module):
    workspace = new_workspace(tmp_path / "w.sam.json", quads=1, part="Panel")
    _script(provider_env)
    run = run_cli(base_args(workspace, tmp_path / "runs", part="Pannel", new_part=True)
                  + ["--request", "x", "--yes"], capsys)
    assert run.code == 0, run.err
    taken = run_cli(base_args(workspace, tmp_path / "runs", part="Panel")
                    + ["--new-part", "--request", "x"], capsys)
    _usage(taken, "--new-part: model 'Model-1' already has a part 'Panel'; leave out "
                  "--new-part to change it")
    mesh = run_cli(base_args(workspace, tmp_path / "runs", mode="mesh", part="Panel")
                   + ["--new-part", "--request", "x"], capsys)
    _usage(mesh, "--new-part: only Part mode builds a part (mesh mode changes an existing one)")


def test_a_misspelt_required_flag_is_named(tmp_path, capsys):
    args = _args(tmp_path, "--request", "x")
    args[args.index("--workspace")] = "--worksapce"
    run = run_cli(args, capsys)
    assert run.code == 2
    assert run.err.splitlines()[-1] == (
        "sam-agent run: error: the following arguments are required: --workspace (you wrote "
        "--worksapce: did you mean --workspace?)")


def test_a_misspelt_optional_flag_is_named(tmp_path, capsys):
    run = run_cli(_args(tmp_path, "--request", "x", "--yess"), capsys)
    assert run.code == 2
    assert run.err.splitlines()[-1] == (
        "sam-agent run: error: unrecognized arguments: --yess (you wrote --yess: did you mean "
        "--yes?)")


def test_a_dead_url_is_not_retried_after_it_was_said(tmp_path, capsys, provider_env,
                                                     stub_module):
    url = "http://127.0.0.1:9/v1"
    run = run_cli(_args(tmp_path, "--request", "q", "--yes", "--base-url", url), capsys)
    assert run.code == 1, run.err
    assert "nothing answers at http://127.0.0.1:9" in run.err
    assert "retrying" not in run.err, run.err
    assert "Failed at provider\n" in run.out
