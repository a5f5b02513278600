"""Calls computed from the confirmed steps (docs/architecture.md §4 "Calls from the steps").

Each domain owns the inverse of its map from calls to operations: from the steps, the tool
calls that carry them out, one per routed tool in the canonical order. A computed call takes
the path every call takes (schema, binding, compile, plan), so binding stays the independent
check of the inverse. What a step does not state enough for is said in the step's words and
sent back to Review: no model wrote the call, so there is nothing to repair.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sam_plugin.compilers.spec.ir import Spec, Step
from sam_plugin.compilers.spec.render import step_phrase
from sam_plugin.compilers.spec.vocabulary import Vocabulary
from sam_plugin.errors import Diagnosed, StepsNotComputable


@dataclass(frozen=True)
class ComputedCall:
    """One tool call computed from ``steps`` (0-based); ``paths`` maps where in the
    arguments each step's part sits (``operations[1]``, ``add_patches``) to its step."""

    tool: str
    arguments: dict[str, Any]
    steps: tuple[int, ...]
    paths: Mapping[str, int] = field(default_factory=dict)

    def step_of(self, path: str) -> int | None:
        """The step a diagnostic's ``path`` falls in (the longest path it starts with)."""
        found = [(len(p), s) for p, s in self.paths.items()
                 if path == p or path.startswith((p + ".", p + "["))]
        if found:
            return max(found)[1]
        return self.steps[0] if len(self.steps) == 1 else None


def scope_json(step: Step) -> dict[str, Any]:
    """A step's scope as a call's selection (JSON data)."""
    assert step.scope is not None  # the reader requires a scope where the action needs one
    data: dict[str, Any] = step.scope.model_dump(mode="json")
    return data


def steps_of(spec: Spec, capability: str) -> list[tuple[int, Step]]:
    """The steps of one capability, with their 0-based index, in the spec's order."""
    return [(i, step) for i, step in enumerate(spec.steps) if step.capability == capability]


def step_said(spec: Spec, index: int, vocabulary: Vocabulary) -> str:
    """``step 2 (translate set S1 by (5, 0, 0))``."""
    return f"step {index + 1} ({step_phrase(spec.steps[index], vocabulary)})"


def refuse(spec: Spec, index: int, vocabulary: Vocabulary, reason: str, *,
           joins: int | None = None, needs: tuple[str, ...] = ()) -> StepsNotComputable:
    """A step the calls cannot be computed from, in its words and the remedy; ``joins``:
    the earlier step (0-based) the remedy makes it one step with; ``needs``: what the
    remedy has the step state (``scope``)."""
    return StepsNotComputable(index, f"{step_said(spec, index, vocabulary)} {reason}",
                              joins=joins, needs=needs)


def diagnostics_by_step(call: ComputedCall, diagnostics: Sequence[Diagnosed], spec: Spec,
                        vocabulary: Vocabulary) -> list[str]:
    """A computed call's compile diagnostics said against the steps they come from:
    ``step 2 (delete elements 99): delete_elements.labels: label 99 ...``."""
    said = []
    for diagnostic in diagnostics:
        if diagnostic.message.startswith("step "):  # the binding's words name the step
            said.append(diagnostic.message)
            continue
        step = call.step_of(diagnostic.path)
        head = step_said(spec, step, vocabulary) if step is not None else (
            f"the call computed from steps {', '.join(str(s + 1) for s in call.steps)}")
        said.append(f"{head}: {diagnostic}")
    return said
