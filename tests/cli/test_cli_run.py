"""``sam-agent run`` through the loopback fake provider and the offline stub.

The contract: docs/architecture.md §6.
"""

from __future__ import annotations

import json
import sys
import types

import pytest
from cli_support import API_KEY, StubQuadModule, base_args, new_workspace, run_cli, saved_counts

from sam_plugin.compilers import registry
from tests.support.fake_vocabulary import fake_spec

SPEC = fake_spec("build", "audit", summary="Add two unit QUADs at z=5 and audit.")


@pytest.fixture
def stub_module(monkeypatch):
    module = StubQuadModule()
    monkeypatch.setattr(registry, "get_module", lambda mode: module)
    return module


def script(fake, *, build_args: str = '{"quads": 2}', spec: str = SPEC) -> None:
    fake.enqueue_reply(spec)
    fake.enqueue_reply(tool_calls=[("build_part", build_args), ("audit_part", "{}")])


def test_yes_json_save_verified_exit_0(tmp_path, capsys, provider_env, stub_module):
    workspace = new_workspace(tmp_path / "w.sam.json", quads=1)
    script(provider_env)
    out = tmp_path / "out.sam.json"
    args = base_args(workspace, tmp_path / "runs") + [
        "--request",
        "add two quads",
        "--yes",
        "--json",
        "--save",
        str(out),
    ]
    run = run_cli(args, capsys)
    assert run.code == 0, run.err
    result = run.result
    assert result["status"] == "verified" and result["submissions"] == 1
    assert result["before"]["element_count"] == 1 and result["after"]["element_count"] == 3
    assert result["tools"] == ["build_part", "audit_part"]
    assert saved_counts(out) == (12, 3)
    assert "sam-agent: using the offline SAM stub from " in run.err
    for words in (
        "[review] Review: spec proposed, waiting for your confirmation",
        "  collected, not executed: build_part (round 1)",
        "  compiled: audit_part",
        "[executing] Executing: script submitted once",
        "  executed: PASS",
        "[complete] Verified",
    ):
        assert words in run.err
    assert "Add two unit QUADs" in run.err  # the spec was streamed
    design_request = provider_env.requests[0].json
    assert "tools" not in design_request  # I1 on the wire
    assert [t["function"]["name"] for t in provider_env.requests[1].json["tools"]] == [
        "build_part",
        "audit_part",
    ]
    run_dir = tmp_path / "runs" / result["run_id"]
    for path in (tmp_path / "runs").rglob("*"):
        if path.is_file():
            assert API_KEY.encode() not in path.read_bytes(), path
    assert json.loads((run_dir / "part_audit.json").read_text())["counts"]["nodes"] == 12


def test_declining_the_spec_executes_nothing_exit_3(tmp_path, capsys, provider_env, stub_module):
    workspace = new_workspace(tmp_path / "w.sam.json")
    provider_env.enqueue_reply(SPEC)
    out = tmp_path / "out.sam.json"
    args = base_args(workspace, tmp_path / "runs") + ["--request", "quads", "--save", str(out)]
    run = run_cli(args, capsys, stdin="n\n")
    assert run.code == 3
    assert "Confirm this spec and let the model fill in the tool calls? [y/N]" in run.err
    assert run.out.startswith("Cancelled: nothing was executed.")
    assert len(provider_env.requests) == 1 and not out.exists()


def test_answering_yes_on_the_terminal_runs_it(tmp_path, capsys, provider_env, stub_module):
    workspace = new_workspace(tmp_path / "w.sam.json")
    script(provider_env)
    run = run_cli(base_args(workspace, tmp_path / "runs") + ["--request", "q"], capsys,
                  "y\ny\n")
    assert run.code == 0, run.err
    assert "Execute this plan? [y/N]" in run.err
    assert run.out.startswith("Verified: the change was executed once and confirmed by readback.")
    assert "  [ok ] element count: expected 2, actual 2" in run.out


def test_out_of_order_round_returns_to_review_exit_3(tmp_path, capsys, provider_env, stub_module):
    workspace = new_workspace(tmp_path / "w.sam.json")
    provider_env.enqueue_reply(SPEC)
    provider_env.enqueue_reply(tool_calls=[("audit_part", "{}"), ("build_part", "{}")])
    out = tmp_path / "out.sam.json"
    args = base_args(workspace, tmp_path / "runs")
    run = run_cli(
        args + ["--request", "q", "--yes", "--json", "--save", str(out), "--repairs", "0"], capsys
    )
    assert run.code == 3
    assert run.result["status"] == "rejected"
    assert run.result["error"]["layer"] == "tool_call"
    assert not out.exists()


def test_execution_failure_exit_1_and_nothing_saved(tmp_path, capsys, provider_env, stub_module):
    workspace = new_workspace(tmp_path / "w.sam.json")
    script(provider_env, build_args='{"crash": true}')
    out = tmp_path / "out.sam.json"
    args = base_args(workspace, tmp_path / "runs")
    run = run_cli(args + ["--request", "q", "--yes", "--save", str(out)], capsys)
    assert run.code == 1
    assert run.out.startswith("Failed at execution; the part was restored exactly as it was\n"
                              "  execution: the script failed in SAM (FAIL).")
    assert "RuntimeError: host refused" in run.out
    assert "[restoring] Restoring: putting the part back as it was" in run.err
    assert not out.exists()


def test_design_refused_exit_1(tmp_path, capsys, provider_env, stub_module):
    workspace = new_workspace(tmp_path / "w.sam.json")
    provider_env.enqueue_reply("Something vague.")
    provider_env.enqueue_reply("Still something vague.")
    run = run_cli(base_args(workspace, tmp_path / "runs") + ["--request", "q", "--json"], capsys)
    assert run.code == 1
    error = run.result["error"]
    assert (error["layer"], error["part"]) == ("design", "unchanged")
    assert error["message"].startswith("the model did not write a usable spec (the answer is "
                                       "prose, not a spec")


def test_missing_provider_settings_is_usage_exit_2(tmp_path, capsys, monkeypatch):
    workspace = new_workspace(tmp_path / "w.sam.json")
    monkeypatch.setenv("SAM_AGENT_BASE_URL", "")
    run = run_cli(base_args(workspace, tmp_path / "runs") + ["--request", "q"], capsys)
    assert run.code == 2
    assert run.err.splitlines()[-1].startswith(
        "sam-agent: error: provider settings incomplete: missing base_url, model"
    )


def test_missing_workspace_and_bad_mode_are_usage_exit_2(tmp_path, capsys, provider_env):
    run = run_cli(
        base_args(tmp_path / "nope.sam.json", tmp_path / "r") + ["--request", "q"], capsys
    )
    assert run.code == 2
    assert "sam-agent: error: --workspace: no such file" in run.err
    args = base_args(tmp_path / "w.sam.json", tmp_path / "r", mode="contact") + ["--request", "q"]
    run = run_cli(args, capsys)
    assert run.code == 2 and "invalid choice: 'contact'" in run.err
    run = run_cli(base_args(tmp_path / "w.sam.json", tmp_path / "r"), capsys)
    assert run.code == 2
    assert "one of the arguments --request --request-file --spec is required" in run.err


def test_request_file_and_flags_override_env(
    tmp_path, capsys, provider_env, stub_module, monkeypatch
):
    workspace = new_workspace(tmp_path / "w.sam.json")
    monkeypatch.setenv("SAM_AGENT_BASE_URL", "http://127.0.0.1:9/v1")  # flag wins
    monkeypatch.delenv("SAM_AGENT_MODEL")
    (tmp_path / "req.txt").write_text("two quads please", encoding="utf-8")
    script(provider_env)
    args = base_args(workspace, tmp_path / "runs") + [
        "--request-file",
        str(tmp_path / "req.txt"),
        "--yes",
        "--json",
        "--base-url",
        provider_env.base_url,
        "--api-model",
        "flag-model",
    ]
    run = run_cli(args, capsys)
    assert run.code == 0, run.err
    assert provider_env.requests[0].json["model"] == "flag-model"
    run_dir = tmp_path / "runs" / run.result["run_id"]
    assert (run_dir / "request.txt").read_text(encoding="utf-8") == "two quads please"


def test_demo_subcommand_calls_the_ui_demo_lazily(monkeypatch):
    from sam_plugin.cli import main as cli  # the console entry dispatches demo to the UI

    seen = []
    fake = types.ModuleType("sam_plugin.ui.demo")
    fake.main = lambda argv: seen.append(argv) or 0
    monkeypatch.setitem(sys.modules, "sam_plugin.ui.demo", fake)
    import sam_plugin.ui

    monkeypatch.setattr(sam_plugin.ui, "demo", fake, raising=False)
    assert cli.main(["demo", "--workspace", "w.sam.json"]) == 0
    assert seen == [["--workspace", "w.sam.json"]]


def test_truncated_tool_stream_returns_to_review_exit_3(
    tmp_path, capsys, provider_env, stub_module
):
    from sam_plugin.demo.streams import openai_stream

    workspace = new_workspace(tmp_path / "w.sam.json")
    provider_env.enqueue_reply(SPEC)
    cut = openai_stream(tool_calls=[("build_part", '{"quads": 2}'), ("audit_part", "{}")])
    for _ in range(2):  # the provider retries a broken stream once
        provider_env.enqueue_stream(cut, abort_after=4)
    out = tmp_path / "out.sam.json"
    args = base_args(workspace, tmp_path / "runs")
    run = run_cli(args + ["--request", "q", "--yes", "--json", "--save", str(out)], capsys)
    assert run.code == 3, run.err
    assert run.result["status"] == "rejected" and run.result["submissions"] == 0
    assert run.result["error"]["layer"] == "provider"
    assert run.result["error"]["message"].startswith("round 1: ")
    assert not out.exists()


def test_design_answered_with_a_tool_call_is_never_collected(
    tmp_path, capsys, provider_env, stub_module
):
    workspace = new_workspace(tmp_path / "w.sam.json")
    provider_env.enqueue_reply(SPEC, tool_calls=[("build_part", '{"quads": 9}')])
    provider_env.enqueue_reply(tool_calls=[("build_part", '{"quads": 1}'), ("audit_part", "{}")])
    run = run_cli(
        base_args(workspace, tmp_path / "runs") + ["--request", "q", "--yes", "--json"], capsys
    )
    assert run.code == 0, run.err
    assert "tools" not in provider_env.requests[0].json
    assert run.result["after"]["element_count"] == 1  # the design-time call (9 quads) was ignored


def test_declining_the_plan_executes_nothing_exit_3(tmp_path, capsys, provider_env, stub_module):
    workspace = new_workspace(tmp_path / "w.sam.json", quads=1)
    script(provider_env)
    out = tmp_path / "out.sam.json"
    args = base_args(workspace, tmp_path / "runs") + ["--request", "q", "--save", str(out),
                                                       "--json"]
    run = run_cli(args, capsys, "y\nn\n")
    assert run.code == 3, run.err
    err = run.err
    assert err.index("Confirm this spec") < err.index("--- plan (compiled, not executed")
    assert "1. build_part" in err and "2. audit_part" in err
    assert "Execute this plan? [y/N]" in err
    assert "[executing]" not in err and not out.exists()
    result = run.result
    assert (result["status"], result["submissions"]) == ("cancelled", 0)
    assert result["plan"]["script_sha256"] == result["script_sha256"]
    assert [c["tool"] for c in result["plan"]["calls"]] == ["build_part", "audit_part"]
    run_dir = tmp_path / "runs" / result["run_id"]
    logged = [json.loads(line) for line in (run_dir / "events.jsonl").read_text().splitlines()]
    events = [e["event"] for e in logged]
    assert events[-3:] == ["plan_shown", "approval_requested", "plan_declined"]
    assert logged[-2]["channel"] == "cli"  # the terminal's own question asked the analyst


def test_yes_answers_the_plan_too_and_json_carries_it(tmp_path, capsys, provider_env,
                                                       stub_module):
    workspace = new_workspace(tmp_path / "w.sam.json", quads=1)
    script(provider_env)
    run = run_cli(base_args(workspace, tmp_path / "runs") + ["--request", "q", "--yes",
                                                             "--json"], capsys)
    assert run.code == 0, run.err
    assert "Execute this plan?" not in run.err
    assert run.result["plan"]["after"]["elements"] == "3"
