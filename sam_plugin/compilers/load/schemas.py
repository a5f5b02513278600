"""Wire schemas (docs/architecture.md §4) and descriptions of the four Load tools."""

from __future__ import annotations

from typing import Any

from sam_plugin.compilers import schema_common as sc
from sam_plugin.samops.load_ops import DOFS

UNITS = "Values are in the model's own consistent units (a pressure a stress, a force a force)."


def _dofs() -> dict[str, Any]:
    return sc.array(sc.shape(DOFS), "the dofs held at 0; all six when left out", min_items=1,
                    max_items=len(DOFS))


def _dof_values() -> dict[str, Any]:
    schema = sc.obj({dof: sc.number(f"prescribed {dof}") for dof in DOFS}, (),
                    "each prescribed dof and its value; the dofs not named stay free")
    schema["minProperties"] = 1
    return schema


DEFINE_STEP = sc.parameters(
    {"steps": sc.array(sc.obj({"name": sc.name("the new static step"),
                               "previous": sc.name("the step it follows; the last step "
                                                   "when left out")}, ["name"]),
                       "static steps to create, in order", min_items=1)},
    ["steps"],
)

APPLY_LOAD = sc.parameters(
    {"loads": sc.array({"anyOf": [
        sc.tagged("kind", "pressure", {
            "name": sc.name("the load's name"), "step": sc.name("an existing step, not Initial"),
            "magnitude": sc.number("the pressure, a stress"),
            "selection": sc.selector("the QUAD/TRI elements it acts on")},
            ["name", "step", "magnitude", "selection"]),
        sc.tagged("kind", "force", {
            "name": sc.name("the load's name"), "step": sc.name("an existing step, not Initial"),
            "vector": sc.vec3("the force on each node [cf1, cf2, cf3]"),
            "selection": sc.selector("the nodes it acts on")},
            ["name", "step", "vector", "selection"]),
    ], "description": "pressure {name, step, magnitude, selection} or force {name, step, "
       "vector, selection}"}, "loads to create", min_items=1)},
    ["loads"],
)

APPLY_BOUNDARY = sc.parameters(
    {"conditions": sc.array({"anyOf": [
        sc.tagged("kind", "fix", {
            "name": sc.name("the condition's name"),
            "step": sc.name("an existing step; Initial when left out"),
            "dofs": _dofs(), "selection": sc.selector("the nodes it holds")},
            ["name", "selection"]),
        sc.tagged("kind", "displace", {
            "name": sc.name("the condition's name"),
            "step": sc.name("an existing step; Initial when left out"),
            "values": _dof_values(), "selection": sc.selector("the nodes it moves")},
            ["name", "values", "selection"]),
    ], "description": "fix {name, step?, dofs?, selection} or displace {name, step?, values, "
       "selection}"}, "boundary conditions to create", min_items=1)},
    ["conditions"],
)

AUDIT = sc.parameters({})

SCHEMAS: dict[str, dict[str, Any]] = {
    "define_step": DEFINE_STEP, "apply_load": APPLY_LOAD, "apply_boundary": APPLY_BOUNDARY,
    "audit_loads": AUDIT,
}

DESCRIPTIONS: dict[str, str] = {
    "define_step": "Create static analysis steps, each after its previous step (the last "
                   "step when left out). Geometry and properties never change.",
    "apply_load": "Create pressures (on QUAD/TRI elements) and concentrated forces (on "
                  "nodes) in an existing step other than Initial. A selection that is not a "
                  "set becomes the set LOAD-<name>. " + UNITS,
    "apply_boundary": "Create boundary conditions on nodes: fix (the dofs held at 0, all six "
                      "when left out) or displace (prescribed dof values). The step is "
                      "Initial when left out. A selection that is not a set becomes the set "
                      "BC-<name>. " + UNITS,
    "audit_loads": "Read-only audit written to load_audit.json: each step, load and boundary "
                   "condition with its region's members and values; loads on empty regions; "
                   "nodes both fixed and displaced in one dof. Takes no arguments: {}.",
}
