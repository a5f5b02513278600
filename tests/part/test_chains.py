"""Chained Part calls: evidence simulated on a shadow of the part is exact, and it holds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sam_plugin.compilers.part import simulate
from sam_plugin.runtime.verify.verifier import verify

REQUEST = "copy the panel, merge coincident nodes and audit; put it in a set"


def _counts(result: Any) -> tuple[str, str, str, str, str]:
    e = result.evidence
    return (e.node_count.describe(), e.element_count.describe(),
            e.shape_counts["QUAD"].describe(), e.shape_counts["TRI"].describe(),
            e.shape_counts["BEAM"].describe())


def _ok(harness: Any, calls: list) -> Any:
    result = harness.run(REQUEST, calls)
    assert result.receipt.status == "PASS", result.receipt.traceback
    assert harness.within(result.evidence, result.after) == []
    return result


def _panel(harness: Any) -> None:
    """25 nodes, 16 QUADs: a 40 x 40 panel meshed 4 x 4."""
    harness.run("build a panel", [("build_part", {"patches": [{
        "id": "P", "shape": "QUAD", "divisions": [4, 4],
        "corners": [[0, 0, 0], [40, 0, 0], [40, 40, 0], [0, 40, 0]]}]})])


COPY_MERGE_AUDIT = [
    ("transform_part", {"operations": [{"op": "translate_copy", "vector": [40, 0, 0]}]}),
    ("repair_part", {"merge_coincident_nodes": {}}),
    ("audit_part", {}),
]


def test_translate_copy_merge_audit_is_exact(harness: Any, tmp_path: Path) -> None:
    _panel(harness)
    result = _ok(harness, COPY_MERGE_AUDIT)
    assert [f.evidence.node_count.describe() for f in result.fragments] == ["50", "45", "45"]
    assert _counts(result) == ("45", "32", "32", "0", "0")
    assert (result.after.node_count, result.after.element_count) == (45, 32)
    checks = {c.name: (c.expected, c.actual, c.ok)
              for c in verify(result.evidence, result.before, result.after, result.output_dir)}
    assert checks["node count"] == ("45", "45", True)
    assert checks["element count"] == ("32", "32", True)
    assert checks["QUAD elements"] == ("32", "32", True)
    assert all(not f.notes for f in result.fragments)


def test_above_the_size_limit_the_old_ranges_stay_and_say_why(
        harness: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    _panel(harness)
    monkeypatch.setattr(simulate, "SIMULATION_LIMIT", 40)
    result = _ok(harness, COPY_MERGE_AUDIT)
    assert _counts(result) == ("0..50", "0..32", "0..32", "0", "0")
    assert result.fragments[1].notes == [
        "evidence kept as ranges: the part may hold 50 nodes or elements, above the 40 "
        "simulated at compile time"]


def test_edit_then_transform_then_repair(harness: Any) -> None:
    harness.grid(2, 2)  # 9 nodes, 4 QUADs on [0, 2] x [0, 2]
    result = _ok(harness, [
        ("edit_part", {"delete_elements": {"by": "labels", "labels": [4]},
                       "add_lines": [{"id": "L", "start": [0, 0, 0], "end": [0, 0, 2],
                                      "divisions": 2}],
                       "element_sets": [{"name": "Low", "selection": {
                           "by": "box", "min": [0, 0, 0], "max": [2, 1, 0]}}]}),
        ("transform_part", {"operations": [
            {"op": "mirror", "origin": [0, 0, 0], "normal": [1, 0, 0], "copy": True},
            {"op": "translate", "vector": [0, 0, 5], "selection": {"by": "set", "name": "Low"}}]}),
        ("repair_part", {"merge_coincident_nodes": {}, "delete_free_nodes": True}),
    ])
    edit, transform, repair = (f.evidence for f in result.fragments)
    assert (edit.node_count.describe(), edit.element_count.describe()) == ("11", "5")
    assert (transform.node_count.describe(), transform.element_count.describe()) == ("22", "10")
    assert _counts(result) == (str(result.after.node_count), "10", "6", "0", "4")
    assert result.after.node_count == 17  # the mirror plane x = 0 shares 5 nodes
    assert result.evidence.sets_present == ["Low"]


def test_mirror_copy_in_its_own_plane_then_merge_and_drop_duplicates(harness: Any) -> None:
    harness.grid(2, 2)
    result = _ok(harness, [
        ("transform_part", {"operations": [
            {"op": "mirror", "origin": [0, 0, 0], "normal": [0, 0, 1], "copy": True}]}),
        ("repair_part", {"merge_coincident_nodes": {"tolerance": 1e-3},
                         "delete_duplicate_elements": True}),
        ("audit_part", {"checks": ["duplicate_elements"]}),
    ])
    assert result.fragments[0].evidence.node_count.describe() == "18"
    assert _counts(result) == ("9", "4", "4", "0", "0")
    assert (result.after.node_count, result.after.element_count) == (9, 4)


def test_linear_array_then_merge(harness: Any) -> None:
    harness.grid(2, 2)
    result = _ok(harness, [
        ("transform_part", {"operations": [
            {"op": "linear_array", "vector": [2, 0, 0], "count": 4}]}),
        ("repair_part", {"merge_coincident_nodes": {}}),
    ])
    assert _counts(result) == ("27", "16", "16", "0", "0")  # 4 x 9 nodes, 3 shared edges of 3
    assert result.after.node_count == 27


def test_a_merge_at_the_tolerance_edge_keeps_an_honest_range(harness: Any) -> None:
    harness.grid(2, 2)  # each copy lies exactly 0.5 from its original: the tolerance itself
    result = _ok(harness, [
        ("transform_part", {"operations": [{"op": "translate_copy", "vector": [0, 0, 0.5]}]}),
        ("repair_part", {"merge_coincident_nodes": {"tolerance": 0.5}}),
    ])
    repair = result.fragments[1]
    assert not repair.evidence.node_count.is_exact
    assert repair.notes[0].startswith("evidence kept as ranges: call 2 (repair_part): nodes ")
    assert repair.notes[0].endswith("lie at the merge tolerance itself: whether they merge "
                                    "depends on the host's rounding")
    assert repair.evidence.node_count.max < 18  # bounds from the simulated copy, not 0..max


def test_a_merge_collapsing_elements_is_a_compile_error(harness: Any) -> None:
    """Issue 11: a tolerance joining nodes of one element used to compile to ranges and run."""
    harness.grid(1, 1)  # after scaling, all four corners lie within 0.15 of each other
    from sam_plugin.errors import CompileError

    with pytest.raises(CompileError, match=r"merge_coincident_nodes.tolerance: tolerance 0.15 "
                       r"would join nodes of one element: the smallest element edge is 0.1 "
                       r"\(element 1, nodes 1 and 2\); use a tolerance below it, e.g. 0.0001"):
        harness.compile_all("scale and merge", [
            ("transform_part", {"operations": [{"op": "scale", "origin": [0, 0, 0],
                                                "factor": 0.1}]}),
            ("repair_part", {"merge_coincident_nodes": {"tolerance": 0.15},
                             "delete_free_nodes": True}),
        ])


def test_history_that_does_not_explain_the_state_is_not_simulated(harness: Any) -> None:
    harness.grid(1, 1)
    copy = harness.compile_all("copy", [("transform_part", {"operations": [
        {"op": "translate_copy", "vector": [1, 0, 0]}]})])[0]
    # the state says a copy was made, but the compiler is given no earlier fragments
    from sam_plugin.compilers.part import MODULE

    repair = MODULE.compile("repair_part", {"merge_coincident_nodes": {}},
                            harness.context("merge", copy.evidence))
    assert repair.notes == ["evidence kept as ranges: the earlier calls of this run do not "
                            "account for the state before this call"]
    assert repair.evidence.node_count.describe() == "0..8"
