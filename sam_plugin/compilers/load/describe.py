"""The Load plan: each step with the step it follows; each load and boundary condition with
its region (the set and the count of its members, and the set the run makes for a selection
that is not one), its step, and its values with their units (a pressure in the model's stress
unit, a force in its force unit). The words are data here, one template per kind."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import TypeAdapter

from sam_plugin.compilers.load.ir import DefineStep
from sam_plugin.compilers.load.phrases import CATALOGUE as _WORDS  # noqa: F401 (registers)
from sam_plugin.compilers.load.regions import MEMBERS, made_set, picked, region_name
from sam_plugin.compilers.load.tool_compilers import previous_steps
from sam_plugin.compilers.plan import PlanCall, PlanDetail, PlanOperation, Touched, touched
from sam_plugin.compilers.plan_words import picked_elements
from sam_plugin.compilers.predicted_part import before_contents, unchanged
from sam_plugin.compilers.protocol import CompileContext, Fragment
from sam_plugin.compilers.selectors import Selector
from sam_plugin.compilers.spec.values import number_words
from sam_plugin.compilers.units import Quantity, UnitSystem, context_units, with_unit
from sam_plugin.samops.load_ops import DOFS, INITIAL

_SELECTOR: TypeAdapter[Any] = TypeAdapter(Selector)

# kind -> the plan line; {region} is the set with its members, {step} the step
WORDS: Mapping[str, str] = {
    "step": "define the static step {name} after {previous}",
    "pressure": "pressure {name} of {values} on {region} in step {step}",
    "force": "force {name} of {values} on each node of {region} in step {step}",
    "fix": "fix {values} of {region} as {name} in step {step}",
    "displace": "displace {region} by {values} as {name} in step {step}",
    "audit": "audit (read-only); writes load_audit.json",
    "made": "{set} ({count} {members}, a new set made from the selection)",
    "named": "set {set} ({count} {members})",
}
_QUANTITY: Mapping[str, Quantity | None] = {"u1": "length", "u2": "length", "u3": "length"}


def values_words(item: Mapping[str, Any], units: UnitSystem | None) -> str:
    """A load's or condition's values with their units (``-5 MPa``; ``(0, -100, 0) N``;
    ``u1, u2``; ``u2 = -0.5 mm``)."""
    kind = item["kind"]
    if kind == "pressure":
        return with_unit(number_words(item["magnitude"]), "stress", units)
    if kind == "force":
        vector = ", ".join(number_words(c) for c in item["vector"])
        return with_unit(f"({vector})", "force", units)
    if kind == "fix":
        dofs = item.get("dofs") or list(DOFS)
        return "all six dofs" if len(dofs) == len(DOFS) else ", ".join(dofs)
    return ", ".join(f"{dof} = {with_unit(number_words(value), _QUANTITY.get(dof), units)}"
                     for dof, value in item["values"].items())


def region_words(item: Mapping[str, Any], part: Any) -> str:
    selector = _SELECTOR.validate_python(item["selection"])
    members = MEMBERS[item["kind"]]
    count = len(picked(part, selector, members))
    made = made_set(item["kind"], item["name"], selector)
    template = WORDS["made" if made else "named"]
    return template.format(set=region_name(item["kind"], item["name"], selector), count=count,
                           members=members if count != 1 else members[:-1])


def _item_line(item: Mapping[str, Any], ctx: CompileContext) -> PlanOperation:
    units = context_units(ctx)
    text = WORDS[item["kind"]].format(name=item["name"], values=values_words(item, units),
                                      region=region_words(item, ctx.part),
                                      step=item.get("step", INITIAL))
    return PlanOperation(text=text, touched=region_touched(item, ctx.part))


def region_touched(item: Mapping[str, Any], part: Any) -> list[Touched]:
    """The members the load or condition acts on: their labels, or a count and a box."""
    selector = _SELECTOR.validate_python(item["selection"])
    members = MEMBERS[item["kind"]]
    labels = picked(part, selector, members)
    if not labels:
        return []
    if members == "elements":
        return picked_elements(part, {"by": "labels", "labels": labels})
    points = [tuple(n.coordinates) for n in part.nodes.sequenceFromLabels(labels)]
    return [touched("nodes", labels, points)]


def _operations(fragment: Fragment, ctx: CompileContext) -> list[PlanOperation]:
    args = fragment.normalized
    if fragment.tool == "define_step":
        ir = DefineStep.model_validate(args)
        return [PlanOperation(text=WORDS["step"].format(name=s.name, previous=p))
                for s, p in zip(ir.steps, previous_steps(ir, ctx), strict=True)]
    if fragment.tool in ("apply_load", "apply_boundary"):
        items = args.get("loads") or args.get("conditions") or []
        return [_item_line(item, ctx) for item in items]
    return [PlanOperation(text=WORDS["audit"])]


def describe(fragments: Sequence[Fragment], ctx: CompileContext) -> PlanDetail:
    calls = []
    for index, fragment in enumerate(fragments, start=1):
        # each call sees the steps the calls before it define
        here = CompileContext(request_text=ctx.request_text, target=ctx.target,
                              state=ctx.state, model=ctx.model, part=ctx.part,
                              prior_fragments=tuple(fragments[:index - 1]), extra=ctx.extra)
        calls.append(PlanCall(index=index, tool=fragment.tool,
                              operations=_operations(fragment, here),
                              notes=list(fragment.notes)))
    if ctx.part is None:
        return PlanDetail(calls=calls, basis="counts predicted by the compilers")
    fingerprint = str(ctx.extra.get("before_fingerprint", ""))
    before = before_contents(ctx.model, ctx.part, fingerprint)
    if all(f.read_only for f in fragments):
        return PlanDetail(calls=calls, predicted=unchanged(before, fingerprint),
                          basis="read-only: the part stays as it is (fingerprint unchanged)")
    return PlanDetail(calls=calls, basis=(
        "geometry and properties unchanged (node and element records compared through the "
        "fingerprint); the steps, loads and boundary conditions read back one by one"))
