"""Drift warnings (docs/architecture.md §6 "rerun"): a selection by labels or by a box came from
the part the calls were written for; on another part the plan says what it picks there, and
on the source part now. Sets and shapes resolve by meaning and are not warned about."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from rerun_support import plates, target

from sam_plugin.compilers.chain import CompileChain
from sam_plugin.compilers.evidence import Prediction
from sam_plugin.compilers.registry import get_module
from sam_plugin.compilers.source_drift import drift_warnings
from sam_plugin.compilers.spec.ir import Spec, Step
from sam_plugin.errors import ControllerStateError
from sam_plugin.runtime.config.settings import ProviderSettings
from sam_plugin.runtime.host_gateway import HostGateway
from sam_plugin.runtime.rerun.session import RerunSession, refuse_provider
from sam_plugin.runtime.rerun.source import RerunSource
from sam_plugin.runtime.run.phases import Phase
from sam_plugin.runtime.store.run_store import ProviderUsage, RunResult


def _warnings(sam: Any, mode: str, calls: list[tuple[str, dict]], part: str = "Plate-2",
              source: str = "Plate", request: str = "") -> list[str]:
    host = HostGateway(sam)
    module = get_module(mode)
    chain = CompileChain(module, request=request, target=target(part),
                         start=Prediction.from_readback(host.readback(target(part))),
                         model=host.model("Model-1"), part=host.part(target(part)))
    for tool, arguments in calls:
        chain.add(tool, arguments)
    source_part = host.part(target(source))
    return drift_warnings(module, chain.fragments, source_part=source, target_part=part,
                          source=source_part, target=host.part(target(part)))


def test_labels_of_nodes_and_of_elements_are_each_said_with_what_they_pick(fresh_sam):
    plates(fresh_sam, {"Plate": 2, "Plate-2": 2})
    edit = {"delete_elements": {"by": "labels", "labels": [1]},
            "move_nodes": [{"label": 9, "coordinates": [12, 2.5, 0]}]}
    assert _warnings(fresh_sam, "part", [("edit_part", edit)]) == [
        "selection by element label 1 came from part Plate; on Plate-2 it is 1 element in the "
        "box (10, 0, 0)-(11, 1, 0); on Plate now: 1 element in the box (0, 0, 0)-(1, 1, 0)",
        "selection by node label 9 came from part Plate; on Plate-2 it is 1 node at "
        "(12, 2, 0); on Plate now: 1 node at (2, 2, 0)"]


def test_a_box_says_how_much_it_picks_on_each_part(fresh_sam):
    plates(fresh_sam, {"Plate": 2, "Plate-2": 2})
    refine = {"selection": {"by": "box", "min": [0, 0, 0], "max": [1, 2, 0]}, "levels": 1}
    assert _warnings(fresh_sam, "mesh", [("refine_mesh", refine)], part="Plate") == []
    # on Plate-2 (x 10..12) the box holds nothing: the refine compile itself would refuse an
    # empty selection, so the words are asked of the drift module directly
    module = get_module("mesh")
    host = HostGateway(fresh_sam)
    chain = CompileChain(module, request="", target=target("Plate"),
                         start=Prediction.from_readback(host.readback(target("Plate"))),
                         model=host.model("Model-1"), part=host.part(target("Plate")))
    chain.add("refine_mesh", refine)
    assert drift_warnings(module, chain.fragments, source_part="Plate", target_part="Plate-2",
                          source=host.part(target("Plate")),
                          target=host.part(target("Plate-2"))) == [
        "selection by the box (0, 0, 0)-(1, 2, 0) came from part Plate; on Plate-2 it picks "
        "no elements; on Plate now: 2 elements in the box (0, 0, 0)-(1, 2, 0)"]


@pytest.mark.parametrize("selection", [{"by": "all"}, {"by": "shape", "shape": "QUAD"}])
def test_selections_that_resolve_by_meaning_warn_nothing(fresh_sam, selection):
    plates(fresh_sam, {"Plate": 2, "Plate-2": 2})
    assert _warnings(fresh_sam, "mesh", [("refine_mesh",
                                          {"selection": selection, "levels": 1})]) == []


def test_the_rerun_controller_has_no_provider_to_ask():
    with pytest.raises(ControllerStateError, match="a rerun sends nothing to a model"):
        refuse_provider(ProviderSettings())


class _Calling:
    """A controller whose run reports a provider call (what must never happen)."""

    host = None
    phase = Phase.FAILED
    plan = None
    run_id = "20261129T193000Z-ab12cd"

    def __init__(self) -> None:
        self.result = RunResult(run_id=self.run_id, status="rejected", phase="failed",
                                module="property", target=target("Plate-2"),
                                provider=ProviderUsage(name="x", model="y", calls=1))

    async def plan_calls(self, *args: Any, **kwargs: Any) -> Phase:
        return self.phase


NO_COUNTS = Spec(summary="s", steps=(Step(capability="assign", action="assign_section",
                                           values={"section": "S"}),))  # no count: no read


def test_a_target_run_that_called_a_provider_stops_the_rerun():
    source = RerunSource(run_id="20261129T000000Z-000000", mode="property",
                         target=target("Plate"), request="r", spec=NO_COUNTS,
                         calls=(("assign_property", {}),))
    session = RerunSession(_Calling(), source, [target("Plate-2")])  # type: ignore[arg-type]

    async def approve(waiting: Any) -> bool:
        return True

    with pytest.raises(ControllerStateError, match="called a provider 1 time"):
        asyncio.run(session.run(approve))


def test_labels_the_source_part_has_lost_are_named(fresh_sam):
    """Plate lost element 2 since its run: 'on Plate now' names what is missing, not 'not all
    there'."""
    plates(fresh_sam, {"Plate": 2, "Plate-2": 2})
    plate = fresh_sam.mdb.models["Model-1"].parts["Plate"]
    plate.deleteElement(plate.elements.sequenceFromLabels([2]))
    edit = {"delete_elements": {"by": "labels", "labels": [1, 2]}}
    assert _warnings(fresh_sam, "part", [("edit_part", edit)]) == [
        "selection by element labels 1-2 came from part Plate; on Plate-2 they are 2 elements "
        "in the box (10, 0, 0)-(12, 1, 0); on Plate now: 1 of the 2 elements are not there "
        "(label 2)"]
