"""``sam-agent undo RUN_ID --workspace W --save OUT``: back to the database before the run,
or refused (exit 1, nothing written) when the part changed since."""

from __future__ import annotations

import json

from cli_support import base_args, new_workspace, run_cli

from tests.support.specs import answer, step

EDIT = {
    "nodes": [{"id": "a", "coordinates": [1, 0, 0]}, {"id": "b", "coordinates": [2, 0, 0]},
              {"id": "c", "coordinates": [2, 1, 0]}, {"id": "d", "coordinates": [1, 1, 0]}],
    "add_elements": [{"id": "q2", "shape": "QUAD", "node_ids": ["a", "b", "c", "d"]}],
}


def _verified_edit(tmp_path, capsys, provider_env):
    workspace = new_workspace(tmp_path / "w.sam.json", quads=1)
    provider_env.enqueue_reply(answer(step("add_elements", count=1, shape="QUAD"),
                                      summary="Add one unit QUAD right of the existing one."))
    provider_env.enqueue_reply(tool_calls=[("edit_part", json.dumps(EDIT))])
    out = tmp_path / "edited.sam.json"
    args = base_args(workspace, tmp_path / "runs") + [
        "--request", "add a quad to the right", "--yes", "--json", "--save", str(out)]
    run = run_cli(args, capsys)
    assert run.code == 0, run.out + run.err
    assert run.result["undoable"] is True
    return workspace, out, run.result["run_id"]


def _parts(path):
    data = json.loads(path.read_text())
    parts = data["models"][0]["parts"]
    for part in parts:
        part.pop("nextNodeLabel"), part.pop("nextElementLabel")
    return data["models"][0]["name"], parts


def test_undo_writes_the_database_as_before_the_run(tmp_path, capsys, provider_env):
    workspace, edited, run_id = _verified_edit(tmp_path, capsys, provider_env)
    undone = tmp_path / "undone.sam.json"
    run = run_cli(["undo", run_id, "--workspace", str(edited), "--save", str(undone),
                   "--runs-dir", str(tmp_path / "runs")], capsys)
    assert run.code == 0, run.out + run.err
    assert f"undone: run {run_id}" in run.out
    assert _parts(undone) == _parts(workspace)
    result = json.loads((tmp_path / "runs" / run_id / "result.json").read_text())
    assert result["status"] == "undone"
    assert result["after"]["fingerprint"] == result["before"]["fingerprint"]
    events = (tmp_path / "runs" / run_id / "events.jsonl").read_text()
    assert '"event": "run_undone"' in events
    again = run_cli(["undo", run_id, "--workspace", str(edited), "--save",
                     str(tmp_path / "twice.sam.json"), "--runs-dir", str(tmp_path / "runs")],
                    capsys)
    assert again.code == 1 and "already undone" in again.err


def test_undo_refused_when_the_part_changed_since(tmp_path, capsys, provider_env):
    import sam

    _, edited, run_id = _verified_edit(tmp_path, capsys, provider_env)
    sam.openMdb(str(edited))
    part = sam.mdb.models["Model-1"].parts["Plate"]
    part.editNode(nodes=part.nodes.getFromLabel(1), coordinates=(0.0, 0.0, 1.0))
    sam.mdb.saveAs(str(edited))
    out = tmp_path / "never.sam.json"
    run = run_cli(["undo", run_id, "--workspace", str(edited), "--save", str(out),
                   "--runs-dir", str(tmp_path / "runs")], capsys)
    assert run.code == 1
    assert "undo refused" in run.err and "changed after run" in run.err
    assert not out.exists()
    result = json.loads((tmp_path / "runs" / run_id / "result.json").read_text())
    assert result["status"] == "verified"


def test_undo_usage_errors(tmp_path, capsys):
    run = run_cli(["undo", "20261201T000000Z-abcdef", "--workspace", str(tmp_path / "no"),
                   "--save", str(tmp_path / "o.sam.json")], capsys)
    assert run.code == 2 and "--workspace: no such file" in run.err
    workspace = new_workspace(tmp_path / "w.sam.json")
    run = run_cli(["undo", "not-a-run", "--workspace", str(workspace), "--save",
                   str(tmp_path / "o.sam.json"), "--runs-dir", str(tmp_path / "runs")], capsys)
    assert run.code == 1 and "is not a run id" in run.err
