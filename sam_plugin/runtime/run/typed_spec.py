"""A spec an analyst typed (the dock's JSON edit), held to the strict reader a ``--spec`` file
and an MCP agent's arguments meet before the spec reader sees it (docs/architecture.md §4 "The
spec"): nesting at most 64 levels, no lone surrogate, no key twice, finite numbers; and a
refusal object, how a model declines, is no spec. Each refusal is one ``SpecRejected`` problem.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sam_plugin.compilers import strict_json
from sam_plugin.compilers.spec.ir import Spec
from sam_plugin.errors import SpecRejected, StrictJSONError

REFUSAL = ('the edit holds {"refuse": ...}, how a model declines a request, not a spec; write '
           'the spec as {"summary": ..., "steps": [...]}')


def check_typed_spec(spec: str | Spec | Mapping[str, Any]) -> None:
    """Raise :class:`SpecRejected` (one problem) when ``spec`` fails the strict reader; text
    that is not JSON at all is left to the spec reader, which names what does not parse."""
    if isinstance(spec, Spec):
        return  # made by this process, not typed
    try:
        if isinstance(spec, str):
            document: Any = strict_json.loads_typed(spec)
        else:
            document = spec
            strict_json.check_typed(document)
    except StrictJSONError as error:
        if error.syntax:
            return
        raise SpecRejected([error.message]) from None
    if isinstance(document, Mapping) and "refuse" in document:
        raise SpecRejected([REFUSAL])
