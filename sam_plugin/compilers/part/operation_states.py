"""The part as it is when one operation of a Part call runs (docs/architecture.md §4
"Binding"): after the run's earlier calls, and, in a ``transform_part``, after the call's
earlier operations, as the shadow run of the script's own code leaves it. The binding
resolves each operation's scope (and its step's) there, so that an earlier operation that
moves an element into a later one's box cannot widen what the later one acts on unseen.

``None`` when it cannot be told (a part above the simulation limit, a shadow that doubts):
the binding then refuses a scope other than the step's own.
"""

from __future__ import annotations

from typing import Any

from sam_plugin.compilers.part import transform
from sam_plugin.compilers.part.ir import TransformPartIR
from sam_plugin.compilers.part.predict import state_is_live
from sam_plugin.compilers.part.simulate import replay
from sam_plugin.compilers.protocol import CompileContext, Fragment
from sam_plugin.errors import CompileError, NotSimulated


def part_at(fragment: Fragment, index: int, ctx: CompileContext) -> Any:
    """The part as operation ``index`` (0-based) of ``fragment`` finds it; ``ctx`` is the
    context the fragment was compiled in (the run's earlier calls)."""
    try:
        if fragment.tool == "transform_part" and index > 0:
            operations = fragment.normalized["operations"][:index]
            ir = TransformPartIR.model_validate({"operations": operations})
            return replay(ctx, transform.compile_transform(ir, ctx))
        if state_is_live(ctx) and not ctx.prior_fragments:
            return ctx.part
        return replay(ctx)
    except (NotSimulated, CompileError):
        return None
