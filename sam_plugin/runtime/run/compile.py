"""Compiling → Plan: every collected call compiled in order through one chain (I7), the
script composed, the plan built from the compilers' shadow run and shown
(docs/architecture.md §1, §5 "Plan"). Nothing here touches SAM.

A compile diagnostic re-opens only the call it names: ``repair`` (the collection step's
repair round, handed in by the controller) brings a new call, and compiling resumes there.
A run from given calls has no ``repair``: the diagnostic returns it with its words.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence

from sam_plugin.compilers.chain import CompileChain
from sam_plugin.compilers.evidence import Prediction
from sam_plugin.compilers.plan_phrases import text_phrase
from sam_plugin.compilers.protocol import CompileContext, Fragment, Target
from sam_plugin.compilers.spec.computed import diagnostics_by_step
from sam_plugin.errors import CompileError, FailRun, ReturnToReview
from sam_plugin.runtime.event_types import PlanShown, ScriptComposed, ToolCallCompiled
from sam_plugin.runtime.run.artifacts import Compiled, ShownPlan
from sam_plugin.runtime.run.collection import CollectedCall
from sam_plugin.runtime.run.context import StepContext
from sam_plugin.runtime.run.phases import Phase
from sam_plugin.runtime.run.plan_builder import build_plan
from sam_plugin.runtime.run.recount import recounted
from sam_plugin.runtime.run.repair import Rejection, SentCall, rejection
from sam_plugin.runtime.run.run_phrases import compile_problems, tool
from sam_plugin.runtime.run.state import RunState
from sam_plugin.runtime.store.source_seal import seal_sources
from sam_plugin.words.phrase import RECORD, phrase, render

log = logging.getLogger(__name__)

SCRIPT_HOLDS_KEY = (
    "the composed script would hold the API key (or part of it), which no script, run file "
    "or saved database may hold; nothing was shown or executed"
)

# (collected calls, the index of the refused one, the rejection) -> its replacement
Repair = Callable[[list[CollectedCall], int, Rejection], Awaitable[CollectedCall]]


def compose_script(fragments: Sequence[Fragment], run_id: str,
                   target: Target) -> tuple[str, str, str]:
    """(script text, its sha256, idempotency key) from the shared composer (the default
    ``Composer`` port)."""
    from sam_plugin.compilers import composer

    composed = composer.compose(list(fragments))
    return composed.text, composed.sha256, composer.idempotency_key(composed.sha256, run_id)


def compiling_label(collected: list[CollectedCall]) -> str:
    return f"Compiling {len(collected)} collected call(s)"


def computing_label(run: RunState) -> str:
    return (f"Compiling {len(run.expected_tools())} call(s) computed from the confirmed steps "
            "(not executed)")


async def compile_calls(ctx: StepContext, run: RunState, collected: list[CollectedCall],
                        repair: Repair | None) -> Compiled:
    """The fragments of every call, and the state they predict (with the audit files)."""
    assert run.before is not None
    target = run.target
    # every call bound to the confirmed spec as it compiles (docs/architecture.md §4, I15)
    chain = CompileChain(run.inputs.module, request=run.inputs.request, target=target,
                         start=Prediction.from_readback(run.before),
                         model=ctx.host.model(target.model_name), part=ctx.host.part(target),
                         spec=run.spec_ir,
                         # the part as observed, kept by its fingerprint: the execution runs
                         # only on that very part (the drift check right before it)
                         extra={"before_fingerprint": run.before.fingerprint})
    while len(chain.fragments) < len(collected):
        run.dir.write_json("tool_calls.json", [c.model_dump(mode="json") for c in collected])
        index = len(chain.fragments)
        call = collected[index]
        try:
            _compile_one(ctx, call, chain)
        except CompileError as error:
            if repair is None:
                refusal = _refusal(run, index, error)
                raise ReturnToReview("compile", refusal, phrase=compile_problems(error)
                                     if refusal == str(error) else None) from None
            refused = rejection("compile", call.tool, str(error), headline=_headline(error),
                                sent=[SentCall(call.tool, call.arguments, call.source)],
                                phrase=compile_problems(error))
            collected[index] = await repair(collected, index, refused)
            ctx.phases.set(Phase.COMPILING, compiling_label(collected))
    run.dir.write_json("tool_calls.json", [c.model_dump(mode="json") for c in collected])
    run.collection.calls = collected
    unbound = chain.unbound()
    if unbound:  # a step whose capability had no call: nothing runs (I15)
        raise ReturnToReview("compile", "; ".join(c.message for c in unbound))
    files: list[str] = []
    for fragment in chain.fragments:
        files += [f for f in fragment.evidence.files if f not in files]
    normalized = [{"tool": f.tool, "arguments": f.normalized} for f in chain.fragments]
    run.dir.write_json("normalized_calls.json", normalized)
    return Compiled(fragments=chain.fragments,
                    prediction=chain.state.model_copy(update={"files": files}),
                    bound=list(chain.bound), claims=list(chain.claim_phrases),
                    normalized=normalized)


def _refusal(run: RunState, index: int, error: CompileError) -> str:
    """A compile error with no repair round: a computed call's said against its steps
    ("step 2 (delete elements 99): delete_elements: label 99 ..."), a given one as it is."""
    if run.collection.calls[index].source != "spec" or run.spec_ir is None:
        return str(error)
    call = run.collection.computed[index]
    said = diagnostics_by_step(call, error.diagnostics, run.spec_ir,
                               run.inputs.module.vocabulary)
    return "; ".join(said) or str(error)


def _compile_one(ctx: StepContext, call: CollectedCall, chain: CompileChain) -> Fragment:
    """The next call of the chain; a compiler crash fails the run (nothing executed)."""
    try:
        fragment = chain.add(call.tool, call.arguments)
    except CompileError:
        raise
    except Exception as error:  # a compiler bug: nothing ran, but say it plainly
        log.exception("compiler crashed on %s", call.tool)
        raise FailRun("compile", f"{call.tool}: internal compiler error ({error!r}); "
                      "nothing executed", phrase=phrase(
                          "run.compiler_crashed", tool=tool(call.tool),
                          error=repr(error))) from None
    ctx.emit(ToolCallCompiled(tool=call.tool, notes=fragment.notes))
    return fragment


def show_plan(ctx: StepContext, run: RunState, compiled: Compiled,
              warnings: Sequence[str] = ()) -> ShownPlan:
    """Compose the script, build the plan (a shadow run that raises is a compile error, I7),
    write ``generated_script.py`` and ``plan.json`` with the script's hash, stop in Plan.
    ``warnings``: the caller's own, added to the plan's (``plan_calls``)."""
    inputs = run.inputs
    fragments, prediction = compiled.fragments, compiled.prediction
    script, sha, key = ctx.composer(fragments, inputs.run_id, inputs.target)
    if ctx.scrubber.contains(script):
        raise ReturnToReview("compile", SCRIPT_HOLDS_KEY)
    run.script_sha256 = sha
    run.dir.write_exact("generated_script.py", script)  # the executed bytes (I11)
    ctx.emit(ScriptComposed(script_sha256=sha, bytes=len(script)))
    assert run.before is not None
    context = CompileContext(
        request_text=inputs.request,
        target=inputs.target,
        state=Prediction.from_readback(run.before),
        model=ctx.host.model(inputs.target.model_name),
        part=ctx.host.part(inputs.target),
        extra={"units": ctx.units} if ctx.units is not None else {},
    )
    recounted(run, prediction, compiled.bound, ctx.language, ctx.units)
    try:
        plan, detail = build_plan(run_id=inputs.run_id, module=inputs.module,
                                  fragments=fragments, ctx=context, prediction=prediction,
                                  before=run.before, spec=run.spec_ir, script_sha256=sha,
                                  bound=compiled.bound,
                                  sources=[c.source for c in run.collection.calls],
                                  units=ctx.units)
    except CompileError as error:
        raise ReturnToReview("compile", str(error), phrase=compile_problems(error)) from None
    said = [*map(text_phrase, run.unsourced), *compiled.claims, *map(text_phrase, warnings)]
    if said:
        plan = plan.model_copy(update={
            "warnings": [*plan.warnings, *(render(p, RECORD, plan.unit_table()) for p in said)],
            "warning_phrases": [*plan.warning_phrases, *said]})
    run.dir.write_json("plan.json", plan.model_dump(mode="json"))
    seal_sources(run.dir)  # what a rerun may start from (docs/architecture.md §7)
    shown = ShownPlan(plan=plan, script=script, key=key, prediction=prediction,
                      predicted=detail, normalized=compiled.normalized)
    run.shown = shown
    ctx.phases.set(Phase.PLAN, f"Plan: {plan.summary()}, waiting for you to execute")
    ctx.emit(PlanShown(script_sha256=plan.script_sha256, destructive=len(plan.destructive),
                       warnings=len(plan.warnings), calls=len(plan.calls)))
    return shown


def _headline(error: CompileError) -> str:
    """The first problem of a compile error, with its field (the status line)."""
    if error.diagnostics:
        return str(error.diagnostics[0])
    return str(error).splitlines()[0]
