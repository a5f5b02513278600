"""Phases, collection rules, verifier, run store, events and observation in isolation."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from types import SimpleNamespace

import pytest
from controller_fakes import TARGET, FakeHost, Repo
from hypothesis import given, settings
from hypothesis import strategies as st

from sam_plugin.compilers.evidence import Prediction, Range, Readback
from sam_plugin.errors import CollectionViolation, IllegalTransition
from sam_plugin.runtime.event_types import DesignConfirmed, DesignDelta, RunFailed
from sam_plugin.runtime.events import EventBus, read_events
from sam_plugin.runtime.observe.observation import observe
from sam_plugin.runtime.run.collection import check_round, max_rounds
from sam_plugin.runtime.run.phases import TRANSITIONS, Phase, check_transition
from sam_plugin.runtime.store.run_store import RUN_ID_PATTERN, new_run_id, tool_response_name
from sam_plugin.runtime.verify.verifier import all_passed, verify

# -- phases -----------------------------------------------------------------------------------


def test_illegal_transition_raises_with_the_legal_set():
    with pytest.raises(IllegalTransition) as error:
        check_transition(Phase.REVIEW, Phase.EXECUTING)
    assert str(error.value) == (
        "illegal phase transition review -> executing; "
        "legal from review: cancelled, collecting, compiling, designing, failed"
    )


def test_execution_can_only_reach_sam_through_collecting_compiling_and_the_plan():
    sources = {p for p, targets in TRANSITIONS.items() if Phase.EXECUTING in targets}
    assert sources == {Phase.PLAN}
    assert {p for p, targets in TRANSITIONS.items() if Phase.PLAN in targets} == {
        Phase.COMPILING}
    assert Phase.REVIEW not in TRANSITIONS[Phase.EXECUTING]
    assert Phase.CANCELLED not in TRANSITIONS[Phase.EXECUTING]


# -- collection -------------------------------------------------------------------------------

TOOLS = ["transform_part", "repair_part", "audit_part"]


def named(*names: str) -> list[SimpleNamespace]:
    return [SimpleNamespace(name=n) for n in names]


def test_round_accepts_any_prefix_of_the_remaining_tools():
    assert check_round(named("transform_part"), TOOLS) == ["transform_part"]
    assert check_round(named(*TOOLS), TOOLS) == TOOLS
    assert max_rounds(TOOLS) == 4


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([*TOOLS, "build_part"]), max_size=5))
def test_round_accepts_exactly_the_nonempty_prefixes(names):
    is_prefix = bool(names) and names == TOOLS[: len(names)]
    try:
        check_round(named(*names), TOOLS)
        accepted = True
    except CollectionViolation:
        accepted = False
    assert accepted == is_prefix


# -- verifier ---------------------------------------------------------------------------------


def readback(nodes: int, quads: int, fingerprint: str = "f1", **kw) -> Readback:
    return Readback(
        part_exists=True,
        node_count=nodes,
        element_count=quads,
        shape_counts={"QUAD": quads, "TRI": 0, "BEAM": 0},
        fingerprint=fingerprint,
        geometry_fingerprint=fingerprint,
        **kw,
    )


def test_verifier_reports_actual_values_never_the_expected_ones(tmp_path):
    before = readback(4, 1)
    prediction = Prediction.from_readback(before).model_copy(
        update={"node_count": Range(min=6, max=8), "sets_present": ["EDGE"], "files": ["a.json"]}
    )
    checks = {c.name: c for c in verify(prediction, before, readback(4, 1), tmp_path)}
    assert checks["node count"].model_dump() == {
        "name": "node count",
        "expected": "6..8",
        "actual": "4",
        "ok": False,
    }
    assert (checks["set EDGE"].actual, checks["set EDGE"].ok) == ("missing", False)
    assert (checks["file a.json"].actual, checks["file a.json"].ok) == ("missing", False)
    assert checks["geometry unchanged"].ok


def test_verifier_geometry_changed_and_files_written(tmp_path):
    before = readback(4, 1, "f1")
    (tmp_path / "part_audit.json").write_text("{}")
    prediction = Prediction.from_readback(before).model_copy(update={"files": ["part_audit.json"]})
    checks = verify(prediction, before, readback(4, 1, "f2"), tmp_path)
    by_name = {c.name: c for c in checks}
    assert (by_name["geometry unchanged"].expected, by_name["geometry unchanged"].actual) == (
        "f1",
        "f2",
    )
    assert not by_name["geometry unchanged"].ok
    assert by_name["file part_audit.json"].actual == "written (2 bytes)"
    assert not all_passed(checks)


def test_verifier_properties_and_ranges(tmp_path):
    before = readback(4, 1)
    prediction = Prediction.from_readback(before).model_copy(
        update={
            "materials_present": ["Steel"],
            "sections_present": ["Shell-1"],
            "assigned_elements": Range.exact(1),
        }
    )
    after = readback(4, 1, materials=["Steel"], sections=[], assigned_elements=1)
    checks = {c.name: c for c in verify(prediction, before, after, tmp_path)}
    assert checks["material Steel"].ok and not checks["section Shell-1"].ok
    assert checks["elements with a section"].ok


# -- run store, events ------------------------------------------------------------------------


def test_run_ids_sort_by_time():
    early = new_run_id(datetime(2026, 11, 29, 19, 30, tzinfo=UTC), "ffffff")
    late = new_run_id(datetime(2026, 11, 29, 19, 31, tzinfo=UTC), "000000")
    assert early == "20261129T193000Z-ffffff" and sorted([late, early]) == [early, late]
    assert RUN_ID_PATTERN.match(new_run_id())
    with pytest.raises(ValueError, match="token: six lowercase hex digits expected"):
        new_run_id(token="XYZ")
    assert tool_response_name(1) == "provider_tool_response.sse"
    assert tool_response_name(3) == "provider_tool_response.3.sse"


def test_events_persist_contract_events_only(tmp_path):
    bus = EventBus()
    bus.log_path = tmp_path / "events.jsonl"
    seen = []
    unsubscribe = bus.subscribe(seen.append)
    bus.subscribe(lambda e: 1 / 0)  # a broken listener does not break the run
    confirmed = DesignConfirmed(tools=["build_part"])
    bus.emit("r1", DesignDelta(text="Build"))  # listener-only: never written
    bus.emit("r1", confirmed)
    unsubscribe()
    bus.emit("r1", RunFailed(layer="design", message="no"))
    [record, failed] = read_events(tmp_path / "events.jsonl")
    assert set(record) == {"run_id", "event", "timestamp", "tools"}
    assert record["event"] == "design_confirmed" and failed["layer"] == "design"
    assert [e.name for e in seen] == ["design_delta", "design_confirmed"]
    assert seen == [DesignDelta(text="Build"), confirmed]


# -- observation ------------------------------------------------------------------------------


def test_observation_l0_l1_and_compact_prompt(tmp_path):
    host = FakeHost(quads=2)
    part = host.mdb.models["Model-1"].parts["Plate"]
    part.sets["EDGE"] = SimpleNamespace(nodes=part.nodes[:2], elements=[])
    host.mdb.models["Model-1"].materials["Steel"] = object()
    obs = observe(host, "part", TARGET)
    assert obs.index.target_part_exists and obs.index.models[0].parts == ["Plate"]
    assert obs.part.node_count == 8 and obs.part.shape_counts["QUAD"] == 2
    assert [s.model_dump() for s in obs.part.sets] == [{"name": "EDGE", "nodes": 2, "elements": 0}]
    assert obs.part.materials == ["Steel"] and obs.part.unassigned_elements == 2
    assert obs.part.bounding_box == ((0.0, 0.0, 0.0), (1.0, 1.0, 0.0))
    assert not obs.target_is_empty
    compact = obs.prompt_json()
    assert " " not in compact.replace("Model-1", "") and "readback" not in compact
    assert json.loads(compact)["target"] == {"model_name": "Model-1", "part_name": "Plate"}


def test_fingerprint_changes_with_coordinates_and_sets_but_not_with_nothing():
    host = FakeHost(quads=1)
    first = observe(host, "part", TARGET).fingerprint
    assert observe(host, "part", TARGET).fingerprint == first
    part = host.mdb.models["Model-1"].parts["Plate"]
    part.nodes[0].coordinates = (0.0, 0.0, 1e-9)
    moved = observe(host, "part", TARGET).fingerprint
    assert moved != first
    part.sets["S"] = SimpleNamespace(nodes=[], elements=[])
    assert observe(host, "part", TARGET).fingerprint != moved


def test_missing_part_is_an_empty_target():
    host = FakeHost()
    obs = observe(host, "part", TARGET)
    assert obs.part is None and obs.target_is_empty and not obs.index.target_part_exists
    host.mdb.models["Model-1"].parts["Plate"] = SimpleNamespace(
        nodes=[], elements=[], sets=Repo(), sectionAssignments=[], beamOrientations=[]
    )
    assert observe(host, "part", TARGET).target_is_empty


def test_list_runs_reports_incomplete_unknown_and_skips_foreign_entries(tmp_path):
    from sam_plugin.runtime.store.journal import SubmissionJournal
    from sam_plugin.runtime.store.run_history import list_runs

    (tmp_path / "notes").mkdir()
    for run_id, request in (("20261129T190000Z-aaaaaa", "old"), ("20261129T191000Z-bbbbbb", "new")):
        (tmp_path / run_id).mkdir()
        (tmp_path / run_id / "request.txt").write_text(request)
        (tmp_path / run_id / "workspace.json").write_text('{"mode": "mesh"}')
    SubmissionJournal(tmp_path / "submissions.jsonl").record_submitted(
        "20261129T191000Z-bbbbbb", "a" * 64, "k"
    )
    runs = list_runs(tmp_path)
    assert [(r.run_id, r.status, r.request, r.module, r.started) for r in runs] == [
        ("20261129T191000Z-bbbbbb", "unknown", "new", "mesh", "2026-11-29T19:10:00Z"),
        ("20261129T190000Z-aaaaaa", "incomplete", "old", "mesh", "2026-11-29T19:00:00Z"),
    ]
    assert list_runs(tmp_path / "missing") == []


def test_two_runs_of_one_second_are_listed_in_the_order_they_were_made(tmp_path):
    """Reproduces `sam-agent runs` listing a later run of the same second first: the ids
    differ only by their random suffix."""
    import os

    from sam_plugin.runtime.store.run_history import list_runs

    for stamp, (run_id, request) in enumerate((("20261129T190000Z-ffffff", "first"),
                                               ("20261129T190000Z-000000", "second"))):
        (tmp_path / run_id).mkdir()
        (tmp_path / run_id / "request.txt").write_text(request)
        os.utime(tmp_path / run_id / "request.txt", ns=(10**18 + stamp, 10**18 + stamp))
    assert [r.request for r in list_runs(tmp_path)] == ["second", "first"]
