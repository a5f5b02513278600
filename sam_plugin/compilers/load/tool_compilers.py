"""The Load tools' compilers: checks against the live model (docs/architecture.md §4 "Load
mode rules"), the script's code and the prediction. Nothing here changes geometry or
properties: each call predicts them unchanged, and adds only the region sets it makes."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from sam_plugin.compilers.codegen import PART, plain_literal, variable
from sam_plugin.compilers.load.ir import (
    ApplyBoundary,
    ApplyLoad,
    AuditLoads,
    DefineStep,
    ForceLoad,
)
from sam_plugin.compilers.load.part_names import named_for_part_note
from sam_plugin.compilers.load.regions import made_set, region_checks, region_name
from sam_plugin.compilers.load.zero_force import zero_force
from sam_plugin.compilers.protocol import CompileContext, Diagnostic, Fragment
from sam_plugin.samops.load_audit import AUDIT_FILE
from sam_plugin.samops.load_ops import INITIAL
from sam_plugin.words.phrase import Phrase, phrase, render

HELPERS = ["load_ops"]


def _model_names(model: Any, repository: str) -> list[str]:
    found = getattr(model, repository, None) if model is not None else None
    return [str(k) for k in found.keys()] if found is not None else []


def _prior(ctx: CompileContext, tool: str, array: str) -> list[dict[str, Any]]:
    return [item for f in ctx.prior_fragments if f.tool == tool
            for item in f.normalized.get(array, ())]


def known_steps(ctx: CompileContext) -> list[str]:
    """The model's steps and those an earlier call of this run defines, in order."""
    steps = _model_names(ctx.model, "steps") or [INITIAL]
    return steps + [s["name"] for s in _prior(ctx, "define_step", "steps")]


def _missing_model(ctx: CompileContext) -> list[Diagnostic]:
    if ctx.model is None:
        return [Diagnostic(path="", message=(
            f"model {ctx.target.model_name!r} does not exist; steps, loads and boundary "
            "conditions belong to a model"))]
    return []


def _missing_part(ctx: CompileContext) -> list[Diagnostic]:
    if ctx.part is None:
        return [Diagnostic(path="", message=(
            f"part {ctx.target.part_name!r} does not exist in model "
            f"{ctx.target.model_name!r}; a load or boundary condition acts on a set of it"))]
    return []


def _new_names(names: Iterable[str], taken: Sequence[str], noun: str, path: str,
               model_name: str) -> list[Diagnostic]:
    """A name a load or condition of the model has, or one of the call has twice. The names
    are the model's: a run repeated on another part of it repeats its source's names."""
    found, seen = [], set(taken)
    for index, name in enumerate(names):
        if name in seen:
            found.append(Diagnostic(path=f"{path}[{index}].name", message=(
                f"the {noun} {name!r} already exists; existing {noun}s: "
                f"{', '.join(taken) or 'none'}; choose a new name (a {noun}'s name is the "
                f"model's: every part of {model_name} shares it)")))
        seen.add(name)
    return found


# -- define_step ----------------------------------------------------------------------------


def existing_steps(ctx: CompileContext) -> dict[str, str]:
    """The model's steps after Initial, each with the step it follows."""
    steps = getattr(ctx.model, "steps", None) if ctx.model is not None else None
    if steps is None:
        return {}
    return {str(name): str(getattr(step, "previous", None) or INITIAL)
            for name, step in steps.items() if str(name) != INITIAL}


def reused_steps(ir: DefineStep, ctx: CompileContext) -> dict[int, str]:
    """The call's steps the model has already, after the step the call names (or with none
    named): index -> the step it follows. The run uses each as it is and defines it not
    again (a run repeated on another part of the model finds its source's steps)."""
    model = existing_steps(ctx)
    earlier = {s["name"] for s in _prior(ctx, "define_step", "steps")}
    found: dict[int, str] = {}
    for index, step in enumerate(ir.steps):
        if (step.name in model and step.name not in earlier
                and step.previous in (None, model[step.name])):
            found[index] = model[step.name]
        earlier.add(step.name)
    return found


def step_checks(ir: DefineStep, ctx: CompileContext) -> list[Diagnostic]:
    found = _missing_model(ctx)
    if found:
        return found
    steps = known_steps(ctx)
    reused = reused_steps(ir, ctx)
    model = existing_steps(ctx)
    seen = set(steps)
    for index, step in enumerate(ir.steps):
        if index not in reused and step.name in seen:
            found.append(_step_taken(index, step.name, step.previous, steps, model))
        seen.add(step.name)
    legal = list(steps)
    for index, step in enumerate(ir.steps):
        if step.previous is not None and step.previous not in legal:
            found.append(Diagnostic(path=f"steps[{index}].previous", message=(
                f"unknown step {step.previous!r}; legal steps: {', '.join(legal)}")))
        if step.name not in legal:
            legal.append(step.name)
    return found


def _step_taken(index: int, name: str, previous: str | None, steps: Sequence[str],
                model: dict[str, str]) -> Diagnostic:
    """A step name taken: by the model's step after another step (named as such), or by a
    step this run defines already."""
    if name in model and previous is not None and previous != model[name]:
        return Diagnostic(path=f"steps[{index}].previous", message=(
            f"the step {name!r} already exists after {model[name]!r}, not after "
            f"{previous!r}; leave previous out or name {model[name]!r} to use it as it is, "
            "or choose a new name"))
    return Diagnostic(path=f"steps[{index}].name", message=(
        f"the step {name!r} already exists; existing steps: {', '.join(steps)}; "
        "choose a new name"))


def previous_steps(ir: DefineStep, ctx: CompileContext) -> list[str]:
    """Each step's previous step: the one it follows already when the model has it, else
    the one the call names, else the last step."""
    steps = known_steps(ctx)
    reused = reused_steps(ir, ctx)
    found = []
    for index, step in enumerate(ir.steps):
        if index in reused:
            found.append(reused[index])
            continue
        found.append(step.previous or steps[-1])
        steps.append(step.name)
    return found


def compile_step(ir: DefineStep, ctx: CompileContext) -> Fragment:
    normalized = ir.model_dump(mode="json", exclude_none=True)
    reused = reused_steps(ir, ctx)
    steps = [{"name": s.name, "previous": p}
             for index, (s, p) in enumerate(zip(ir.steps, previous_steps(ir, ctx), strict=True))
             if index not in reused]
    notes = {render(said): said for said in (
        phrase("load.note.step_reused", name=ir.steps[index].name, previous=previous)
        for index, previous in reused.items())}
    var = variable("define_step", normalized)
    return Fragment(
        tool="define_step",
        mutation=f"{var} = _load_ops.define_steps(_model, {plain_literal(steps)})\n"
        f'print("define_step:", {var})\n',
        postflight=f"_load_ops.verify_present(_model, {plain_literal([s.name for s in ir.steps])}"
        ", [], [])\n",
        normalized=normalized,
        evidence=_unchanged(ctx, ()),
        helpers=HELPERS,
        notes=list(notes),
        note_phrases=notes,
    )


# -- apply_load / apply_boundary --------------------------------------------------------------


def _step_check(step: str, ctx: CompileContext, path: str, load: bool) -> list[Diagnostic]:
    steps = known_steps(ctx)
    legal = [s for s in steps if s != INITIAL] if load else steps
    if load and step == INITIAL:
        return [Diagnostic(path=path, message=(
            "loads cannot be created in the Initial step; legal steps: "
            f"{', '.join(legal) or 'none yet (define a step first: define_step)'}"))]
    if step not in steps:
        return [Diagnostic(path=path, message=(
            f"unknown step {step!r}; legal steps: "
            f"{', '.join(legal) or 'none yet (define a step first: define_step)'}"))]
    return []


def load_checks(ir: ApplyLoad, ctx: CompileContext) -> list[Diagnostic]:
    found = _missing_model(ctx) or _missing_part(ctx)
    if found:
        return found
    found = _new_names((x.name for x in ir.loads),
                       _model_names(ctx.model, "loads")
                       + [x["name"] for x in _prior(ctx, "apply_load", "loads")],
                       "load", "loads", ctx.target.model_name)
    for index, load in enumerate(ir.loads):
        path = f"loads[{index}]"
        if isinstance(load, ForceLoad):  # a load of another action: said before its step
            found += zero_force(load, ctx.request_text, path)
        found += _step_check(load.step, ctx, f"{path}.step", load=True)
        found += region_checks(ctx.part, load.kind, load.name, load.selection, path)
    return found


def boundary_checks(ir: ApplyBoundary, ctx: CompileContext) -> list[Diagnostic]:
    found = _missing_model(ctx) or _missing_part(ctx)
    if found:
        return found
    found = _new_names((x.name for x in ir.conditions),
                       _model_names(ctx.model, "boundaryConditions")
                       + [x["name"] for x in _prior(ctx, "apply_boundary", "conditions")],
                       "boundary condition", "conditions", ctx.target.model_name)
    for index, condition in enumerate(ir.conditions):
        path = f"conditions[{index}]"
        found += _step_check(condition.step, ctx, f"{path}.step", load=False)
        found += region_checks(ctx.part, condition.kind, condition.name, condition.selection,
                               path)
    return found


def _script_items(items: Sequence[Any]) -> list[dict[str, Any]]:
    """Each item as the host operations take it: with the set it acts on (``region``)."""
    return [{**item.model_dump(mode="json", exclude_none=True),
             "region": region_name(item.kind, item.name, item.selection)} for item in items]


def made_sets(items: Sequence[Any]) -> list[str]:
    return [name for item in items
            if (name := made_set(item.kind, item.name, item.selection)) is not None]


def compile_load(ir: ApplyLoad, ctx: CompileContext) -> Fragment:
    return _applied("apply_load", "apply_loads", ir, ir.loads, ctx,
                    ([x.name for x in ir.loads], []))


def compile_boundary(ir: ApplyBoundary, ctx: CompileContext) -> Fragment:
    return _applied("apply_boundary", "apply_conditions", ir, ir.conditions, ctx,
                    ([], [x.name for x in ir.conditions]))


def _applied(tool: str, operation: str, ir: Any, items: Sequence[Any], ctx: CompileContext,
             names: tuple[list[str], list[str]]) -> Fragment:
    normalized = ir.model_dump(mode="json", exclude_none=True)
    var = variable(tool, normalized)
    made = made_sets(items)
    array = "loads" if tool == "apply_load" else "conditions"
    notes = {render(said): said for item in items for said in (
        named_for_part_note(array, item.name, ctx.model, ctx.target.part_name),
        made_set_note(item)) if said is not None}
    loads, conditions = names
    return Fragment(
        tool=tool,
        mutation=f"{var} = _load_ops.{operation}(_model, {PART}, "
        f"{plain_literal(_script_items(items))})\n"
        f'print("{tool}:", {var})\n',
        postflight=f"_load_ops.verify_present(_model, [], {plain_literal(loads)}, "
        f"{plain_literal(conditions)})\n",
        normalized=normalized,
        evidence=_unchanged(ctx, made),
        helpers=HELPERS,
        notes=list(notes),
        note_phrases=notes,
    )


def made_set_note(item: Any) -> Phrase | None:
    """The note of a selection that is not a set: the run makes the set it acts on."""
    made = made_set(item.kind, item.name, item.selection)
    return None if made is None else phrase("load.note.made_set", name=item.name, set=made)


def _unchanged(ctx: CompileContext, made: Iterable[str]) -> Any:
    """The state after a Load call: geometry and properties as they were, the sets it makes
    added."""
    state = ctx.state
    return state.model_copy(update={"geometry_unchanged": True,
                                    "sets_present": sorted({*state.sets_present, *made})})


# -- audit_loads ----------------------------------------------------------------------------


def audit_checks(ir: AuditLoads, ctx: CompileContext) -> list[Diagnostic]:
    return _missing_model(ctx)


def compile_audit(ir: AuditLoads, ctx: CompileContext) -> Fragment:
    return Fragment(
        tool="audit_loads",
        postflight="_load_audit.write_audit(_model, SAM_AGENT_OUTPUT_DIR)\n",
        normalized={},
        evidence=ctx.state.model_copy(update={"files": sorted({*ctx.state.files,
                                                               AUDIT_FILE})}),
        helpers=["load_audit"],
        read_only=True,
    )
