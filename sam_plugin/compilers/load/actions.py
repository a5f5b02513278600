"""The Load mode's spec actions (docs/architecture.md §4 "The spec") and the map from its
normalized tool calls to the operations the binding compares with the steps.

step: ``define_step`` (``name``, ``previous``) · load: ``pressure`` (``name``, ``step``,
``magnitude``), ``force`` (``name``, ``step``, ``vector``) · boundary: ``fix`` (``name``,
``step``, ``dofs``), ``displace`` (``name``, ``step``, ``values``) · audit: ``audit``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import TypeAdapter

from sam_plugin.compilers.load.regions import NODE_SELECTORS
from sam_plugin.compilers.load.routing_rules import CAPABILITIES
from sam_plugin.compilers.protocol import Fragment
from sam_plugin.compilers.selectors import Selector
from sam_plugin.compilers.spec import values as v
from sam_plugin.compilers.spec.vocabulary import ActionDef, CallOperation, Vocabulary
from sam_plugin.samops.load_ops import DOFS, INITIAL

_SELECTOR: TypeAdapter[Any] = TypeAdapter(Selector)

DOF_WORDS = {dof: (dof, dof) for dof in DOFS}
# a translation is a length; a rotation (ur1..ur3) is an angle in radians, which has no unit
DOF_VALUES = v.record("each prescribed dof and its value", {
    dof: v.number(f"prescribed {dof}", quantity="length" if dof.startswith("u") and
                  not dof.startswith("ur") else None) for dof in DOFS})

ACTIONS: tuple[ActionDef, ...] = (
    ActionDef(
        "define_step", "step",
        {"name": v.name("the new static step"), "previous": v.name("the step it follows")},
        en="define the static step[ {name}][ after {previous}]",
        zh="定义静力分析步[ {name}][（接在 {previous} 之后）]",
        required=("name",), keeps_counts=True,
        asks="an analysis step (a static step) that loads are applied in"),
    ActionDef(
        "pressure", "load",
        {"name": v.name("the load's name"), "step": v.name("the step it is created in"),
         "magnitude": v.number("the pressure", quantity="stress")},
        en="apply the pressure[ {name}][ of {magnitude}] on {scope}[ in step {step}]",
        zh="在{scope}上施加压力[ {name}][ {magnitude}][（分析步 {step}）]",
        required=("name", "step", "magnitude"), scope="required", members="elements",
        asks="a pressure on QUAD/TRI elements or a set of them, in a step after Initial"),
    ActionDef(
        "force", "load",
        {"name": v.name("the load's name"), "step": v.name("the step it is created in"),
         "vector": v.vector("the force on each node [cf1, cf2, cf3]", quantity="force")},
        en="apply the force[ {name}][ {vector}] on {scope}[ in step {step}]",
        zh="在{scope}上施加集中力[ {name}][ {vector}][（分析步 {step}）]",
        required=("name", "step", "vector"), scope="required", members="nodes",
        selects=NODE_SELECTORS,
        asks="a concentrated force on nodes or a node set, in a step after Initial"),
    ActionDef(
        "fix", "boundary",
        {"name": v.name("the condition's name"), "step": v.name("the step it is created in"),
         "dofs": v.choices("the dofs held at 0", DOF_WORDS)},
        en="fix[ {dofs} of] {scope}[ as {name}][ in step {step}]",
        zh="固定{scope}[的 {dofs}][（{name}）][（分析步 {step}）]",
        required=("name",), scope="required", members="nodes", selects=NODE_SELECTORS,
        defaults={"step": INITIAL, "dofs": list(DOFS)},
        asks="fix, clamp or support nodes (all six dofs, or the ones named)"),
    ActionDef(
        "displace", "boundary",
        {"name": v.name("the condition's name"), "step": v.name("the step it is created in"),
         "values": DOF_VALUES},
        en="displace {scope}[ by {values}][ as {name}][ in step {step}]",
        zh="给{scope}施加位移[ {values}][（{name}）][（分析步 {step}）]",
        required=("name", "values"), scope="required", members="nodes",
        selects=NODE_SELECTORS,
        defaults={"step": INITIAL},
        asks="a prescribed displacement of nodes (each dof's value)"),
    ActionDef(
        "audit", "audit", {}, en="audit the loads and boundary conditions",
        zh="审计载荷和边界条件", mutating=False, keeps_counts=True,
        description="a read-only report",
        asks="check or report the steps, loads and boundary conditions without changing "
             "anything"),
)

VOCABULARY = Vocabulary(
    mode="load", title="Load", capabilities=CAPABILITIES,
    capability_words={"step": ("step", "分析步"), "load": ("load", "载荷"),
                      "boundary": ("boundary", "边界条件"), "audit": ("audit", "审计")},
    actions=ACTIONS, max_steps=12,
)

_BY_NAME = {a.name: a for a in ACTIONS}


def step_values(action: str, raw: Mapping[str, Any]) -> dict[str, Any]:
    """``raw``'s values of ``action``, normalized as a step's."""
    keys = _BY_NAME[action].values
    return {key: v.normalize(keys[key], raw[key]) for key in keys if raw.get(key) is not None}


def _condition_values(item: Mapping[str, Any]) -> dict[str, Any]:
    if item["kind"] == "fix":
        return step_values("fix", {**item, "dofs": item.get("dofs") or list(DOFS),
                                   "step": item.get("step", INITIAL)})
    return step_values("displace", {**item, "step": item.get("step", INITIAL)})


def operations(fragment: Fragment) -> list[CallOperation]:
    """The operations of one compiled Load call, in the order the call performs them."""
    args = fragment.normalized
    tool = fragment.tool
    found: list[CallOperation] = []
    if tool == "define_step":
        for i, step in enumerate(args.get("steps", ())):
            found.append(CallOperation(tool, f"steps[{i}]", "define_step",
                                       step_values("define_step", step)))
    elif tool == "apply_load":
        for i, load in enumerate(args.get("loads", ())):
            found.append(CallOperation(tool, f"loads[{i}]", load["kind"],
                                       step_values(load["kind"], load),
                                       _SELECTOR.validate_python(load["selection"])))
    elif tool == "apply_boundary":
        for i, item in enumerate(args.get("conditions", ())):
            found.append(CallOperation(tool, f"conditions[{i}]", item["kind"],
                                       _condition_values(item),
                                       _SELECTOR.validate_python(item["selection"])))
    elif tool == "audit_loads":
        found.append(CallOperation(tool, "", "audit", {}))
    return found
