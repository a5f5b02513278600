"""One repair before Review, for the design asked whole (docs/architecture.md §4 "One repair
before Review"): the spec's steps are computed and compiled against the observed part before
the analyst sees them; the first step that does not compute or compile is sent back to the
model once, naming the compiler's diagnostic, and the whole spec is asked again. The run's
design repairs are bounded (:data:`design_parts.DESIGN_STEP_REPAIRS`, the schema's repair
round counted), and Review says which step was asked again and why.

A repaired answer that no longer reads as a spec, or a repair request the provider fails,
leaves the spec that stood: its diagnostic comes back at the compile after Confirm, as it
would have without a repair.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from sam_plugin.errors import DesignRefused, FailRun, SpecRejected
from sam_plugin.runtime.event_types import DesignDelta
from sam_plugin.runtime.provider.types import ChatResponse
from sam_plugin.runtime.run.context import StepContext
from sam_plugin.runtime.run.design_answer import DesignReading
from sam_plugin.runtime.run.design_parts import spend_repair
from sam_plugin.runtime.run.state import RunState
from sam_plugin.runtime.run.step_check import failing_step

Ask = Callable[[list[dict[str, Any]], str], Awaitable[ChatResponse]]
Read = Callable[[ChatResponse], DesignReading]

_MESSAGE = {
    "en": ("SAM Agent cannot use this spec as it is:\n- {reason}\n\nAnswer again with the "
           "whole spec as ONE JSON object: change what this problem names, keep the other "
           "steps as they were, and nothing else."),
    "zh": ("SAM Agent 无法按原样使用这个规格：\n- {reason}\n\n请重新回答：只给出完整规格的一个 "
           "JSON 对象，只改这个问题指出的地方，其他步骤保持不变，不要写其他内容。"),
}


def repair_message(reason: str, language: str = "en") -> str:
    """The user turn that sends a step's diagnostic back to the model."""
    return _MESSAGE["zh" if language.lower().startswith("zh") else "en"].format(reason=reason)


async def compiled_or_repaired(ctx: StepContext, run: RunState, reading: DesignReading, *,
                               messages: list[dict[str, Any]], response: ChatResponse,
                               version: int, spent: int, ask: Ask, read: Read
                               ) -> DesignReading:
    """``reading``, or the reading of the spec asked again after a step of it failed to
    compute or compile (each repair naming the diagnostic; a step is asked again once);
    ``spent``: the design repairs this run already made (the schema's repair round)."""
    asked_again: set[int] = set()
    while True:
        failing = failing_step(ctx, run, reading.spec.as_json())
        if failing is None or failing[0] in asked_again:
            return reading
        index, reason = failing
        asked_again.add(index)
        steps = reading.spec.steps
        action = steps[index].action if 0 <= index < len(steps) else ""
        if not spend_repair(ctx, run.conversation.repairs, index + 1, action, reason,
                            spent=spent):
            return reading
        ctx.emit(DesignDelta(text="", reset=True))  # the repair's answer streams anew
        messages = [*messages, {"role": "assistant", "content": response.content},
                    {"role": "user", "content": repair_message(reason, ctx.language)}]
        try:
            response = await ask(messages, _repair_sse(version, len(run.conversation.repairs)))
        except FailRun as failure:
            if failure.layer != "provider":
                raise
            return reading  # the provider failed the repair: the spec that stood
        try:
            reading = read(response)
        except (SpecRejected, DesignRefused):
            return reading  # the spec that stood; its diagnostic comes at the compile


def _repair_sse(version: int, repair: int) -> str:
    stem = "provider_design_response" + ("" if version == 1 else f".{version}")
    return f"{stem}.compile{repair}.sse"
