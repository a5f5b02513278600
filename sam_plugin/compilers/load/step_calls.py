"""The Load calls computed from the confirmed steps: the inverse of ``actions.operations``
(docs/architecture.md §4 "Calls from the steps"). Each tool's call carries every step of its
capability, in the spec's order."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from sam_plugin.compilers.load.routing_rules import TOOL_NAMES
from sam_plugin.compilers.spec.computed import ComputedCall, scope_json, steps_of
from sam_plugin.compilers.spec.ir import Spec, Step

ARRAYS = {"step": "steps", "load": "loads", "boundary": "conditions"}


def calls_from_steps(spec: Spec, tools: Sequence[str]) -> list[ComputedCall]:
    """The calls of ``tools`` (the route's, in order) that carry out ``spec``'s steps."""
    by_tool = {tool: capability for capability, tool in TOOL_NAMES.items()}
    return [_call(spec, by_tool[tool]) for tool in tools]


def _define_step(step: Step) -> dict[str, Any]:
    return dict(step.values)


def _load(step: Step) -> dict[str, Any]:
    return {"kind": step.action, **step.values, "selection": scope_json(step)}


_ITEM: dict[str, Callable[[Step], dict[str, Any]]] = {
    "step": _define_step, "load": _load, "boundary": _load}


def _call(spec: Spec, capability: str) -> ComputedCall:
    found = steps_of(spec, capability)
    tool = TOOL_NAMES[capability]
    if capability == "audit":
        return ComputedCall(tool, {}, tuple(i for i, _ in found))
    array = ARRAYS[capability]
    items = [_ITEM[capability](step) for _, step in found]
    return ComputedCall(tool, {array: items}, tuple(i for i, _ in found),
                        {f"{array}[{n}]": index for n, (index, _) in enumerate(found)})
