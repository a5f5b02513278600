"""A verified run's calls again on other parts, with no model (docs/architecture.md §6
"rerun"): per target a fresh observation, the saved calls compiled against it, its own plan,
approval, one execution and verification, its own run directory and undo."""

from __future__ import annotations

import json

import pytest
from rerun_support import (
    ASSIGN_ALL,
    DEFINE,
    FailingOn,
    approve_all,
    fingerprint,
    plates,
    rerun,
    result_of,
    source_run,
    target,
)

from sam_plugin.compilers.evidence import Readback
from sam_plugin.errors import RerunRefused
from sam_plugin.runtime.host_gateway import HostGateway
from sam_plugin.runtime.rerun.source import load_source
from sam_plugin.runtime.store.run_store import StateSummary
from sam_plugin.runtime.store.undo import undo_run
from tests.support import specs

PARTS = ["Plate-2", "Plate-3", "Plate-4"]
LABELS_SPEC = specs.answer(
    specs.step("assign_section", specs.labels(*range(1, 10)), mode="property", section="Skin"),
    summary="Assign the section Skin to elements 1-9.")


def _assigned(sam, part: str) -> int:
    return sum(len(a.region.elements or ()) for a in
               sam.mdb.models["Model-1"].parts[part].sectionAssignments)


def test_a_property_assignment_rerun_on_three_parts_verifies_each_and_each_undoes(
        fresh_sam, tmp_path):
    plates(fresh_sam, {"Plate": 2, **dict.fromkeys(PARTS, 2)})
    runs = tmp_path / "runs"
    source = source_run(fresh_sam, runs, "Plate", [("define_property", DEFINE),
                                                    ("assign_property", ASSIGN_ALL)])
    before = {p: fingerprint(fresh_sam, p) for p in PARTS}
    seen: list = []
    summary = rerun(fresh_sam, runs, source, PARTS, approve_all(seen)).summary
    assert [t.outcome for t in summary.targets] == ["verified"] * 3 and summary.all_verified
    assert [(w.index, w.total, w.target.part_name) for w in seen] == [
        (1, 3, "Plate-2"), (2, 3, "Plate-3"), (3, 3, "Plate-4")]
    assert all(_assigned(fresh_sam, p) == 4 for p in PARTS)
    run_ids = [t.run_id for t in summary.targets]
    assert len(set(run_ids)) == 3 and source not in run_ids
    for part, run_id in zip(PARTS, run_ids, strict=True):
        result = result_of(runs, run_id)
        assert (result.status, result.source, result.source_run) == ("verified", "rerun", source)
        assert result.target == target(part) and result.submissions == 1 and result.undoable
        assert result.provider is not None and result.provider.calls == 0
        directory = runs / run_id
        assert not any(p.name.startswith("provider_") for p in directory.iterdir())
        calls = json.loads((directory / "tool_calls.json").read_text())
        assert {c["source"] for c in calls} == {"given"}
        assert json.loads((directory / "normalized_calls.json").read_text()) == json.loads(
            (runs / source / "normalized_calls.json").read_text())
        # a rerun of a property assignment depends on no label: no drift warning
        assert json.loads((directory / "plan.json").read_text())["warnings"] == []
    host = HostGateway(fresh_sam)
    for part, run_id in zip(reversed(PARTS), reversed(run_ids), strict=True):
        assert undo_run(host, runs, run_id).status == "undone"
        assert fingerprint(fresh_sam, part) == before[part] and _assigned(fresh_sam, part) == 0
    assert _assigned(fresh_sam, "Plate") == 4  # the source run stays


def test_a_label_that_does_not_resolve_refuses_that_part_by_name_and_the_others_verify(
        fresh_sam, tmp_path):
    plates(fresh_sam, {"Plate": 3, "Plate-2": 3, "Small": 2, "Plate-3": 3})
    runs = tmp_path / "runs"
    fresh_sam.mdb.models["Model-1"].Material(name="Steel").Elastic(table=((210000.0, 0.3),))
    fresh_sam.mdb.models["Model-1"].HomogeneousShellSection(name="Skin", material="Steel",
                                                           thickness=2.0)
    labels = {"assignments": [{"section": "Skin",
                               "selection": {"by": "labels", "labels": list(range(1, 10))}}]}
    source = source_run(fresh_sam, runs, "Plate", [("assign_property", labels)],
                        spec=LABELS_SPEC, request="assign Skin to elements 1 to 9")
    small = fingerprint(fresh_sam, "Small")
    summary = rerun(fresh_sam, runs, source, ["Plate-2", "Small", "Plate-3"],
                    approve_all()).summary
    assert [t.outcome for t in summary.targets] == ["verified", "refused", "verified"]
    refused = summary.targets[1]
    assert refused.message.startswith("refused at compile: ")
    assert "unknown element label(s) 5, 6, 7, 8, 9" in refused.message
    assert "Model-1/Small: refused (run " in refused.words()
    assert result_of(runs, refused.run_id).status == "rejected"
    assert fingerprint(fresh_sam, "Small") == small
    plan = json.loads((runs / summary.targets[0].run_id / "plan.json").read_text())
    assert plan["warnings"] == [
        "selection by element labels 1-9 came from part Plate; on Plate-2 they are 9 elements "
        "in the box (10, 0, 0)-(13, 3, 0) mm; on Plate now: 9 elements in the box (0, 0, 0)-(3, "
        "3, 0) mm"]  # in the model's units (the Settings' mm when it declares none)


def test_a_fault_on_the_second_of_three_restores_it_and_the_third_continues(fresh_sam,
                                                                            tmp_path):
    plates(fresh_sam, {"Plate": 2, **dict.fromkeys(PARTS, 2)})
    runs = tmp_path / "runs"
    source = source_run(fresh_sam, runs, "Plate", [("define_property", DEFINE),
                                                    ("assign_property", ASSIGN_ALL)])
    before = fingerprint(fresh_sam, "Plate-3")
    session = rerun(fresh_sam, runs, source, PARTS, approve_all(),
                    host=FailingOn(fresh_sam, "Plate-3"))
    outcomes = session.summary.targets
    assert [t.outcome for t in outcomes] == ["verified", "restored", "verified"]
    failed = result_of(runs, outcomes[1].run_id)
    assert (failed.status, failed.restored, failed.submissions) == ("failed", True, 1)
    assert fingerprint(fresh_sam, "Plate-3") == before and _assigned(fresh_sam, "Plate-3") == 0
    assert "the host failed in the middle of the assignment" in outcomes[1].message
    assert "failed and restored" in outcomes[1].words()
    assert _assigned(fresh_sam, "Plate-4") == 4
    assert session.summary.headline() == (
        f"rerun of run {source} on 3 parts: 2 verified, 1 failed and restored")


def test_stop_on_failure_skips_the_parts_after_the_failed_one(fresh_sam, tmp_path):
    plates(fresh_sam, {"Plate": 2, **dict.fromkeys(PARTS, 2)})
    runs = tmp_path / "runs"
    source = source_run(fresh_sam, runs, "Plate", [("define_property", DEFINE),
                                                    ("assign_property", ASSIGN_ALL)])
    summary = rerun(fresh_sam, runs, source, PARTS, approve_all(),
                    host=FailingOn(fresh_sam, "Plate-3"), stop_on_failure=True).summary
    assert [t.outcome for t in summary.targets] == ["verified", "restored", "skipped"]
    assert summary.targets[2].run_id is None
    assert summary.targets[2].message == (
        "not attempted: --stop-on-failure after Plate-3 (restored)")
    assert _assigned(fresh_sam, "Plate-4") == 0


def test_a_declined_plan_changes_nothing(fresh_sam, tmp_path):
    plates(fresh_sam, {"Plate": 2, **dict.fromkeys(PARTS, 2)})
    runs = tmp_path / "runs"
    source = source_run(fresh_sam, runs, "Plate", [("define_property", DEFINE),
                                                    ("assign_property", ASSIGN_ALL)])
    before = fingerprint(fresh_sam, "Plate-3")

    async def decline_the_second(waiting) -> bool:
        return waiting.index != 2

    summary = rerun(fresh_sam, runs, source, PARTS, decline_the_second).summary
    assert [t.outcome for t in summary.targets] == ["verified", "skipped", "verified"]
    declined = result_of(runs, summary.targets[1].run_id)
    assert (declined.status, declined.submissions) == ("cancelled", 0)
    assert summary.targets[1].message == "the plan was declined; nothing was executed"
    assert fingerprint(fresh_sam, "Plate-3") == before and _assigned(fresh_sam, "Plate-3") == 0
    assert not summary.all_verified


def test_an_approval_that_raises_declines_the_plan_before_it_propagates(fresh_sam, tmp_path):
    plates(fresh_sam, {"Plate": 2, "Plate-2": 2})
    runs = tmp_path / "runs"
    source = source_run(fresh_sam, runs, "Plate", [("define_property", DEFINE),
                                                    ("assign_property", ASSIGN_ALL)])

    async def closed(waiting) -> bool:
        raise RuntimeError("the dialog was closed")

    with pytest.raises(RuntimeError, match="the dialog was closed"):
        rerun(fresh_sam, runs, source, ["Plate-2"], closed)
    rerun_runs = [p for p in runs.iterdir() if p.is_dir() and p.name != source]
    assert len(rerun_runs) == 1
    assert result_of(runs, rerun_runs[0].name).status == "cancelled"


def test_a_source_that_kept_its_spec_as_data_binds_each_rerun_to_it(fresh_sam, tmp_path):
    plates(fresh_sam, {"Plate": 2, "Plate-2": 2})
    runs = tmp_path / "runs"
    spec = {"summary": "Steel shell Skin on every element.", "steps": [
        {"capability": "define", "action": "define_material",
         "values": {"name": "Steel", "E": 210000, "nu": 0.3}, "text": "Define Steel."},
        {"capability": "define", "action": "define_section",
         "values": {"name": "Skin", "kind": "shell", "material": "Steel", "thickness": 2},
         "text": "Define the shell section Skin."},
        {"capability": "assign", "action": "assign_section", "scope": {"by": "all"},
         "values": {"section": "Skin"}, "text": "Assign Skin to all elements."}]}
    source = source_run(fresh_sam, runs, "Plate", [("define_property", DEFINE),
                                                    ("assign_property", ASSIGN_ALL)],
                        spec=json.dumps(spec))
    summary = rerun(fresh_sam, runs, source, ["Plate-2"], approve_all()).summary
    assert summary.all_verified
    directory = runs / summary.targets[0].run_id
    assert json.loads((directory / "spec.json").read_text())["steps"][2]["action"] == \
        "assign_section"
    assert json.loads((directory / "design_route.json").read_text())["tools"] == [
        "define_property", "assign_property"]


def test_a_run_that_cannot_be_rerun_says_why(fresh_sam, tmp_path):
    plates(fresh_sam, {"Plate": 2})
    runs = tmp_path / "runs"
    with pytest.raises(RerunRefused, match="'nonsense' is not a run id"):
        load_source(runs, "nonsense")
    with pytest.raises(RerunRefused, match="no run 20261129T193000Z-ab12cd in"):
        load_source(runs, "20261129T193000Z-ab12cd")
    source = source_run(fresh_sam, runs, "Plate", [("define_property", DEFINE),
                                                    ("assign_property", ASSIGN_ALL)])
    (runs / source / "normalized_calls.json").unlink()
    with pytest.raises(RerunRefused, match="normalized_calls.json is missing"):
        load_source(runs, source)
    result = json.loads((runs / source / "result.json").read_text())
    (runs / source / "result.json").write_text(json.dumps({**result, "status": "failed"}))
    with pytest.raises(RerunRefused, match="is failed: only a verified run"):
        load_source(runs, source)


def test_a_build_reruns_on_a_part_that_does_not_exist_yet(fresh_sam, tmp_path):
    runs = tmp_path / "runs"
    patch = {"id": "P", "shape": "QUAD", "corners": [[0, 0, 0], [2, 0, 0], [2, 1, 0], [0, 1, 0]],
             "divisions": [2, 1]}
    source = source_run(fresh_sam, runs, "Plate", [("build_part", {"patches": [patch]})],
                        spec=specs.answer(specs.step("build", shape="QUAD"),
                                          summary="Build a 2 x 1 plate of 2 x 1 QUADs."),
                        request="a 2 x 1 plate", mode="part")
    summary = rerun(fresh_sam, runs, source, ["Plate-2"], approve_all()).summary
    assert summary.all_verified
    assert len(fresh_sam.mdb.models["Model-1"].parts["Plate-2"].elements) == 2


def test_a_set_resolves_anew_on_each_part_and_a_missing_one_is_named(fresh_sam, tmp_path):
    plates(fresh_sam, {"Plate": 2, "Plate-2": 2, "Plate-3": 2})
    model = fresh_sam.mdb.models["Model-1"]
    for name, labels in (("Plate", [1, 2]), ("Plate-2", [3, 4])):
        part = model.parts[name]
        part.Set(name="Web", elements=part.elements.sequenceFromLabels(labels))
    runs = tmp_path / "runs"
    by_set = {"assignments": [{"section": "Skin", "selection": {"by": "set", "name": "Web"}}]}
    source = source_run(fresh_sam, runs, "Plate", [("define_property", DEFINE),
                                                    ("assign_property", by_set)])
    summary = rerun(fresh_sam, runs, source, ["Plate-2", "Plate-3"], approve_all()).summary
    assert [t.outcome for t in summary.targets] == ["verified", "refused"]
    assert "unknown set 'Web'; the part has no sets" in summary.targets[1].message
    plan = json.loads((runs / summary.targets[0].run_id / "plan.json").read_text())
    assert plan["warnings"] == []  # a set means the same on any part
    assigned = model.parts["Plate-2"].sectionAssignments[0].region.elements
    assert sorted(e.label for e in assigned) == [3, 4]


COPY_CALLS = [("transform_part", {"operations": [
    {"op": "translate_copy", "vector": [0, 20, 0], "selection": {"by": "all"}}]})]


def _copy_source(fresh_sam, runs, *, expected):
    return source_run(fresh_sam, runs, "Plate", COPY_CALLS, mode="part",
                      request="copy all elements 20 along Y",
                      spec=specs.answer(specs.step("translate_copy", specs.ALL, vector=[0, 20, 0]),
                                        summary="Copy every element 20 along Y.",
                                        expected=expected))


def test_the_expected_counts_are_compared_as_a_change_so_a_bigger_part_warns_nothing(
        fresh_sam, tmp_path):
    """The spec's 18 nodes were Plate's (9 before, +9); the same copy of the 3 x 3 Plate-2
    leaves 32 (16 + 16): before, it warned "the spec expects 18 nodes; the calls leave 32"."""
    plates(fresh_sam, {"Plate": 2, "Plate-2": 3})
    runs = tmp_path / "runs"
    source = _copy_source(fresh_sam, runs, expected={"nodes": 18, "elements": 8,
                                                     "shapes": {"QUAD": 8, "TRI": 0},
                                                     "selected": 4})
    seen: list = []
    summary = rerun(fresh_sam, runs, source, ["Plate-2"], approve_all(seen)).summary
    assert summary.all_verified
    plan = seen[0].plan
    assert plan.warnings == []
    assert plan.expectations == {"shapes": {"TRI": 0}}  # the unchanged count, as it was
    assert seen[0].expected_words() == [
        "the spec's 18 nodes on Plate (9 before, +9) are compared as a change on Plate-2 "
        "(16 before; the calls leave 32)",
        "the spec's 8 elements on Plate (4 before, +4) are compared as a change on Plate-2 "
        "(9 before; the calls leave 18)",
        "the spec's 8 QUAD elements on Plate (4 before, +4) are compared as a change on "
        "Plate-2 (9 before; the calls leave 18)",
        "the spec's 4 acted on counted what the scope picks on Plate; not compared on Plate-2"]
    kept = json.loads((runs / summary.targets[0].run_id / "spec.json").read_text())
    assert kept["expected"] == {"shapes": {"TRI": 0}}


def test_a_rerun_whose_change_goes_another_way_still_warns(fresh_sam, tmp_path):
    """The source run added elements; on a part with no elements the copy adds none."""
    from sam_plugin.compilers.evidence import Prediction, Range
    from sam_plugin.runtime.rerun.expected import change_warnings, restate

    plates(fresh_sam, {"Plate": 2})
    runs = tmp_path / "runs"
    source = _copy_source(fresh_sam, runs, expected={"elements": 8})
    loaded = load_source(runs, source)
    empty = Readback(part_exists=True, node_count=4, element_count=0)
    restated = restate(loaded.spec, loaded.before, lambda: empty)
    none_added = Prediction(node_count=Range.exact(4), element_count=Range.exact(0),
                            shape_counts={})
    assert change_warnings(restated.counts, none_added, "Plate", "Bare") == [
        "the spec expects elements added, as on Plate (4 to 8); on Bare the calls leave 0 "
        "elements (0 before)"]
    added = none_added.model_copy(update={"element_count": Range(min=1, max=3)})
    assert change_warnings(restated.counts, added, "Plate", "Bare") == []


def test_a_count_without_the_source_before_is_left_out_and_an_unchanged_one_kept():
    from sam_plugin.runtime.rerun.expected import restate

    spec = specs.spec(specs.step("translate_copy", specs.ALL, vector=[0, 20, 0]),
                      expected={"nodes": 18, "elements": 4})
    target = Readback(part_exists=True, node_count=16, element_count=9)
    unknown = restate(spec, None, lambda: target)
    assert unknown.spec.expected.nodes is None and unknown.spec.expected.elements is None
    assert unknown.counts[0].words("Plate", "Plate-2") == (
        "the spec's 18 nodes were counted on Plate, whose count before its run was not kept; "
        "not compared on Plate-2")
    source = StateSummary(node_count=9, element_count=4, shape_counts={}, sets=[])
    known = restate(spec, source, lambda: target)
    assert known.spec.expected.nodes is None and known.spec.expected.elements == 9
    assert known.counts[1].words("Plate", "Plate-2") == (
        "the spec's 4 elements on Plate are its count before the run; on Plate-2 that is 9")
    assert restate(spec, source, lambda: target, same_part=True).spec is spec
