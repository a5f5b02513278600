"""A small action vocabulary for the test fakes' domain modules (build unit QUADs, translate
by dx, repair, audit), and its specs as a model would answer them (docs/architecture.md §4)."""

from __future__ import annotations

import json
from typing import Any

from sam_plugin.compilers.protocol import Fragment
from sam_plugin.compilers.spec import values as spec_values
from sam_plugin.compilers.spec.vocabulary import ActionDef, CallOperation, Vocabulary

FAKE_VOCABULARY = Vocabulary(
    mode="part", title="Part", capabilities=("build", "transform", "repair", "audit"),
    capability_words={"build": ("build", "建模"), "transform": ("transform", "变换"),
                      "repair": ("repair", "修复"), "audit": ("audit", "审计")},
    actions=(
        ActionDef("build", "build", {"quads": spec_values.integer("unit QUADs", minimum=1)},
                  en="build[ {quads}] unit QUADs", zh="建立[ {quads} 个]单位 QUAD"),
        ActionDef("translate", "transform", {"dx": spec_values.number("shift along x")},
                  en="translate every node[ by dx = {dx}]", zh="平移全部节点[ dx = {dx}]"),
        ActionDef("repair", "repair", {}, en="repair the part", zh="修复部件"),
        ActionDef("audit", "audit", {}, en="audit the part", zh="审计部件", mutating=False),
    ),
)
_FAKE_ACTION = {"build_part": "build", "transform_part": "translate", "repair_part": "repair",
                "audit_part": "audit"}


def fake_step(action: str, text: str = "", **values: Any) -> dict[str, Any]:
    """One step of the fake Part module's vocabulary."""
    definition = FAKE_VOCABULARY.action(action)
    assert definition is not None, action
    return {"capability": definition.capability, "action": action, "values": values,
            "text": text or f"{action} as asked"}


def fake_spec(*steps: str | dict[str, Any], summary: str = "The change the analyst asked for.",
              expected: dict[str, Any] | None = None) -> str:
    """A design answer of the fake module: steps by action name (or ``fake_step`` dicts)."""
    document: dict[str, Any] = {
        "summary": summary,
        "steps": [fake_step(s) if isinstance(s, str) else s for s in steps]}
    if expected is not None:
        document["expected"] = expected
    return json.dumps(document, separators=(",", ":"), ensure_ascii=False)


def fake_operations(fragment: Fragment) -> list[CallOperation]:
    """The fake tools' calls as operations: build_part {quads}, transform_part {dx}, ..."""
    action = _FAKE_ACTION.get(fragment.tool)
    if action is None:
        return []
    args = fragment.normalized
    values: dict[str, Any] = {}
    if action == "build":
        values["quads"] = int(args.get("quads", 1))
    elif action == "translate":
        values["dx"] = float(args.get("dx", 1.0))
    return [CallOperation(fragment.tool, "", action, values)]


def fake_calls_from_steps(spec: Any, tools: Any) -> list[Any]:
    """The inverse of ``fake_operations``: one call per routed tool from its steps."""
    from sam_plugin.compilers.spec.computed import ComputedCall

    by_tool = {tool: action for tool, action in _FAKE_ACTION.items()}
    found = []
    for tool in tools:
        steps = [(i, s) for i, s in enumerate(spec.steps) if s.action == by_tool[tool]]
        arguments: dict[str, Any] = {}
        for _, step in steps:
            arguments.update(step.values)
        found.append(ComputedCall(tool, arguments, tuple(i for i, _ in steps)))
    return found
