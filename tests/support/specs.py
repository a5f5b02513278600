"""JSON specs for tests (docs/architecture.md §4 "The spec"): a step by its action, the
capability filled in from the mode's vocabulary, and the spec as the model would answer it."""

from __future__ import annotations

import json
from typing import Any

from sam_plugin.compilers import registry
from sam_plugin.compilers.spec.ir import Spec
from sam_plugin.compilers.spec.reading import spec_from_json
from sam_plugin.errors import CompileError

ALL = {"by": "all"}


def labels(*numbers: int) -> dict[str, Any]:
    return {"by": "labels", "labels": list(numbers)}


def named_set(name: str) -> dict[str, Any]:
    return {"by": "set", "name": name}


def box(low: list[float], high: list[float]) -> dict[str, Any]:
    return {"by": "box", "min": low, "max": high}


def step(action: str, scope: dict[str, Any] | None = None, *, mode: str = "part",
         text: str = "", **values: Any) -> dict[str, Any]:
    """One step of ``mode``; ``values`` as keyword arguments."""
    definition = registry.get_module(mode).vocabulary.action(action)
    capability = definition.capability if definition is not None else "?"
    out: dict[str, Any] = {"capability": capability, "action": action}
    if scope is not None:
        out["scope"] = scope
    out["values"] = values
    out["text"] = text or f"{action.replace('_', ' ')} as stated"
    return out


def document(*steps: dict[str, Any], summary: str = "The change the analyst asked for.",
             expected: dict[str, Any] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"summary": summary, "steps": list(steps)}
    if expected is not None:
        out["expected"] = expected
    return out


def answer(*steps: dict[str, Any], **kwargs: Any) -> str:
    """The spec as a design answer's content (one bare JSON object)."""
    return json.dumps(document(*steps, **kwargs))


def spec(*steps: dict[str, Any], mode: str = "part", **kwargs: Any) -> Spec:
    return spec_from_json(document(*steps, **kwargs), registry.get_module(mode).vocabulary)


def contradictions(pipe: Any, the_spec: Spec, calls: list[tuple[str, Any]],
                   request: str = "as the spec says") -> list[str]:
    """Through a domain pipeline (tests/support/pipeline.py): the messages of the first call
    that does not bind, or of the steps no call carried out ([] when everything binds)."""
    chain = pipe.chain(request, the_spec)
    try:
        for tool, arguments in calls:
            chain.add(tool, arguments)
    except CompileError as error:
        return [d.message for d in error.diagnostics]
    return [c.message for c in chain.unbound()]
