"""The request's own words refuse in the design asked whole too (docs/architecture.md §4 "The
design, asked in parts"): once the design's requests are answered, over what the model
answered, so that the whole design sends exactly what it sent before; never an edit."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from controller_fakes import TARGET, ScriptedProvider, design, policy, settings

from sam_plugin.runtime.host_gateway import HostGateway
from sam_plugin.runtime.run.controller import RunController
from sam_plugin.runtime.run.phases import Phase
from tests.support.pipeline import fresh_database
from tests.support.plates import quad_plate
from tests.support.specs import answer, step

fresh_sam = pytest.fixture(fresh_database)
TRANSLATE = answer(step("translate", {"by": "all"}, vector=[0, 0, 5]),
                   summary="Translate the part by (0, 0, 5).")


@pytest.fixture
def plate(fresh_sam: Any) -> Any:
    return quad_plate(fresh_sam.mdb.models["Model-1"], "Plate", 2)


def make(sam: Any, tmp_path: Path, *answers: Any, calls: str = "spec"
         ) -> tuple[RunController, ScriptedProvider]:
    provider = ScriptedProvider(*answers)
    controller = RunController(runs_dir=tmp_path / "runs", settings=settings(),
                               policy=policy(calls=calls, design="whole"),
                               host=HostGateway(sam), provider_factory=provider.factory)
    return controller, provider


def error_of(controller: RunController) -> dict[str, Any]:
    assert controller.run_id is not None
    path = controller.runs_dir / controller.run_id / "result.json"
    error: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))["error"]
    return error


@pytest.mark.parametrize("answered", [TRANSLATE, '{"refuse": "not here"}', "prose, twice"])
def test_whatever_the_model_answered_the_words_refuse_by_their_category(
        fresh_sam, plate, tmp_path, answered):
    controller, provider = make(fresh_sam, tmp_path, design(answered), design(answered))
    phase = asyncio.run(controller.submit("Put 2 MPa of pressure on the top face.", "part",
                                          TARGET))
    assert phase == Phase.FAILED
    error = error_of(controller)
    assert (error["layer"], error["category"], error["part"]) == ("design", "load", "unchanged")
    assert error["message"].startswith("the request says “Put 2 MPa of pressure”: this asks "
                                       "for a load")
    # the design's requests were sent as ever: the spec request (and its repair for prose)
    assert len(provider.requests) == (2 if answered == "prose, twice" else 1)
    assert controller.spec is None and plate.nodes.__len__() == 9


def test_an_edit_that_mentions_a_load_is_designed_as_ever(fresh_sam, plate, tmp_path):
    controller, _ = make(fresh_sam, tmp_path, design(TRANSLATE))
    assert asyncio.run(controller.submit("Raise the part by 5, out of the load path.", "part",
                                         TARGET)) == Phase.REVIEW


def test_with_the_models_calls_the_words_do_not_refuse(fresh_sam, plate, tmp_path):
    controller, _ = make(fresh_sam, tmp_path, design(TRANSLATE), calls="model")
    assert asyncio.run(controller.submit("Put 2 MPa of pressure on the top face.", "part",
                                         TARGET)) == Phase.REVIEW
