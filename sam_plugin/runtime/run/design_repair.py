"""One repair before Review, for the design asked whole (docs/architecture.md §4 "One repair
before Review"): the spec's steps are computed and compiled against the observed part before
the analyst sees them; the first step that does not compute or compile is sent back to the
model once, naming the compiler's diagnostic, and that step alone is asked again, held to the
grammar of one step (where the remedy makes it one step with an earlier one, both are asked
again as one). The answer takes the step's place; the other steps stay as they were. The
run's design repairs are bounded (:data:`design_parts.DESIGN_STEP_REPAIRS`, the schema's
repair round counted), and Review says which step was asked again and why.

Asked for the whole spec again, the small models answered the same spec, byte for byte, in
15 of 24 repairs (docs/models.md): one step under its own grammar is a question they can
change. A step answered as it was, a repaired answer that no longer reads as a spec, or a
repair request the provider fails, leaves the spec that stood: its diagnostic comes back at
the compile after Confirm, as it would have without a repair. A whole spec answered to the
step's question is taken as the spec.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from sam_plugin.compilers.spec.reading import json_object_of
from sam_plugin.compilers.spec.values import number_words
from sam_plugin.errors import DesignRefused, FailRun, SpecRejected
from sam_plugin.runtime.event_types import DesignDelta
from sam_plugin.runtime.provider.types import ChatResponse
from sam_plugin.runtime.run.context import StepContext
from sam_plugin.runtime.run.design_answer import QUOTED_ANSWER_CHARS, DesignReading
from sam_plugin.runtime.run.design_parts import spend_repair
from sam_plugin.runtime.run.failing import FailingStep
from sam_plugin.runtime.run.state import RunState
from sam_plugin.runtime.run.step_check import failing_step
from sam_plugin.runtime.text_safety import visible_text

# (the messages, the response's file name, what the remedy has the step state)
Ask = Callable[[list[dict[str, Any]], str, tuple[str, ...]], Awaitable[ChatResponse]]
Read = Callable[[ChatResponse], DesignReading]

_STEP_FORM = '{{"capability", "action", "scope" (only for actions that act on existing ' \
    'entities), "values"}}'
_REMOVE = {
    "en": 'or, where the model\'s own definition is the one meant, answer {"remove": true} to '
          "leave the step out",
    "zh": '或者，如果模型中已有的定义就是所要的，回答 {"remove": true} 以去掉这一步',
}
_MESSAGE = {
    "en": ("SAM Agent cannot use {which} of this spec as it is:\n- {reason}\n\n"
           "Answer with {which} written again as ONE step, ONE JSON object " + _STEP_FORM
           + " and nothing else: change what this problem names. The other steps stay as "
           "they are."),
    "zh": ("SAM Agent 无法按原样使用这个规格的{which_zh}：\n- {reason}\n\n"
           "请把{which_zh}重新写成一个步骤：只给出一个 JSON 对象 " + _STEP_FORM
           + "，不要写其他内容，只改这个问题指出的地方。其他步骤保持不变。"),
}


_STRAY = {
    "en": "its {numbers} in neither the request nor the observation: take the step's "
          "numbers from them",
    "zh": "它的数字 {numbers} 既不在请求中也不在观测中：步骤的数字请从二者中取",
}


def repair_message(failing: FailingStep, language: str = "en",
                   strays: tuple[float, ...] = ()) -> str:
    """The user turn that sends a step's diagnostic back to the model and asks that step
    (with the step it joins, if any) again as one step; ``strays``: the step's numbers its
    writer was not shown, said beside the diagnostic (a model that mixed in another
    request's numbers answers them again unless told)."""
    asked = [failing.index + 1] if failing.joins is None else [failing.joins + 1,
                                                               failing.index + 1]
    which = f"step {asked[0]}" if len(asked) == 1 else f"steps {asked[0]} and {asked[1]}"
    which_zh = f"第 {asked[0]} 步" if len(asked) == 1 else f"第 {asked[0]} 步和第 {asked[1]} 步"
    zh = language.lower().startswith("zh")
    reason = failing.reason
    if strays:
        listed = ", ".join(number_words(n) for n in strays)
        numbers = listed if zh else (f"number {listed} is" if len(strays) == 1
                                     else f"numbers {listed} are")
        reason += "\n- " + _STRAY["zh" if zh else "en"].format(numbers=numbers)
    if "removable" in failing.needs:
        reason += "\n- " + _REMOVE["zh" if zh else "en"]
    return _MESSAGE["zh" if zh else "en"].format(reason=reason, which=which,
                                                 which_zh=which_zh)


async def compiled_or_repaired(ctx: StepContext, run: RunState, reading: DesignReading, *,
                               messages: list[dict[str, Any]], response: ChatResponse,
                               version: int, spent: int, ask: Ask, read: Read
                               ) -> DesignReading:
    """``reading``, or the reading of the spec whose failing step was asked again (each
    repair naming the diagnostic; a step is asked again once); ``spent``: the design
    repairs this run already made (the schema's repair round); ``ask`` holds its answer to
    one step's grammar (held to state what the diagnostic's remedy needs, a scope)."""
    asked_again: set[int] = set()
    answer = response.content
    unread: FailingStep | None = None  # a repair's answer that did not read, asked again
    while True:
        failing = unread or failing_step(ctx, run, reading.spec.as_json())
        document = _object(answer)
        steps = document.get("steps") if isinstance(document, dict) else None
        if reading.kept_steps is not None and isinstance(steps, list):
            # steps left out as unasked: the answer without them, as the repair numbers them
            steps = [steps[i] for i in reading.kept_steps if i < len(steps)]
            document = {**document, "steps": steps}
            answer = json.dumps(document, ensure_ascii=False)
        if failing is None or (failing.index in asked_again and unread is None) \
                or not isinstance(steps, list) or not 0 <= failing.index < len(steps):
            return reading
        unread = None
        asked_again.add(failing.index)
        action = reading.spec.steps[failing.index].action
        if not spend_repair(ctx, run.conversation.repairs, failing.index + 1, action,
                            failing.reason, spent=spent):
            return reading
        ctx.emit(DesignDelta(text="", reset=True))  # the repair's answer streams anew
        asked = [*messages, {"role": "assistant", "content": answer},
                 {"role": "user", "content": repair_message(
                     failing, ctx.language, reading.strays.get(failing.index + 1, ()))}]
        try:
            repaired = await ask(asked, _repair_sse(version, len(run.conversation.repairs)),
                                 failing.needs)
        except FailRun as failure:
            if failure.layer != "provider":
                raise
            return reading  # the provider failed the repair: the spec that stood
        spliced = _spliced(document, failing, repaired.content)
        if spliced is None:
            return reading  # the same step again: the spec that stood
        try:
            reading = read(repaired.model_copy(update={"content": spliced}))
        except DesignRefused:
            return reading  # the spec that stood; its diagnostic comes at the compile
        except SpecRejected as rejected:
            answered = _object(repaired.content)
            if failing.joins is not None or not isinstance(answered, dict) \
                    or "steps" in answered:
                return reading
            # the answer nearly did ("tolerance 0.0"): asked again, within the budget, with
            # what does not read; else the spec that stood, whose diagnostic comes later
            unread = FailingStep(failing.index, _unread(failing.index, repaired.content,
                                                        rejected), needs=failing.needs)
            continue
        answer = spliced


def _unread(index: int, content: str, rejected: SpecRejected) -> str:
    """A step's repair answer that does not read, in words: what it said and each problem."""
    said = " ".join(visible_text(content).split())[:QUOTED_ANSWER_CHARS]
    problems = "; ".join(str(p) for p in rejected.problems)
    return f"step {index + 1} as answered ({said}) does not read: {problems}"


def _spliced(document: dict[str, Any], failing: FailingStep, content: str) -> str | None:
    """The spec with the step answered in the failing step's place (and the step it joins
    gone), or without it where the answer removes it, as text; a whole spec answered
    instead, as it is; None for the same step (or a spec left with none)."""
    answered = _object(content)
    if not isinstance(answered, dict) or "steps" in answered or "refuse" in answered:
        return content  # a whole spec or a refusal: read as any design answer
    steps = list(document["steps"])
    if answered == {"remove": True} and "removable" in failing.needs:
        del steps[failing.index]
        return json.dumps({**document, "steps": steps}, ensure_ascii=False) if steps else None
    if failing.joins is None:
        if _unchanged(answered, steps[failing.index]):
            return None
        steps[failing.index] = answered
    else:
        steps[failing.joins] = answered
        del steps[failing.index]
    return json.dumps({**document, "steps": steps}, ensure_ascii=False)


def _unchanged(answered: dict[str, Any], before: Any) -> bool:
    """The same step (its note aside)."""
    return isinstance(before, dict) and {k: v for k, v in answered.items() if k != "text"} \
        == {k: v for k, v in before.items() if k != "text"}


def _object(content: str) -> Any:
    try:
        return json_object_of(content)
    except SpecRejected:
        return None


def _repair_sse(version: int, repair: int) -> str:
    stem = "provider_design_response" + ("" if version == 1 else f".{version}")
    return f"{stem}.compile{repair}.sse"
