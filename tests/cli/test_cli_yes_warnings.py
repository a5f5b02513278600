"""``--yes`` approves a plan only when it carries no warning; a warned plan stops at exit 3
unless ``--yes-with-warnings`` (docs/architecture.md §6). On main, a plan reading "1
destructive, 1 warning(s)" (the calls delete all, the spec expects 3 elements left) ran."""

from __future__ import annotations

import json

from cli_support import base_args, new_workspace, run_cli, saved_counts

from tests.support.specs import ALL, answer, step

# deleting all elements binds to the step, but not to the spec's own expectation: a warning
SPEC = answer(step("delete_elements", ALL), summary="Delete the elements.",
              expected={"nodes": 16, "elements": 3})
DELETE_ALL = {"delete_elements": {"by": "all"}}
DELETE_TWO = {"delete_elements": {"by": "labels", "labels": [2]}}


def _run(tmp_path, capsys, provider_env, call, *flags):
    workspace = new_workspace(tmp_path / "w.sam.json", quads=4)
    provider_env.enqueue_reply(SPEC)
    provider_env.enqueue_reply(tool_calls=[("edit_part", json.dumps(call))])
    out = tmp_path / "out.sam.json"
    args = base_args(workspace, tmp_path / "runs") + [
        "--request", "delete element 2", "--json", "--save", str(out), *flags]
    return run_cli(args, capsys), out


def test_yes_stops_at_a_warned_plan_with_exit_3(tmp_path, capsys, provider_env):
    run, out = _run(tmp_path, capsys, provider_env, DELETE_ALL, "--yes")
    assert run.code == 3, run.err
    result = run.result
    assert (result["status"], result["submissions"]) == ("cancelled", 0)
    assert not out.exists()
    assert "WARNING: the spec expects 3 elements; the calls leave 0 elements" in run.err
    assert ("sam-agent: the plan was not executed: it carries 2 warning(s), and --yes approves "
            "only a plan without warnings; read them, then run again without --yes to answer, "
            "or with --yes-with-warnings") in run.err
    events = [json.loads(line)["event"] for line in
              (tmp_path / "runs" / result["run_id"] / "events.jsonl").read_text().splitlines()]
    assert "plan_declined" in events and "execution_submitted" not in events


def test_yes_with_warnings_executes_it(tmp_path, capsys, provider_env):
    run, out = _run(tmp_path, capsys, provider_env, DELETE_ALL, "--yes-with-warnings")
    assert run.code == 0, run.err
    assert run.result["status"] == "verified"
    assert saved_counts(out) == (16, 0)


def test_yes_executes_a_destructive_plan_without_warnings(tmp_path, capsys, provider_env):
    run, out = _run(tmp_path, capsys, provider_env, DELETE_TWO, "--yes")
    assert run.code == 0, run.err
    assert saved_counts(out) == (16, 3)


def test_the_help_says_what_yes_approves(capsys):
    from sam_plugin.cli.main import main

    assert main(["run", "--help"]) == 0
    help_text = " ".join(capsys.readouterr().out.split())
    assert ("--yes confirm the spec and approve a plan that carries no warning; a plan with "
            "warnings stops (exit 3)") in help_text
    assert "--yes-with-warnings" in help_text
