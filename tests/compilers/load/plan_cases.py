"""Load plans worded by ``describe`` for a few calls, with and without a unit system: the
cases ``test_load_plan_words`` compares with the English recorded before phrases."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from sam_plugin.compilers import registry
from sam_plugin.compilers.evidence import Prediction
from sam_plugin.compilers.protocol import CompileContext, Target
from sam_plugin.compilers.units import unit_system
from sam_plugin.runtime.host_gateway import HostGateway
from tests.support.pipeline import fresh_database
from tests.support.plates import quad_plate

LOAD = registry.get_module("load")
TARGET = Target(model_name="Model-1", part_name="Plate")
BOX = {"by": "box", "min": [0, 0, 0], "max": [0, 2, 0]}
ALL = {"by": "all"}
STEP = ("define_step", {"steps": [{"name": "Push"}, {"name": "Hold", "previous": "Push"}]})
CALLS: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "steps": [STEP, ("audit_loads", {})],
    "pressure_and_force": [STEP, ("apply_load", {"loads": [
        {"name": "P1", "kind": "pressure", "step": "Push", "magnitude": -2.5,
         "selection": {"by": "set", "name": "ELEMS"}},
        {"name": "P2", "kind": "pressure", "step": "Hold", "magnitude": 0.125,
         "selection": {"by": "labels", "labels": [3]}},
        {"name": "F1", "kind": "force", "step": "Push", "vector": [0, -100, 1.5],
         "selection": {"by": "labels", "labels": [3]}},
        {"name": "F2", "kind": "force", "step": "Hold", "vector": [1, 0, 0],
         "selection": ALL}]})],
    "conditions": [STEP, ("apply_boundary", {"conditions": [
        {"name": "Clamp", "kind": "fix", "selection": BOX},
        {"name": "Roller", "kind": "fix", "dofs": ["u2", "ur3"], "step": "Push",
         "selection": {"by": "set", "name": "NODES"}},
        {"name": "Pull", "kind": "displace", "step": "Push",
         "values": {"u1": 0.5, "u3": -2, "ur2": 0.01}, "selection": {"by": "labels",
                                                                    "labels": [9]}},
        {"name": "Turn", "kind": "displace", "values": {"ur1": 0.25}, "selection": BOX}]})],
}
UNITS = {"none": None, "mm": unit_system("mm"), "mm-kN-kg-ms": unit_system("mm-kN-kg-ms"),
         "cm": unit_system("cm")}


def contexts(units: Any) -> Iterator[CompileContext]:
    for sam in fresh_database():
        model = sam.mdb.models["Model-1"]
        part = quad_plate(model, "Plate", 2)  # nodes 1-9, QUADs 1-4
        part.Set(name="ELEMS", elements=part.elements.sequenceFromLabels([1, 2]))
        part.Set(name="NODES", nodes=part.nodes.sequenceFromLabels([1, 2]))
        readback = HostGateway(sam).readback(TARGET)
        extra = {} if units is None else {"units": units}
        yield CompileContext(request_text="", target=TARGET,
                             state=Prediction.from_readback(readback), model=model, part=part,
                             extra=extra)


def described(case: str, units: Any) -> Any:
    """The PlanDetail of ``case``'s calls, each compiled after the ones before it."""
    for ctx in contexts(units):
        fragments: list[Any] = []
        for tool, arguments in CALLS[case]:
            here = CompileContext(request_text="", target=TARGET, state=ctx.state,
                                  model=ctx.model, part=ctx.part,
                                  prior_fragments=tuple(fragments), extra=ctx.extra)
            fragments.append(LOAD.compile(tool, arguments, here))
        return LOAD.describe(fragments, ctx)
    raise AssertionError("no database")
