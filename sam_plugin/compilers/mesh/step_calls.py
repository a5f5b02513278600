"""The Mesh calls computed from the confirmed steps: the inverse of ``actions.operations``
(docs/architecture.md §4 "Calls from the steps"). One ``refine_mesh`` refines one selection,
so a spec refines with one step."""

from __future__ import annotations

from collections.abc import Sequence

from sam_plugin.compilers.mesh.actions import VOCABULARY
from sam_plugin.compilers.mesh.routing_rules import TOOL_NAMES
from sam_plugin.compilers.spec.computed import ComputedCall, refuse, scope_json, steps_of
from sam_plugin.compilers.spec.ir import Spec


def calls_from_steps(spec: Spec, tools: Sequence[str]) -> list[ComputedCall]:
    """The calls of ``tools`` (the route's, in order) that carry out ``spec``'s steps."""
    by_tool = {tool: capability for capability, tool in TOOL_NAMES.items()}
    return [_COMPUTE[by_tool[tool]](spec) for tool in tools]


def _refine(spec: Spec) -> ComputedCall:
    found = steps_of(spec, "refine")
    if len(found) > 1:
        (first, before), (_, again) = found[0], found[1]
        if scope_json(again) == scope_json(before):  # "refine it twice": one step, more levels
            levels = before.values["levels"] + again.values["levels"]
            raise refuse(spec, found[1][0], VOCABULARY, (
                f"refines the same elements again after step {first + 1}; refining them "
                f"twice is one step with the levels added: make them one step of "
                f"levels {levels}"), joins=first)
        raise refuse(spec, found[1][0], VOCABULARY, (
            f"refines again after step {first + 1}; one refine_mesh call refines one "
            "selection: make them one step (a scope that holds both), or two runs"),
            joins=first)
    index, step = found[0]
    return ComputedCall("refine_mesh", {"selection": scope_json(step),
                                        "levels": step.values["levels"]}, (index,))


def _audit(spec: Spec) -> ComputedCall:
    return ComputedCall("audit_mesh", {}, tuple(i for i, _ in steps_of(spec, "audit")))


_COMPUTE = {"refine": _refine, "audit": _audit}
