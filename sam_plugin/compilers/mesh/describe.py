"""The Mesh plan: which elements are refined, how many levels, what the parents become."""

from __future__ import annotations

from collections.abc import Sequence

from sam_plugin.compilers.plan import PlanCall, PlanDetail, PlanOperation
from sam_plugin.compilers.plan_words import picked_elements, selector_words
from sam_plugin.compilers.protocol import CompileContext, Fragment


def describe(fragments: Sequence[Fragment], ctx: CompileContext) -> PlanDetail:
    calls = []
    for index, fragment in enumerate(fragments, start=1):
        args = fragment.normalized
        ops = []
        if fragment.tool == "refine_mesh":
            literal = args["selection"]
            levels = int(args.get("levels", 1))
            ops.append(PlanOperation(text=(
                f"refine elements {selector_words(literal)} by {levels} level(s): each parent "
                f"is replaced by its children (QUAD/TRI x{4 ** levels}, BEAM x{2 ** levels}); "
                "sections, orientations and sets are inherited"),
                touched=picked_elements(ctx.part, literal)))
        else:
            ops.append(PlanOperation(text="audit (read-only); writes mesh_audit.json"))
        calls.append(PlanCall(index=index, tool=fragment.tool, operations=ops,
                              notes=list(fragment.notes)))
    return PlanDetail(calls=calls, basis="counts predicted by the compilers")
