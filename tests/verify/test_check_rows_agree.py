"""No check row says OK while its expected and its actual disagree (docs/architecture.md §7).

Runs in Part, Property and Mesh mode go through the whole controller on the stub host; every
check is shown as the dock shows it (``check_row``), and a row that holds must show the same
words on both sides (a note that compares nothing is shown without an OK). A host that
tampers with the part after the script must turn the row that sees it to NO.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from sam_plugin.runtime.config.policy import RunPolicy
from sam_plugin.ui.check_words import check_row
from tests.support.pipeline import fresh_database
from tests.support.scripted import TARGET, controller, plate
from tests.support.specs import answer, labels, step

fresh_sam = pytest.fixture(fresh_database)

CASES: dict[str, tuple[str, str]] = {
    "refine every element": ("mesh", answer(step("refine", labels(*range(1, 17)), mode="mesh",
                                                 levels=1))),
    "refine two elements": ("mesh", answer(step("refine", labels(1, 2), mode="mesh", levels=1))),
    "move a node": ("part", answer(step("move_nodes", labels=[25], to=[4.0, 4.5, 0.0]))),
    "delete two elements": ("part", answer(step("delete_elements", labels(1, 2)))),
    "translate three elements": ("part", answer(step("translate", labels(1, 2, 3),
                                                     vector=[0, 7.5, 0]))),
    "copy and translate": ("part", answer(step("translate_copy", labels(1, 2),
                                               vector=[0, 9, 0]))),
    "assign a section": ("property", answer(step("assign_section", labels(1, 2, 3, 4),
                                                 mode="property", section="Skin"))),
    "define a material": ("property", answer(step("define_material", mode="property",
                                                  name="Alu", E=70000, nu=0.33))),
}


def _verified(sam: Any, tmp_path: Path, mode: str, spec: str) -> Any:
    plate(sam, 4)
    run = controller(sam, tmp_path, spec, "unused", {})
    run.policy = RunPolicy(plan_wait="never", calls="spec")  # the calls from the steps
    asyncio.run(run.submit("a request", mode, TARGET))
    result = asyncio.run(run.confirm(mode, TARGET, plan_wait="never"))
    return result if result is not None else asyncio.run(run.execute())


@pytest.mark.parametrize("case", CASES)
def test_a_row_that_holds_shows_equal_values(fresh_sam: Any, tmp_path: Path, case: str) -> None:
    mode, spec = CASES[case]
    result = _verified(fresh_sam, tmp_path, mode, spec)
    assert result.status == "verified", result.error
    for check in result.checks:
        row = check_row(check)
        assert row.ok, (case, check)
        if row.compared:
            assert row.expected == row.actual, (case, row.name, row.expected, row.actual)


def test_a_refine_says_what_its_rows_compare(fresh_sam: Any, tmp_path: Path) -> None:
    """All 16 elements refined: the 16 are removed, the 64 new ones are the element count's."""
    mode, spec = CASES["refine every element"]
    rows = {row.name: (row.expected, row.actual) for row in
            map(check_row, _verified(fresh_sam, tmp_path, mode, spec).checks)}
    assert rows["existing elements as planned (new ones: element count)"] == (
        "0 changed, 16 removed", "0 changed, 16 removed")
    assert rows["existing nodes as planned (new ones: node count)"] == (
        "0 changed, 0 removed", "0 changed, 0 removed")
    assert rows["element count"] == ("64", "64")
    assert rows["node count"] == ("81", "81")
    assert "new or changed elements as planned" not in rows


def test_a_deletion_counts_what_it_removes(fresh_sam: Any, tmp_path: Path) -> None:
    mode, spec = CASES["delete two elements"]
    rows = {row.name: (row.expected, row.actual) for row in
            map(check_row, _verified(fresh_sam, tmp_path, mode, spec).checks)}
    assert rows["elements changed, removed, added as planned"] == (
        "0 changed, 2 removed, 0 new", "0 changed, 2 removed, 0 new")


def test_a_row_that_does_not_hold_says_no(fresh_sam: Any, tmp_path: Path) -> None:
    """The tally of a row that fails differs on its two sides, and the row says NO."""
    from sam_plugin.compilers.check_phrases import tally
    from sam_plugin.compilers.evidence import Check
    from sam_plugin.words.phrase import phrase

    failed = Check.said(  # as the verifier makes it (with phrases)
        phrase("check.elements_as_planned"), ok=False,
        expected=phrase("check.tally.shapes", tally=tally("elements", 0, 2, 0)),
        actual="element 1 still present (the plan deletes it)")
    assert (failed.name, failed.expected) == (
        "elements match the plan (exact)",
        "0 elements changed, 2 removed, 0 new; changed ones with the planned shapes and nodes")
    row = check_row(failed)
    assert (row.ok, row.compared) == (False, True)
    assert row.expected == "0 changed, 2 removed, 0 new" and row.actual != row.expected


def test_a_part_not_compared_is_a_note_not_a_comparison() -> None:
    from sam_plugin.compilers.evidence import Check
    from sam_plugin.runtime.verify.part_comparison import NOT_COMPARED
    from sam_plugin.words.phrase import phrase

    note = Check.said(phrase("check.not_compared"), phrase("check.counts_names"),
                      phrase("check.no_predicted_part"), ok=True)  # as the verifier makes it
    assert (note.name, note.expected, note.actual) == (
        NOT_COMPARED, "counts and names only", "the plan has no predicted part")
    row = check_row(note)
    assert (row.compared, row.expected, row.actual) == (
        False, "—", "the plan has no predicted part")
