"""``sam-agent run --mode mesh``: refine → audit over two rounds, executed once."""

from __future__ import annotations

import json

from cli_support import base_args, new_workspace, run_cli, saved_counts

from tests.support.specs import ALL, answer, step


def test_refine_then_audit(tmp_path, capsys, provider_env):
    workspace = new_workspace(tmp_path / "w.sam.json", quads=1)
    provider_env.enqueue_reply(
        answer(step("refine", ALL, mode="mesh", levels=1, text="每个 QUAD 一分为四。"),
               step("audit", mode="mesh", text="然后审计网格。"),
               summary="将全部单元细化一级，然后审计网格。"),
        style="deepseek",
        reasoning="The user wants one refinement level, then an audit.",
    )
    refine = {"selection": {"by": "all"}, "levels": 1}
    provider_env.enqueue_reply(tool_calls=[("refine_mesh", json.dumps(refine))])
    provider_env.enqueue_reply(tool_calls=[("audit_mesh", "{}")])
    out = tmp_path / "out.sam.json"
    args = base_args(workspace, tmp_path / "runs", mode="mesh") + [
        "--request",
        "把全部单元细化一级并审计",
        "--yes",
        "--json",
        "--save",
        str(out),
    ]
    run = run_cli(args, capsys)
    assert run.code == 0, run.out + run.err
    result = run.result
    assert result["status"] == "verified" and result["module"] == "mesh"
    assert result["tools"] == ["refine_mesh", "audit_mesh"]
    assert result["after"]["element_count"] == 4 and result["after"]["node_count"] == 9
    assert saved_counts(out) == (9, 4)
    run_dir = tmp_path / "runs" / result["run_id"]
    route = json.loads((run_dir / "design_route.json").read_text(encoding="utf-8"))
    assert route["method"] == "steps"
    assert (run_dir / "mesh_audit.json").is_file()
    assert (run_dir / "provider_tool_response.2.sse").is_file()
    assert "one refinement level" not in (run_dir / "design.txt").read_text(encoding="utf-8")
