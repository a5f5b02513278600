"""repair_part and audit_part."""

from __future__ import annotations

import json
from typing import Any

import pytest

from sam_plugin.errors import CompileError


def _two_loose_plates(harness: Any) -> None:
    """Two 2x2 plates side by side sharing an edge geometrically but not topologically."""
    harness.grid(2, 2)
    result = harness.run("copy", [("transform_part", {"operations": [
        {"op": "translate_copy", "vector": [2, 0, 0]}]})])
    assert result.receipt.status == "PASS"


def test_merge_coincident_nodes_connects_copies(harness: Any) -> None:
    _two_loose_plates(harness)
    result = harness.run("merge", [("repair_part", {"merge_coincident_nodes": {}})])
    assert result.receipt.status == "PASS", result.receipt.traceback
    assert (result.before.node_count, result.after.node_count) == (18, 15)
    assert harness.within(result.evidence, result.after) == []


def test_translate_then_merge_then_audit_in_one_run(harness: Any) -> None:
    _two_loose_plates(harness)
    result = harness.run("把全部单元沿 X 平移 500 后合并重合节点并审计", [
        ("transform_part", {"operations": [{"op": "translate", "vector": [500, 0, 0]}]}),
        ("repair_part", {"merge_coincident_nodes": {"tolerance": 1e-3}}),
        ("audit_part", {})])
    assert result.receipt.status == "PASS", result.receipt.traceback
    assert result.after.node_count == 15
    assert harness.within(result.evidence, result.after) == []
    report = json.loads((result.output_dir / "part_audit.json").read_text())
    assert report["counts"]["nodes"] == 15
    assert report["coincident_nodes"]["total"] == 0
    assert result.evidence.files == ["part_audit.json"]


def test_duplicates_and_free_nodes(harness: Any) -> None:
    harness.grid(1, 1)
    part = harness.part()
    from samConstants import QUAD

    n = [part.nodes.getFromLabel(k) for k in (1, 2, 4, 3)]
    part.Element(nodes=(n[1], n[2], n[3], n[0]), elemShape=QUAD)  # same nodes, rotated
    part.Node(coordinates=(9, 9, 9))
    result = harness.run("delete duplicate elements and free nodes", [("repair_part", {
        "delete_duplicate_elements": True, "delete_free_nodes": True})])
    assert result.receipt.status == "PASS", result.receipt.traceback
    assert (result.after.node_count, result.after.element_count) == (4, 1)
    assert result.evidence.node_count.describe() == "4"
    assert result.evidence.element_count.describe() == "1"
    assert [e.label for e in harness.part().elements] == [1]


def test_repair_asking_nothing_is_rejected(harness: Any) -> None:
    harness.grid(1, 1)
    with pytest.raises(CompileError) as err:
        harness.compile_all("repair", [("repair_part", {"delete_free_nodes": False})])
    assert [str(d) for d in err.value.diagnostics] == [
        "repair_part asks for nothing; give merge_coincident_nodes, delete_duplicate_elements: "
        "true or delete_free_nodes: true"]


def test_audit_is_read_only_and_reports_findings_with_labels(harness: Any) -> None:
    harness.grid(2, 1)
    part = harness.part()
    from samConstants import QUAD, TRI

    n = {k: part.nodes.getFromLabel(k) for k in range(1, 7)}
    part.Element(nodes=(n[2], n[5], n[4], n[1]), elemShape=QUAD)  # duplicate of element 1
    skinny = part.Node(coordinates=(1.0, 0.0, 0.0))  # coincident with node 2
    far = part.Node(coordinates=(50.0, 0.0, 0.0))
    part.Element(nodes=(n[1], far, n[4]), elemShape=TRI)  # long skinny triangle
    part.Node(coordinates=(7, 7, 7))  # free
    result = harness.run("audit the part", [("audit_part", {"checks": [
        "quality", "counts", "free_nodes", "duplicate_elements", "coincident_nodes",
        "degenerate_elements", "counts"]})])
    assert result.receipt.status == "PASS", result.receipt.traceback
    assert result.before.fingerprint == result.after.fingerprint
    assert result.evidence.geometry_unchanged
    assert result.fragments[0].normalized["checks"] == [
        "counts", "free_nodes", "duplicate_elements", "coincident_nodes",
        "degenerate_elements", "quality"]
    report = json.loads((result.output_dir / "part_audit.json").read_text())
    assert report["counts"] == {"nodes": 9, "elements": 4, "sets": [],
                                "shapes": {"QUAD": 3, "TRI": 1, "BEAM": 0}}
    assert report["free_nodes"]["labels"] == [skinny.label, 9]
    assert report["duplicate_elements"] == {"total": 1, "labels": [[3]], "truncated": False,
                                            "extra_elements": 1}
    assert report["coincident_nodes"]["labels"] == [[2, skinny.label]]
    assert report["degenerate_elements"]["total"] == 0
    assert report["quality"]["aspect_ratio"]["labels"] == [4]
    assert report["quality"]["min_angle_deg"]["labels"] == [4]
    assert report["bounding_box"] == {"min": [0.0, 0.0, 0.0], "max": [50.0, 7.0, 7.0]}


def test_audit_needs_a_part(harness: Any) -> None:
    with pytest.raises(CompileError, match="there is nothing to audit"):
        harness.compile_all("audit", [("audit_part", {})])


def test_build_then_audit_in_one_run(harness: Any) -> None:
    result = harness.run("build and audit", [
        ("build_part", {"lines": [{"id": "L", "start": [0, 0, 0], "end": [4, 0, 0],
                                   "divisions": 4}]}),
        ("audit_part", {"checks": ["counts"]})])
    assert result.receipt.status == "PASS", result.receipt.traceback
    report = json.loads((result.output_dir / "part_audit.json").read_text())
    assert report["counts"]["shapes"]["BEAM"] == 4
    assert "require_part" not in result.script.text
