"""The Property mode's spec actions (docs/architecture.md §4 "The spec") and the map from
its normalized tool calls to the operations the binding compares with the steps.

define: ``define_material`` (one per material), ``define_section`` (one per section) ·
assign: ``assign_section`` (one per assignment), ``orient_beams`` (one per orientation) ·
audit: ``audit``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import TypeAdapter

from sam_plugin.compilers.property.routing_rules import CAPABILITIES
from sam_plugin.compilers.protocol import Fragment
from sam_plugin.compilers.selectors import Selector
from sam_plugin.compilers.spec import values as v
from sam_plugin.compilers.spec.vocabulary import ActionDef, CallOperation, Vocabulary
from sam_plugin.compilers.units import Quantity

_SELECTOR: TypeAdapter[Any] = TypeAdapter(Selector)


def _positive(description: str, quantity: Quantity | None = None) -> v.ValueDef:
    return v.number(description, minimum=0, quantity=quantity)


PROFILE = v.record("the beam profile: its shape and its dimensions", {
    "shape": v.choice("profile shape", {"rectangle": ("rectangle", "矩形"),
                                        "circle": ("circle", "圆形"), "pipe": ("pipe", "圆管"),
                                        "I": ("I", "工字形")}),
    **{key: _positive(key, "length") for key in ("a", "b", "r", "t", "l", "h", "b1", "b2",
                                                 "t1", "t2", "t3")},
}, required=("shape",))

ACTIONS: tuple[ActionDef, ...] = (
    ActionDef(
        "define_material", "define",
        {"name": v.name("material name"), "E": _positive("Young's modulus", "stress"),
         "nu": v.number("Poisson's ratio", minimum=-1, maximum=0.5),
         "density": _positive("mass density", "density")},
        en="define the material[ {name}][ with E = {E}][, nu = {nu}][, density {density}]",
        zh="定义材料[ {name}][：E = {E}][，nu = {nu}][，密度 {density}]",
        required=("name", "E", "nu"), keeps_counts=True,
        description="values in the model's own units",
        asks="a material: Young's modulus, Poisson's ratio, density",
        defines=("materials", "name")),
    ActionDef(
        "define_section", "define",
        {"name": v.name("section name"),
         "kind": v.choice("shell or beam", {"shell": ("shell", "壳"), "beam": ("beam", "梁")}),
         "material": v.name("its material"), "thickness": _positive("shell thickness", "length"),
         "profile": PROFILE},
        en=("define the[ {kind}] section[ {name}][ of material {material}]"
            "[, thickness {thickness}][, profile {profile}]"),
        zh="定义[{kind}]截面[ {name}][（材料 {material}）][，厚度 {thickness}][，剖面 {profile}]",
        required=("name", "kind", "material"), keeps_counts=True,
        asks="a section: shell thickness or beam profile",
        kinds=("kind", {"shell": ("thickness",), "beam": ("profile",)}),
        refers={"material": "materials"}, defines=("sections", "name")),
    ActionDef(
        "assign_section", "assign", {"section": v.name("the section assigned")},
        en="assign the section[ {section}] to {scope}", zh="将截面[ {section}]赋予{scope}",
        required=("section",), scope="required", keeps_counts=True,
        asks="assign a section to elements or a set", refers={"section": "sections"}),
    ActionDef(
        "orient_beams", "assign", {"n1": v.vector("the beams' 1-direction [x, y, z]")},
        en="orient the beams of {scope}[ with n1 = {n1}]", zh="设置{scope}的梁方向[ n1 = {n1}]",
        required=("n1",), scope="required", keeps_counts=True,
        asks="beam orientation, the n1 direction of beams"),
    ActionDef(
        "audit", "audit", {}, en="audit the properties", zh="审计属性", mutating=False,
        keeps_counts=True, description="a read-only report",
        asks="check or report the properties without changing anything"),
)

VOCABULARY = Vocabulary(
    mode="property", title="Property", capabilities=CAPABILITIES,
    capability_words={"define": ("define", "定义"), "assign": ("assign", "赋予"),
                      "audit": ("audit", "审计")},
    actions=ACTIONS, max_steps=12,
)

_BY_NAME = {a.name: a for a in ACTIONS}


def _values(action: str, raw: Mapping[str, Any]) -> dict[str, Any]:
    keys = _BY_NAME[action].values
    return {key: v.normalize(keys[key], raw[key]) for key in keys if raw.get(key) is not None}


def operations(fragment: Fragment) -> list[CallOperation]:
    """The operations of one compiled Property call, in the order the call performs them."""
    args = fragment.normalized
    tool = fragment.tool
    found: list[CallOperation] = []
    if tool == "define_property":
        for i, material in enumerate(args.get("materials", ())):
            raw = {"name": material.get("name"), "E": material.get("youngs_modulus"),
                   "nu": material.get("poisson_ratio"), "density": material.get("density")}
            found.append(CallOperation(tool, f"materials[{i}]", "define_material",
                                       _values("define_material", raw)))
        for i, section in enumerate(args.get("sections", ())):
            found.append(CallOperation(tool, f"sections[{i}]", "define_section",
                                       _values("define_section", section)))
    elif tool == "assign_property":
        for i, item in enumerate(args.get("assignments", ())):
            found.append(CallOperation(tool, f"assignments[{i}]", "assign_section",
                                       _values("assign_section", item),
                                       _SELECTOR.validate_python(item["selection"])))
        for i, item in enumerate(args.get("beam_orientations", ())):
            found.append(CallOperation(tool, f"beam_orientations[{i}]", "orient_beams",
                                       _values("orient_beams", item),
                                       _SELECTOR.validate_python(item["selection"])))
    elif tool == "audit_property":
        found.append(CallOperation(tool, "", "audit", {}))
    return found
