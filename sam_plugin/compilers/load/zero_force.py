"""A force of zero (docs/architecture.md §4 "One repair before Review"): it loads nothing.
The small models wrote one where the request asks for a support ("Clamp the bottom edge",
"把左边的节点约束住": a force of (0, 0, 0)), and it compiled, ran and verified nothing the
analyst asked. Said before Review on the force; where the request's words ask for a support
or a prescribed displacement (the phrases that refuse one in another mode,
``out_of_mode_words.ASKS["boundary_condition"]``), the step asked again is held to the
boundary conditions."""

from __future__ import annotations

import re

from sam_plugin.compilers.load.ir import ForceLoad
from sam_plugin.compilers.protocol import Diagnostic
from sam_plugin.compilers.spec.out_of_mode_words import ASKS
from sam_plugin.compilers.spec.request_words import fold
from sam_plugin.compilers.spec.values import number_words

_SUPPORT = tuple(re.compile(asks.pattern, re.IGNORECASE) for asks in ASKS["boundary_condition"])
BOUNDARY_ACTIONS = ("fix", "displace")
# what a step asked again as a boundary condition is held to (one_step_schema's needs)
BOUNDARY_NEEDS = tuple(f"action={name}" for name in BOUNDARY_ACTIONS)


def support_words(request: str) -> list[str]:
    """The words of ``request`` that ask for a support or a prescribed displacement."""
    folded = fold(request)
    return list(dict.fromkeys(m.group(0).strip() for pattern in _SUPPORT
                              for m in pattern.finditer(folded)))


def zero_force(load: ForceLoad, request: str, path: str) -> list[Diagnostic]:
    """The diagnostic of a force whose every component is 0; [] for any other."""
    if any(component != 0 for component in load.vector):
        return []
    vector = "(" + ", ".join(number_words(c + 0.0) for c in load.vector) + ")"
    said = support_words(request)
    if not said:
        return [Diagnostic(path=path, message=(
            f"the force {vector} is zero: it loads nothing; write the force the request "
            "states on each node, [cf1, cf2, cf3]"))]
    words = " and ".join(f"“{w}”" for w in said[:3])
    return [Diagnostic(path=path, message=(
        f"the force {vector} is zero: it loads nothing, and the request says {words}: a "
        "support is a boundary condition, not a load: write fix (the dofs held at 0; all six "
        "when none is named) or displace (each dof's value)"),
        needs=BOUNDARY_NEEDS)]
