"""``sam-agent run --explore``: read-only questions before the spec, with the real pieces."""

from __future__ import annotations

import json

from cli_support import base_args, new_workspace, run_cli

from sam_plugin.runtime.events import read_events
from tests.support.specs import answer, step


def test_explore_queries_then_designs_without_tools_and_changes_nothing(
    tmp_path, capsys, provider_env
):
    workspace = new_workspace(tmp_path / "w.sam.json", quads=3)
    query = {"entity": "elements", "by": "labels", "labels": [2]}
    provider_env.enqueue_reply(tool_calls=[("query_entities", json.dumps(query))])
    provider_env.enqueue_reply("Element 2 is the middle quad; nothing else is needed.")
    provider_env.enqueue_reply(answer(step("audit", checks=["counts", "free_nodes"]),
                                      summary="Audit the part: counts and free nodes."))
    provider_env.enqueue_reply(
        tool_calls=[("audit_part", json.dumps({"checks": ["counts", "free_nodes"]}))]
    )
    argv = base_args(workspace, tmp_path / "runs") + [
        "--yes", "--json", "--explore", "--request", "audit the middle quad",
        # the whole spec's request, whose shape this checks (in parts: test_design_parts.py)
        "--design", "whole",
    ]
    run = run_cli(argv, capsys)
    assert run.code == 0, run.out + run.err
    result = run.result
    assert result["status"] == "verified"
    # three separate unit quads (4 nodes each); audit and exploration change nothing
    assert result["before"]["node_count"] == result["after"]["node_count"] == 12

    requests = [r.json for r in provider_env.requests]
    exploration_tools = {t["function"]["name"] for t in requests[0]["tools"]}
    assert exploration_tools == {"query_regions", "query_entities"}
    design_request = requests[2]
    assert "tools" not in design_request  # I1 holds after exploration too
    design_user = design_request["messages"][-1]["content"]
    assert "Exploration (read-only)" in design_user and "regions" in design_user

    run_dir = tmp_path / "runs" / result["run_id"]
    exploration = json.loads((run_dir / "exploration.json").read_text())
    assert exploration["exit_reason"] == "stop"
    queries = [q for t in exploration["turns"] for q in t["queries"]]
    assert [q["tool"] for q in queries] == ["query_entities"]
    assert queries[0].get("error") is None and "2" in json.dumps(queries[0]["result"])
    workspace_json = json.loads((run_dir / "workspace.json").read_text())
    assert workspace_json["regions"]["fingerprint"]
    names = [e["event"] for e in read_events(run_dir / "events.jsonl")]
    assert names.index("exploration_completed") < names.index("design_received")
    assert "exploration_query" in names
