"""``sam-agent run --mode property``: define → assign → audit, end to end."""

from __future__ import annotations

import json

from cli_support import base_args, new_workspace, run_cli

from tests.support.specs import ALL, answer, step


def test_define_assign_audit(tmp_path, capsys, provider_env):
    workspace = new_workspace(tmp_path / "w.sam.json", quads=2)
    provider_env.enqueue_reply(answer(
        step("define_material", mode="property", name="Steel", E=210000, nu=0.3),
        step("define_section", mode="property", name="Shell-1", kind="shell",
             material="Steel", thickness=2),
        step("assign_section", ALL, mode="property", section="Shell-1"),
        step("audit", mode="property"),
        summary="Steel, a 2 mm shell section Shell-1 on all elements, then an audit."))
    define = {
        "materials": [{"name": "Steel", "youngs_modulus": 210000, "poisson_ratio": 0.3}],
        "sections": [{"name": "Shell-1", "kind": "shell", "material": "Steel", "thickness": 2}],
    }
    assign = {"assignments": [{"section": "Shell-1", "selection": {"by": "all"}}]}
    provider_env.enqueue_reply(
        tool_calls=[
            ("define_property", json.dumps(define)),
            ("assign_property", json.dumps(assign)),
            ("audit_property", "{}"),
        ]
    )
    out = tmp_path / "out.sam.json"
    args = base_args(workspace, tmp_path / "runs", mode="property") + [
        "--request",
        "steel (E 210000, nu 0.3), shell 2 mm on everything, then audit",
        "--yes",
        "--json",
        "--save",
        str(out),
    ]
    run = run_cli(args, capsys)
    assert run.code == 0, run.out + run.err
    result = run.result
    assert result["status"] == "verified" and result["module"] == "property"
    assert result["tools"] == ["define_property", "assign_property", "audit_property"]
    assert result["before"]["node_count"] == result["after"]["node_count"] == 8
    checks = {c["name"]: c for c in result["checks"]}
    assert checks["material Steel"]["actual"] == "present"
    assert checks["section Shell-1"]["actual"] == "present"
    assert checks["elements with a section"]["actual"] == "2"
    assert checks["geometry unchanged"]["ok"]
    run_dir = tmp_path / "runs" / result["run_id"]
    assert (run_dir / "property_audit.json").is_file()
    saved = json.loads(out.read_text())
    assert [s["name"] for s in saved["models"][0]["sections"]] == ["Shell-1"]
