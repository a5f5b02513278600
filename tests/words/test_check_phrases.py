"""Checks as phrases: the English ``result.json`` keeps is byte for byte what the checks said
before phrases, and the dock's words from the phrases are the words it read from that English
while it still read it (``shown`` in the fixtures, recorded then); a run directory written
before phrases now shows its English as stored."""

from __future__ import annotations

import json

import pytest

from sam_plugin.compilers.check_phrases import CATALOGUE, tally
from sam_plugin.compilers.evidence import Check
from sam_plugin.compilers.plan_phrases import CATALOGUE as _PLAN  # noqa: F401 (basis words)
from sam_plugin.compilers.property import phrases as _property  # noqa: F401
from sam_plugin.ui.check_words import check_row
from sam_plugin.words.phrase import Phrase, phrase, render
from tests.support.shown_checks import FIXTURES, shown_for, shown_row

P = phrase
TALLY = tally("nodes", 3, 0, 4)
# (name, expected, actual, ok) as phrases, and the English each check said before phrases
CHECKS: list[tuple[tuple[Phrase, Phrase | str, Phrase | str, bool], tuple[str, str, str]]] = [
    ((P("check.part_exists"), P("check.present"), P("check.missing"), False),
     ("part exists", "present", "missing")),
    ((P("check.node_count"), "40..50", "45", True), ("node count", "40..50", "45")),
    ((P("check.element_count"), "32", "32", True), ("element count", "32", "32")),
    ((P("check.shape_elements", shape="QUAD"), "32", "32", True),
     ("QUAD elements", "32", "32")),
    ((P("check.geometry_unchanged"), P("check.as_before", text="25n-16e-" + "a" * 16),
      P("check.changed", text="25n-16e-" + "b" * 16), False),
     ("geometry unchanged", "25n-16e-" + "a" * 16, "25n-16e-" + "b" * 16)),
    ((P("check.elements_with_section"), "16", "16", True),
     ("elements with a section", "16", "16")),
    ((P("check.oriented_beams"), "4", "4", True), ("oriented beam elements", "4", "4")),
    ((P("check.hanging_nodes"), "0", P("check.not_read"), False),
     ("hanging nodes", "0", "not read")),
    ((P("check.free_nodes"), "3", "3", True), ("free nodes the run leaves", "3", "3")),
    ((P("check.finite"), P("check.finite_values"), "node 3 x is nan", False),
     ("every coordinate and value is finite", "finite", "node 3 x is nan")),
    ((P("check.set", name="Top"), P("check.present"), P("check.present"), True),
     ("set Top", "present", "present")),
    ((P("check.material", name="Steel"), P("check.present"), P("check.present"), True),
     ("material Steel", "present", "present")),
    ((P("check.section", name="Shell-2mm"), P("check.present"), P("check.missing"), False),
     ("section Shell-2mm", "present", "missing")),
    ((P("check.file", name="script.py"), P("check.written"),
      P("check.written_bytes", bytes=1234), True),
     ("file script.py", "written", "written (1234 bytes)")),
    ((P("check.file", name="script.py"), P("check.written"), P("check.empty"), False),
     ("file script.py", "written", "empty")),
    ((P("check.domain_values", domain="Property"), P("check.read_back"),
      P("check.unreadable", error="boom"), False),
     ("Property values", "read back", "could not be read: boom")),
    ((P("check.rest"), P("check.as_before", text="fingerprint x, as before the run"),
      P("check.as_before", text="unchanged: 4 nodes"), True),
     ("the rest of the part is unchanged (fingerprint)", "fingerprint x, as before the run",
      "unchanged: 4 nodes")),
    ((P("check.not_compared"), P("check.counts_names"),
      P("check.basis", basis=P("basis.compilers")), True),
     ("part compared with the plan", "counts and names only",
      "counts predicted by the compilers")),
    ((P("check.not_compared"), P("check.counts_names"),
      P("check.basis", basis=P("basis.gone")), True),
     ("part compared with the plan", "counts and names only",
      "counts: the part does not exist after the calls")),
    ((P("check.not_compared"), P("check.counts_names"), P("check.no_predicted_part"), True),
     ("part compared with the plan", "counts and names only",
      "the plan has no predicted part")),
    ((P("check.not_compared"), P("check.the_part"), P("check.missing"), False),
     ("part compared with the plan", "the part", "missing")),
    ((P("check.by_values"), P("check.values_read_back"),
      P("check.checked_by_values", count=2), True),
     ("definitions the calls write", "their values read back",
      "2 checked by the property values")),
    ((P("check.nodes_as_planned"),
      P("check.tally.coordinates", tally=TALLY, tolerance="1e-05"),
      P("check.tally.as_planned", tally=TALLY), True),
     ("nodes match the plan (exact)",
      "3 nodes changed, 0 removed, 4 new; changed ones at the planned coordinates "
      "(within 1e-05)", "3 nodes changed, 0 removed, 4 new as planned")),
    ((P("check.existing_elements_as_planned"),
      P("check.tally.shapes", tally=tally("elements", 0, 16, None)),
      "element 3 is QUAD, the plan gives it TRI", False),
     ("existing elements match the plan (exact)",
      "0 elements changed, 16 removed; changed ones with the planned shapes and nodes",
      "element 3 is QUAD, the plan gives it TRI")),
    ((P("check.existing_nodes_as_planned"),
      P("check.tally.coordinates", tally=tally("nodes", 1, 0, None), tolerance="0.001"),
      P("check.tally.as_planned", tally=tally("nodes", 1, 0, None)), True),
     ("existing nodes match the plan (exact)",
      "1 nodes changed, 0 removed; changed ones at the planned coordinates (within 0.001)",
      "1 nodes changed, 0 removed as planned")),
    ((P("check.elements_as_planned"), P("check.tally.shapes", tally=TALLY),
      P("check.tally.as_planned", tally=TALLY), True),
     ("elements match the plan (exact)",
      "3 nodes changed, 0 removed, 4 new; changed ones with the planned shapes and nodes",
      "3 nodes changed, 0 removed, 4 new as planned")),
    ((P("check.set_members_as_planned"), P("check.sets_with_members", count=2),
      P("check.sets_as_planned", count=2), True),
     ("set members match the plan (exact)", "2 set(s) with the planned members",
      "2 set(s) as planned")),
    ((P("check.sections_as_planned"), P("check.elements_with_sections", count=4),
      P("check.elements_with_sections", count=4), True),
     ("section assignments match the plan (exact)", "4 elements with the planned sections",
      "4 elements with the planned sections")),
    ((P("check.orientations_as_planned"), P("check.elements_with_orientations", count=4),
      P("check.elements_with_orientations", count=4), True),
     ("beam orientations match the plan (exact)", "4 elements with the planned orientations",
      "4 elements with the planned orientations")),
    ((P("check.definitions_as_planned"), P("check.definitions", count=2),
      P("check.definitions_as_planned_count", count=2), True),
     ("definitions match the plan (exact)", "2 definitions", "2 definitions as planned")),
    ((P("property.check.material", name="Steel", field=P("property.field.E")), "210000",
      "210000", True), ("material Steel E", "210000", "210000")),
    ((P("property.check.material", name="Steel", field=P("property.field.ν")), "0.3",
      P("check.missing"), False), ("material Steel ν", "0.3", "missing")),
    ((P("property.check.material", name="Steel", field=P("property.field.density")),
      "7.85e-09", "7.85e-09", True), ("material Steel density", "7.85e-09", "7.85e-09")),
    ((P("property.check.section", name="S1", field=P("property.field.thickness")), "2", "2",
      True), ("section S1 thickness", "2", "2")),
    ((P("property.check.section", name="S1", field=P("property.field.material")), "Steel",
      "Steel", True), ("section S1 material", "Steel", "Steel")),
    ((P("property.check.section", name="B1", field=P("property.field.profile")), "CIRC",
      "CIRC", True), ("section B1 profile", "CIRC", "CIRC")),
    ((P("property.check.section", name="B1",
        field=P("property.field.dimension", dimension="r")), "5", "5", True),
     ("section B1 profile r", "5", "5")),
]


def _said(case: tuple[Phrase, Phrase | str, Phrase | str, bool]) -> Check:
    name, expected, actual, ok = case
    return Check.said(name, expected, actual, ok=ok)


@pytest.mark.parametrize(("case", "english"), CHECKS)
def test_the_record_is_the_english_of_before(case: tuple[Phrase, Phrase | str, Phrase | str,
                                                          bool],
                                             english: tuple[str, str, str]) -> None:
    check = _said(case)
    assert (check.name, check.expected, check.actual) == english


@pytest.mark.parametrize(("case", "english"), CHECKS)
def test_the_dock_says_from_phrases_what_it_read_from_the_english(
        case: tuple[Phrase, Phrase | str, Phrase | str, bool],
        english: tuple[str, str, str]) -> None:
    check = _said(case)
    assert check_row(check) == shown_for(english, check.ok)


def test_a_check_written_before_phrases_shows_its_english_as_stored() -> None:
    for _, (name, expected, actual) in CHECKS:
        row = check_row(Check(name=name, expected=expected, actual=actual, ok=False))
        assert (row.name, row.expected, row.actual) == (name, expected, actual)


def test_every_check_phrase_is_tried_here() -> None:
    tried: set[str] = set()

    def keys(value: object) -> None:
        if isinstance(value, Phrase):
            tried.add(value.key)
            for inner in value.values.values():
                keys(inner)

    for case, _ in CHECKS:
        for part in case:
            keys(part)
    assert {key for key in CATALOGUE} - tried == set()


def test_result_json_keeps_the_english_with_the_phrases_beside_it() -> None:
    check = _said(CHECKS[0][0])
    dumped = check.model_dump(mode="json")
    assert dumped["name"] == "part exists" and dumped["name_phrase"]["key"] == "check.part_exists"
    assert "quantity" not in dumped
    again = Check.model_validate(dumped)
    assert again == check
    old = Check.model_validate({"name": "part exists", "expected": "present",
                                "actual": "present", "ok": True})
    assert "name_phrase" not in old.model_dump(mode="json")
    assert render(again.name_phrase or P("sep"), "zh_CN") == "部件存在"


RECORDED = FIXTURES / "recorded_checks.json"


def test_over_every_eval_task_the_checks_say_what_they_said_before_phrases() -> None:
    """Each distinct check of the eval suite's replays: its English is what ``result.json``
    said before phrases, and the dock's words from its phrases are those it read from that
    English (``shown``)."""
    rows = json.loads(RECORDED.read_text("utf-8"))["checks"]
    assert len(rows) > 100
    for row in rows:
        check = Check.model_validate(row["check"])
        assert check.name_phrase is not None, row
        before = Check.model_validate(row["before"] | {"quantity": check.quantity})
        assert check.model_dump() == before.model_dump(), row["task"]
        assert Check.said(check.name_phrase, check.expected_phrase or check.expected,
                          check.actual_phrase or check.actual, check.ok,
                          check.quantity) == check
        assert check_row(check) == shown_row(row["shown"], (before.name, before.expected,
                                                            before.actual)), row["task"]
