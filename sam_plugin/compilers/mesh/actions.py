"""The Mesh mode's spec actions (docs/architecture.md §4 "The spec") and the map from its
normalized tool calls to the operations the binding compares with the steps.

refine: ``refine`` (``levels``) · audit: ``audit``.
"""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter

from sam_plugin.compilers.mesh.routing_rules import CAPABILITIES
from sam_plugin.compilers.protocol import Fragment
from sam_plugin.compilers.selectors import Selector
from sam_plugin.compilers.spec import values as v
from sam_plugin.compilers.spec.vocabulary import ActionDef, CallOperation, Vocabulary
from sam_plugin.samops.mesh_ops import MAX_LEVELS

_SELECTOR: TypeAdapter[Any] = TypeAdapter(Selector)

ACTIONS: tuple[ActionDef, ...] = (
    ActionDef(
        "refine", "refine",
        {"levels": v.integer("how many times each element edge is halved: 1 is twice as "
                             "fine (QUAD and TRI in 4, BEAM in 2), 2 four times as fine "
                             "(QUAD in 16, BEAM in 4), 3 eight times as fine", minimum=1,
                             maximum=MAX_LEVELS)},
        en="refine {scope}[, {levels} level(s)]", zh="细化{scope}[ {levels} 级]",
        required=("levels",), scope="required",
        asks="refine, make finer or subdivide elements (each level halves the element size)"),
    ActionDef(
        "audit", "audit", {}, en="audit the mesh", zh="审计网格", mutating=False,
        keeps_counts=True, description="a read-only report",
        asks="check or report the mesh without changing anything"),
)

VOCABULARY = Vocabulary(
    mode="mesh", title="Mesh", capabilities=CAPABILITIES,
    capability_words={"refine": ("refine", "细化"), "audit": ("audit", "审计")},
    actions=ACTIONS, max_steps=4,
)


def operations(fragment: Fragment) -> list[CallOperation]:
    """The operations of one compiled Mesh call."""
    args = fragment.normalized
    if fragment.tool == "refine_mesh":
        return [CallOperation(fragment.tool, "", "refine", {"levels": int(args["levels"])},
                              _SELECTOR.validate_python(args["selection"]))]
    if fragment.tool == "audit_mesh":
        return [CallOperation(fragment.tool, "", "audit", {})]
    return []
