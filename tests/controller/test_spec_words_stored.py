"""The spec as stored for people (design.txt, and design.N.txt that History shows) says its
units as Review does; with no unit known it says none; what the model is sent stays bare."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from controller_fakes import TARGET, ScriptedProvider, design, policy, settings

from sam_plugin.compilers.units import unit_system
from sam_plugin.runtime.host_gateway import HostGateway
from sam_plugin.runtime.run.controller import RunController
from sam_plugin.runtime.run.phases import Phase
from tests.support.pipeline import fresh_database
from tests.support.plates import quad_plate
from tests.support.specs import answer, named_set, step

fresh_sam = pytest.fixture(fresh_database)
FIRST = answer(step("translate", named_set("S1"), vector=[5, 0, 0]))


def _in_review(sam: Any, tmp_path: Path, **options: Any) -> tuple[RunController, Path]:
    part = quad_plate(sam.mdb.models["Model-1"], "Plate", 2)
    part.Set(name="S1", elements=part.elements[0:2])
    provider = ScriptedProvider(design(FIRST))
    controller = RunController(runs_dir=tmp_path / "runs", settings=settings(),
                               policy=policy(calls="spec"), host=HostGateway(sam),
                               provider_factory=provider.factory, **options)
    if "units_from_model" not in options:
        controller.units = unit_system("mm")
    asyncio.run(controller.submit("Translate set S1 by (5, 0, 0).", "part", TARGET))
    assert controller.phase == Phase.REVIEW
    assert controller.run_id is not None
    return controller, tmp_path / "runs" / controller.run_id


def _translate_line(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("1. "))


def test_design_txt_and_each_version_say_the_units(fresh_sam, tmp_path):
    controller, run = _in_review(fresh_sam, tmp_path)
    assert "(5, 0, 0) mm" in _translate_line((run / "design.txt").read_text())
    edited = json.loads(FIRST)
    edited["steps"][0]["values"]["vector"] = [7, 0, 0]
    controller.edit_spec(edited)
    assert "(5, 0, 0) mm" in _translate_line((run / "design.1.txt").read_text())
    assert "(7, 0, 0) mm" in _translate_line((run / "design.2.txt").read_text())
    assert (run / "design.txt").read_text() == controller.spec_text + "\n"
    assert "mm" not in _translate_line(controller._run.spec)  # what a model is sent: bare


def test_with_no_unit_known_the_stored_spec_says_none(fresh_sam, tmp_path):
    controller, run = _in_review(fresh_sam, tmp_path, units_from_model=False)
    line = _translate_line((run / "design.txt").read_text())
    assert "(5, 0, 0)" in line and "mm" not in line, line


def test_an_mcp_or_rerun_controller_reads_the_models_units(fresh_sam, tmp_path):
    fresh_sam.mdb.models["Model-1"].lengthUnit = "m"
    controller, run = _in_review(fresh_sam, tmp_path, units_from_model=True)
    assert controller.units is not None and controller.units.name == "m-N-kg-s"
    assert "(5, 0, 0) m " in _translate_line(controller.spec_text) + " "  # not mm
    assert "(5, 0, 0) m" in _translate_line((run / "design.txt").read_text())


def test_a_review_warning_says_the_steps_units(fresh_sam, tmp_path):
    part = quad_plate(fresh_sam.mdb.models["Model-1"], "Plate", 2)
    part.Set(name="S1", elements=part.elements[0:2])
    absent = answer(step("translate", named_set("S9"), vector=[5, 0, 0]))
    controller = RunController(runs_dir=tmp_path / "runs", settings=settings(),
                               policy=policy(calls="spec"), host=HostGateway(fresh_sam),
                               provider_factory=ScriptedProvider(design(absent),
                                                                 design(absent)).factory)
    controller.units = unit_system("mm")
    asyncio.run(controller.submit("Translate set S9 by (5, 0, 0).", "part", TARGET))
    assert [w for w in controller.review_warnings if w.startswith("step 1 (")] == [
        "step 1 (translate set S9 by (5, 0, 0) mm): unknown set 'S9'; existing sets: S1 on "
        "the part as it is now"]
