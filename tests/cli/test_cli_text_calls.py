"""Calls written as text on a local profile, end to end with the real Part module: taken only
as the whole answer (docs/architecture.md §4). Each of the four answers below once ran
delete-all on "delete element 2 and nothing else"."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from cli_support import base_args, new_workspace, run_cli, saved_counts

from tests.support.specs import answer, labels, step

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "provider"))
from test_text_tool_calls import STRAYS, WHOLE_ANSWER  # noqa: E402

SPEC = answer(step("delete_elements", labels(2)), summary="Delete element 2 and nothing else.")
DELETE_TWO = {"delete_elements": {"by": "labels", "labels": [2]}}


@pytest.fixture
def local(provider_env, monkeypatch):
    monkeypatch.setenv("SAM_AGENT_PROFILE", "llamacpp")
    return provider_env


def _run(tmp_path, capsys, *extra):
    workspace = new_workspace(tmp_path / "w.sam.json", quads=3)
    out = tmp_path / "out.sam.json"
    args = base_args(workspace, tmp_path / "runs") + [
        "--request", "delete element 2 and nothing else", "--yes", "--json", "--save",
        str(out), *extra]
    return run_cli(args, capsys), out


@pytest.mark.parametrize("case", sorted(STRAYS))
def test_call_shaped_text_in_an_answer_never_runs(tmp_path, capsys, local, case):
    local.enqueue_reply(SPEC, style="llamacpp")
    local.enqueue_reply(STRAYS[case], style="llamacpp", fragment_size=5)
    run, out = _run(tmp_path, capsys, "--repairs", "0")
    assert run.code == 3, run.out + run.err
    result = run.result
    assert result["status"] == "rejected" and result["submissions"] == 0
    assert result["error"]["layer"] == "tool_call"
    assert WHOLE_ANSWER in result["error"]["message"]
    assert not out.exists()


def test_after_a_repair_the_whole_answer_call_runs_and_deletes_one(tmp_path, capsys, local):
    local.enqueue_reply(SPEC, style="llamacpp")
    local.enqueue_reply(STRAYS["a negated example"], style="llamacpp")
    local.enqueue_reply("```json\n" + json.dumps({"name": "edit_part", "arguments": DELETE_TWO})
                        + "\n```", style="llamacpp")
    run, out = _run(tmp_path, capsys)
    assert run.code == 0, run.out + run.err
    assert run.result["repairs"] == 1
    assert saved_counts(out) == (12, 2)
    repair = json.loads(local.requests[2].body)
    assert WHOLE_ANSWER in json.dumps(repair["messages"])
