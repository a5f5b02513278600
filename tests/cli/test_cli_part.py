"""End to end through ``sam-agent run`` with the real Part module, stub SAM and loopback fake."""

from __future__ import annotations

import json

from cli_support import base_args, new_workspace, run_cli, saved_counts

from sam_plugin.runtime.events import read_events
from sam_plugin.runtime.store.journal import SubmissionJournal
from tests.support.specs import ALL, answer, step

PLATE = {
    "patches": [
        {
            "id": "P1",
            "shape": "QUAD",
            "corners": [[0, 0, 0], [60, 0, 0], [60, 100, 0], [0, 100, 0]],
            "divisions": [6, 10],
        }
    ]
}


def args_for(tmp_path, workspace, *extra: str) -> list[str]:
    return base_args(workspace, tmp_path / "runs") + ["--yes", "--json", *extra]


def test_build_a_plate_from_a_patch(tmp_path, capsys, provider_env):
    workspace = new_workspace(tmp_path / "w.sam.json")
    provider_env.enqueue_reply(answer(
        step("build", shape="QUAD", size=[60, 100], divisions=[6, 10], nodes=77, elements=60),
        summary="Build a 60 x 100 plate in the XY plane, one QUAD patch meshed 6 x 10."))
    provider_env.enqueue_reply(tool_calls=[("build_part", json.dumps(PLATE))])
    out = tmp_path / "out.sam.json"
    request = "build a 60 x 100 plate meshed 6 x 10 with QUAD elements"
    run = run_cli(args_for(tmp_path, workspace, "--request", request, "--save", str(out)), capsys)
    assert run.code == 0, run.out + run.err
    result = run.result
    assert result["status"] == "verified" and result["tools"] == ["build_part"]
    assert result["after"]["node_count"] == 77 and result["after"]["element_count"] == 60
    assert result["after"]["shape_counts"] == {"QUAD": 60, "TRI": 0, "BEAM": 0}
    assert saved_counts(out) == (77, 60)
    run_dir = tmp_path / "runs" / result["run_id"]
    normalized = json.loads((run_dir / "normalized_calls.json").read_text())
    assert [c["tool"] for c in normalized] == ["build_part"]
    script = (run_dir / "generated_script.py").read_text()
    assert "SAM_AGENT_COMPLETED = True" in script


def test_edit_reuses_coordinates_of_surviving_nodes(tmp_path, capsys, provider_env):
    workspace = new_workspace(tmp_path / "w.sam.json", quads=1)
    provider_env.enqueue_reply(answer(
        step("add_elements", count=1, shape="QUAD"),
        summary="Add one unit QUAD to the right of the existing one, sharing its edge at x = 1."))
    edit = {
        "nodes": [
            {"id": "a", "coordinates": [1, 0, 0]},
            {"id": "b", "coordinates": [2, 0, 0]},
            {"id": "c", "coordinates": [2, 1, 0]},
            {"id": "d", "coordinates": [1, 1, 0]},
        ],
        "add_elements": [{"id": "q2", "shape": "QUAD", "node_ids": ["a", "b", "c", "d"]}],
    }
    provider_env.enqueue_reply(tool_calls=[("edit_part", json.dumps(edit))])
    request = "add a quad to the right of the existing one"
    run = run_cli(args_for(tmp_path, workspace, "--request", request), capsys)
    assert run.code == 0, run.out + run.err
    result = run.result
    assert result["before"]["node_count"] == 4
    assert result["after"]["node_count"] == 6 and result["after"]["element_count"] == 2


def test_transform_repair_audit_over_three_rounds_executed_once(tmp_path, capsys, provider_env):
    workspace = new_workspace(tmp_path / "w.sam.json", quads=1)
    provider_env.enqueue_reply(answer(
        step("translate_copy", ALL, vector=[1, 0, 0]), step("merge_nodes", tolerance=1e-6),
        step("audit", checks=["counts", "free_nodes"]),
        summary="Copy the quad 1 along X, merge coincident nodes and audit."))
    provider_env.enqueue_reply(
        tool_calls=[
            (
                "transform_part",
                json.dumps({"operations": [{"op": "translate_copy", "vector": [1, 0, 0]}]}),
            )
        ]
    )
    provider_env.enqueue_reply(
        tool_calls=[("repair_part", json.dumps({"merge_coincident_nodes": {"tolerance": 1e-6}}))]
    )
    provider_env.enqueue_reply(
        tool_calls=[("audit_part", json.dumps({"checks": ["counts", "free_nodes"]}))]
    )
    request = "copy the quad 1 along X, merge coincident nodes within 1e-6 and audit"
    run = run_cli(args_for(tmp_path, workspace, "--request", request), capsys)
    assert run.code == 0, run.out + run.err
    result = run.result
    assert result["tools"] == ["transform_part", "repair_part", "audit_part"]
    assert result["after"]["node_count"] == 6 and result["after"]["element_count"] == 2
    offered = [
        [t["function"]["name"] for t in r.json.get("tools", [])] for r in provider_env.requests
    ]
    assert offered == [
        [],
        ["transform_part", "repair_part", "audit_part"],
        ["repair_part", "audit_part"],
        ["audit_part"],
    ]
    run_dir = tmp_path / "runs" / result["run_id"]
    events = [e["event"] for e in read_events(run_dir / "events.jsonl")]
    assert events.count("execution_submitted") == 1
    assert events.index("execution_submitted") > max(
        i for i, e in enumerate(events) if e == "tool_call_collected"
    )
    journal = SubmissionJournal(tmp_path / "runs" / "submissions.jsonl").entries()
    assert [(e.run_id, e.state) for e in journal] == [
        (result["run_id"], "submitted"),
        (result["run_id"], "executed"),
    ]
    assert (run_dir / "part_audit.json").is_file()
    assert (run_dir / "provider_tool_response.3.sse").is_file()


def test_a_call_that_does_not_compile_returns_to_review_exit_3(tmp_path, capsys, provider_env):
    workspace = new_workspace(tmp_path / "w.sam.json")
    provider_env.enqueue_reply(answer(step("build", shape="QUAD", elements=1),
                                      summary="Build one QUAD from three nodes."))
    bad = {
        "nodes": [
            {"id": "n1", "coordinates": [0, 0, 0]},
            {"id": "n2", "coordinates": [1, 0, 0]},
            {"id": "n3", "coordinates": [1, 1, 0]},
        ],
        "elements": [{"id": "e1", "shape": "QUAD", "node_ids": ["n1", "n2", "n3"]}],
    }
    provider_env.enqueue_reply(tool_calls=[("build_part", json.dumps(bad))])
    out = tmp_path / "out.sam.json"
    run = run_cli(
        args_for(tmp_path, workspace, "--request", "a quad", "--save", str(out), "--repairs", "0"),
        capsys,
    )
    assert run.code == 3, run.out + run.err
    result = run.result
    assert result["status"] == "rejected" and result["error"]["layer"] == "compile"
    assert result["repairs"] == 0
    assert result["error"]["message"].startswith("build_part: ")
    assert "elements[0]" in result["error"]["message"]
    assert result["submissions"] == 0 and not out.exists()
    run_dir = tmp_path / "runs" / result["run_id"]
    assert not (run_dir / "generated_script.py").exists()
