"""Verification compares every attribute in every mode (docs/architecture.md §5, I16): what
the calls touch one by one, everything else through the part fingerprint."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sam_plugin.compilers.part import MODULE as PART
from sam_plugin.compilers.property import MODULE as PROPERTY
from sam_plugin.runtime.verify.part_comparison import REST
from sam_plugin.runtime.verify.verifier import all_passed

from .conftest import build_hull, failed, plan_and_run

TRANSLATE_S = [("transform_part", {"operations": [
    {"op": "translate", "vector": [0.0, 0.0, 3.0], "selection": {"by": "set", "name": "S"}}]})]
ORIENT = [("assign_property", {"beam_orientations": [
    {"selection": {"by": "set", "name": "FRAMES"}, "n1": [0.0, 0.0, 1.0]}]})]


@pytest.fixture
def hull(fresh_sam: Any) -> Any:
    return build_hull(fresh_sam.mdb.models["Model-1"], 12)


def _renamed_section(part: Any) -> None:
    part.sectionAssignments[0].setValues(sectionName="Shell-9")


def _turned_n1(part: Any) -> None:
    part.beamOrientations[0].setValues(n1=(0.0, 1.0, 0.0))


def test_a_faithful_part_translate_is_verified(fresh_sam: Any, hull: Any, tmp_path: Path) -> None:
    checks = plan_and_run(fresh_sam, PART, TRANSLATE_S, tmp_path, "translate set S").verify()
    assert all_passed(checks), failed(checks)


@pytest.mark.parametrize(("tamper", "words"), [
    (_renamed_section, "element 1 has section Shell-9, was section Shell-5"),
    (_turned_n1, "has n1 (0, 1, 0), was n1 (0, 0, 1)"),
])
def test_a_part_translate_whose_host_changed_sections_or_n1_fails(
        fresh_sam: Any, hull: Any, tmp_path: Path, tamper: Any, words: str) -> None:
    checks = plan_and_run(fresh_sam, PART, TRANSLATE_S, tmp_path, "translate set S",
                          tamper=tamper).verify()
    wrong = failed(checks)
    assert REST in wrong, checks
    assert words in wrong[REST].actual


def test_a_property_host_storing_another_n1_than_the_call_fails(
        fresh_sam: Any, hull: Any, tmp_path: Path) -> None:
    def stored_other(part: Any) -> None:
        part.beamOrientations[len(part.beamOrientations) - 1].setValues(n1=(0.0, 1.0, 0.0))

    checks = plan_and_run(fresh_sam, PROPERTY, ORIENT, tmp_path, "orient the frames",
                          tamper=stored_other).verify()
    wrong = failed(checks)
    check = wrong["beam orientations match the plan (exact)"]
    assert "has n1 (0, 1, 0), the plan gives it n1 (0, 0, 1)" in check.actual


def test_a_faithful_property_orientation_is_verified(fresh_sam: Any, hull: Any,
                                                     tmp_path: Path) -> None:
    checks = plan_and_run(fresh_sam, PROPERTY, ORIENT, tmp_path, "orient the frames").verify()
    assert all_passed(checks), failed(checks)
