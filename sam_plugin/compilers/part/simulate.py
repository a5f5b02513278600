"""Exact evidence for chained Part calls: run the script's own mutations on a shadow part.

The live part is copied into a ``ShadowPart`` and the mutation blocks of the run's earlier
Part calls, then of this call, are executed on it: the same generated code, calling the same
``sam_plugin.samops`` helpers the script will call inside SAM. The shadow's counts, shape
counts and set names are then the prediction, exact, unless

- the part (now, or as the range evidence predicts it) is larger than ``SIMULATION_LIMIT``
  nodes or elements, to keep compiling fast on big parts;
- a mutation cannot run on the shadow (the script would fail there too, or the helpers need
  a host the compiler does not have);
- the shadow doubts a step (its outcome depends on host details), see ``ShadowDoubt``.

In those cases the caller keeps its range evidence, and the reason goes into the fragment's
notes so the analyst sees why a check is a range.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any

from sam_plugin.compilers.evidence import SHAPES, Prediction, Range
from sam_plugin.compilers.protocol import CompileContext, Diagnostic, Fragment
from sam_plugin.errors import CompileError, Doubted, NotSimulated, ShadowDoubt, ShadowFailed
from sam_plugin.samops.gc_pause import collector_paused
from sam_plugin.samops.part_shadow import ShadowModel, ShadowPart

SIMULATION_LIMIT = 50_000
# Tools whose mutation changes the part; audit_part only writes its report file.
REPLAYED_TOOLS = frozenset({"build_part", "edit_part", "transform_part", "repair_part"})


def _too_big(ctx: CompileContext, fragments: Sequence[Fragment]) -> str:
    part = ctx.part
    sizes = [len(part.nodes), len(part.elements)] if part is not None else []
    for fragment in fragments:
        sizes += [fragment.evidence.node_count.max, fragment.evidence.element_count.max]
    largest = max(sizes, default=0)
    if largest > SIMULATION_LIMIT:
        return (f"evidence kept as ranges: the part may hold {largest} nodes or elements, "
                f"above the {SIMULATION_LIMIT} simulated at compile time")
    return ""


def _namespace(fragment: Fragment, model: ShadowModel, part_name: str) -> dict[str, Any]:
    names: dict[str, Any] = {"__builtins__": {}, "_model": model, "_part_name": part_name}
    if fragment.constants:
        constants = importlib.import_module("samConstants")
        for name in fragment.constants:
            names[name] = getattr(constants, name)
    for helper in fragment.helpers:
        names[f"_{helper}"] = importlib.import_module(f"sam_plugin.samops.{helper}")
    return names


def run_mutation(fragment: Fragment, index: int, model: ShadowModel, name: str) -> None:
    """Run one call's mutation block on the shadow ``model`` (the script's own code)."""
    if fragment.tool not in REPLAYED_TOOLS or not fragment.mutation.strip():
        return
    try:
        code = compile(fragment.mutation, f"<{fragment.tool} mutation>", "exec")
        exec(code, _namespace(fragment, model, name))  # noqa: S102 - our own generated code
    except ShadowDoubt as doubt:
        raise Doubted(f"evidence kept as ranges: call {index} ({fragment.tool}): {doubt}",
                      index) from None
    except Exception as error:  # the script would meet the same on this state
        raise ShadowFailed(
            f"simulating call {index} ({fragment.tool}) on a copy of the part failed: "
            f"{type(error).__name__}: {error}", index, fragment.tool) from None


_run = run_mutation


def _agrees(shadow: ShadowPart | None, state: Prediction) -> bool:
    """Whether the replayed earlier calls land inside the state the run predicts for now."""
    if shadow is None:
        return state.node_count.min == 0 and state.element_count.min == 0
    shapes = shadow.shape_counts()
    return (state.node_count.contains(len(shadow.nodes))
            and state.element_count.contains(len(shadow.elements))
            and all(state.shape_counts[s].contains(shapes.get(s, 0)) for s in SHAPES))


def replay(ctx: CompileContext, this: Fragment | None = None) -> ShadowPart:
    """The target after the run's earlier calls (and ``this``), as a shadow.

    Raises NotSimulated when it cannot tell, including when the earlier fragments it was
    given do not account for the state it was given (a caller that passed no history).
    """
    with collector_paused():  # entity copies in bulk (samops.gc_pause)
        return _replay(ctx, this)


def _replay(ctx: CompileContext, this: Fragment | None) -> ShadowPart:
    fragments = [*ctx.prior_fragments, *([this] if this is not None else [])]
    reason = _too_big(ctx, fragments)
    if reason:
        raise NotSimulated(reason)
    name = ctx.target.part_name
    model = ShadowModel()
    if ctx.part is not None:
        model.parts[name] = ShadowPart.copy_of(ctx.part)
    for index, fragment in enumerate(ctx.prior_fragments, start=1):
        _run(fragment, index, model, name)
    if not _agrees(model.parts.get(name), ctx.state):
        raise NotSimulated("evidence kept as ranges: the earlier calls of this run do not "
                           "account for the state before this call")
    if this is not None:
        _run(this, len(ctx.prior_fragments) + 1, model, name)
    shadow = model.parts.get(name)
    if shadow is None:
        raise NotSimulated("evidence kept as ranges: the part does not exist after the calls")
    return shadow


def exact(evidence: Prediction, shadow: ShadowPart) -> Prediction:
    """``evidence`` with the shadow's counts and set names in place of its ranges."""
    shapes = shadow.shape_counts()
    return evidence.model_copy(update={
        "node_count": Range.exact(len(shadow.nodes)),
        "element_count": Range.exact(len(shadow.elements)),
        "shape_counts": {s: Range.exact(shapes.get(s, 0)) for s in SHAPES},
        "sets_present": sorted(shadow.sets),
    })


def _is_exact(evidence: Prediction) -> bool:
    counts = [evidence.node_count, evidence.element_count, *evidence.shape_counts.values()]
    return all(r.is_exact for r in counts)


def _kept(fragment: Fragment, why: str, evidence: Prediction | None = None) -> Fragment:
    evidence = fragment.evidence if evidence is None else evidence
    notes = fragment.notes if _is_exact(evidence) else [*fragment.notes, why]
    return fragment.model_copy(update={"evidence": evidence, "notes": notes})


def tightened(fragment: Fragment, ctx: CompileContext,
              on_doubt: Callable[[ShadowPart], Prediction] | None = None,
              fallback: Callable[[], Prediction] | None = None) -> Fragment:
    """``fragment`` with exact evidence when the simulation allows, else ranges + a note.

    ``on_doubt`` turns the shadow as it was before this call into range evidence, for a call
    whose own step the shadow doubts (tighter than ranges chained from the earlier calls);
    ``fallback`` gives range evidence when there is no simulation at all (e.g. a big part).
    Without them the fragment's own evidence stays.
    """
    try:
        shadow = replay(ctx, fragment)
    except Doubted as why:
        if on_doubt is None or why.index <= len(ctx.prior_fragments):
            return _kept(fragment, str(why))
        try:
            before = replay(ctx)
        except NotSimulated:
            return _kept(fragment, str(why))
        return _kept(fragment, str(why), on_doubt(before))
    except ShadowFailed as failed:
        # I7: nothing may fail inside SAM that the compile could see
        raise CompileError(failed.tool, [Diagnostic(path="", message=(
            f"{failed}; the script would fail the same way in SAM, so nothing runs"))]) from None
    except NotSimulated as why:
        return _kept(fragment, str(why), fallback() if fallback is not None else None)
    return fragment.model_copy(update={"evidence": exact(fragment.evidence, shadow)})
