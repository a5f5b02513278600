"""``sam-agent run --spec FILE|-`` (docs/architecture.md §6): the analyst's own spec, no model
asked; with the calls computed from its steps no provider is configured at all. A spec
that is not one is said field by field; a file that is not JSON is a usage error."""

from __future__ import annotations

import json

from cli_support import base_args, new_workspace, run_cli, saved_counts

from tests.support.specs import ALL, answer, document, step

TRANSLATE = answer(step("translate", ALL, vector=[0, 0, 5]), summary="Lift the plate by 5.")


def _args(tmp_path, spec_arg, *flags, json_out=True):
    workspace = new_workspace(tmp_path / "w.sam.json", quads=2)
    out = tmp_path / "out.sam.json"
    return base_args(workspace, tmp_path / "runs") + [
        "--spec", spec_arg, *(["--json"] if json_out else []), "--save", str(out), *flags], out


def test_a_given_spec_verifies_with_no_provider_configured(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("SAM_AGENT_CALLS", "spec")
    for name in ("SAM_AGENT_BASE_URL", "SAM_AGENT_MODEL", "SAM_AGENT_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    spec_file = tmp_path / "spec.json"
    spec_file.write_text(TRANSLATE)
    args, out = _args(tmp_path, str(spec_file), "--yes")
    run = run_cli(args, capsys)
    assert run.code == 0, run.err
    assert run.result["status"] == "verified" and run.result["submissions"] == 1
    assert ("sam-agent: provider: none — the spec is given (--spec) and the calls are "
            "computed from its steps; no model is asked") in run.err
    assert "computed from the confirmed steps, not executed: transform_part" in run.err
    assert saved_counts(out) == (8, 2)
    directory = tmp_path / "runs" / run.result["run_id"]
    assert not any(p.name.startswith("provider_") for p in directory.iterdir())
    assert (directory / "request.txt").read_text() == "Lift the plate by 5."
    calls = json.loads((directory / "tool_calls.json").read_text())
    assert [c["source"] for c in calls] == ["spec"]
    plan = json.loads((directory / "plan.json").read_text())
    assert [c["source"] for c in plan["calls"]] == ["spec"]


def test_a_spec_on_stdin(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("SAM_AGENT_CALLS", "spec")
    args, out = _args(tmp_path, "-", "--yes")
    run = run_cli(args, capsys, stdin=TRANSLATE)
    assert run.code == 0, run.err
    assert saved_counts(out) == (8, 2)


def test_a_spec_that_is_not_one_is_said_field_by_field(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("SAM_AGENT_CALLS", "spec")
    spec_file = tmp_path / "spec.json"
    spec_file.write_text(json.dumps(document(step("translate", ALL, vector=[0, 5]))))
    args, out = _args(tmp_path, str(spec_file), "--yes", json_out=False)
    run = run_cli(args, capsys)
    assert run.code == 1 and not out.exists()
    assert "design: the given spec is not a spec of this mode: steps[0].values.vector" in run.out
    assert "next: Nothing was executed. Edit the spec (--spec) as the message says and run " \
        "again." in run.out


def test_a_file_that_is_not_json_is_a_usage_error(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("SAM_AGENT_CALLS", "spec")
    spec_file = tmp_path / "spec.json"
    spec_file.write_text("translate everything by 5")
    args, _ = _args(tmp_path, str(spec_file), "--yes")
    run = run_cli(args, capsys)
    assert run.code == 2
    assert f"--spec: {spec_file} is not JSON" in run.err


def test_a_given_spec_with_model_calls_needs_a_provider(tmp_path, capsys, monkeypatch):
    for name in ("SAM_AGENT_BASE_URL", "SAM_AGENT_MODEL", "SAM_AGENT_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    spec_file = tmp_path / "spec.json"
    spec_file.write_text(TRANSLATE)
    args, _ = _args(tmp_path, str(spec_file), "--yes", "--calls", "model")
    run = run_cli(args, capsys)
    assert run.code == 2
    assert "provider settings incomplete" in run.err
