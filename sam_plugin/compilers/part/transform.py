"""transform_part: translate, rotate, mirror, scale, translate_copy, linear_array."""

from __future__ import annotations

from dataclasses import dataclass

from sam_plugin.compilers import codegen
from sam_plugin.compilers.evidence import SHAPES, Prediction, Range, ShapeName
from sam_plugin.compilers.part import scale_checks
from sam_plugin.compilers.part.ir import (
    LinearArrayOp,
    MirrorOp,
    RotateOp,
    TransformOp,
    TransformPartIR,
    TranslateCopyOp,
    TranslateOp,
)
from sam_plugin.compilers.part.predict import changed, part_expected, state_is_live
from sam_plugin.compilers.part.simulate import replay, tightened
from sam_plugin.compilers.part.transform_reach import check_reach
from sam_plugin.compilers.protocol import CompileContext, Diagnostic, Fragment
from sam_plugin.compilers.selectors import (
    AllSelector,
    BoxSelector,
    LabelsSelector,
    SetSelector,
    ShapeSelector,
    check_selector,
    selector_literal,
)
from sam_plugin.compilers.spec.values import POINTS_MAX, json_number_words
from sam_plugin.errors import NotSimulated
from sam_plugin.samops.selection import label_range, select_nodes, select_transform_nodes

TOOL = "transform_part"


def domain_checks(ir: TransformPartIR, ctx: CompileContext) -> list[Diagnostic]:
    if not part_expected(ctx):
        return [Diagnostic(path="", message=(
            f"part {ctx.target.part_name!r} does not exist; there is nothing to transform"))]
    found: list[Diagnostic] = []
    live = state_is_live(ctx)
    met = scale_checks.part_met(ctx)
    observed = scale_checks.observed_contents(ctx) if met is ctx.part else None
    scale = scale_checks.scale_of(met, observed)
    for i, op in enumerate(ir.operations):
        here = f"operations[{i}]"
        problems = check_selector(op.selection, ctx.part, f"{here}.selection", "elements",
                                  ctx.state)
        if not live:
            problems.extend(_check_after_earlier_calls(op.selection, ctx, f"{here}.selection"))
        elif not problems and (isinstance(op.selection, ShapeSelector)
                               or i == 0 and isinstance(op.selection, BoxSelector)):
            problems.extend(_picks_nothing(op, ctx, f"{here}.selection"))
        found.extend(problems)
        found.extend(_degenerate(op, scale, here))
    if not found:  # a degenerate axis or normal has no rotation to carry the box through
        found.extend(check_reach(ir.operations, scale.bounds))  # the box read once
    return found


def _picks_nothing(op: TransformOp, ctx: CompileContext, path: str) -> list[Diagnostic]:
    """A scope that picks nothing on the part as observed: nothing would move. A shape the
    part has none of stays absent after the call's earlier operations (their copies are of
    the shapes it has); a box is judged for the first operation only. (All, labels and
    sets are not read here: the selector's own check has judged them, and reading a whole
    part's selection costs a large part's compile.)"""
    selection = op.selection
    if isinstance(selection, ShapeSelector):
        if any(str(element.type) == selection.shape for element in ctx.part.elements):
            return []
    else:
        elements, nodes = select_transform_nodes(ctx.part, selector_literal(selection))
        if elements or nodes:
            return []
        if isinstance(op, TranslateOp):
            held = _nodes_held(op, ctx, path)
            if held:
                return held
    shapes = sorted({str(element.type) for element in ctx.part.elements})
    return [Diagnostic(path=path, message=(
        f"the selection picks no elements nor nodes, so nothing would move; the part has "
        f"{len(ctx.part.elements)} elements ({', '.join(shapes) or 'none'})"),
        needs=("picking_scope",))]


def _nodes_held(op: TranslateOp, ctx: CompileContext, path: str) -> list[Diagnostic]:
    """A translate whose box holds nodes of elements but no whole element ("lift the centre
    node", "raise the top edge's nodes"): a transform moves whole elements, so the nodes
    the box holds are moved by move_nodes, and the diagnostic says to where."""
    nodes = select_nodes(ctx.part, selector_literal(op.selection))[:POINTS_MAX]
    if not nodes:
        return []
    labels = [node.label for node in nodes]
    moved = [[c + d for c, d in zip(node.coordinates, op.vector, strict=True)]
             for node in nodes]
    to = ", ".join(_point_literal(p) for p in moved)
    return [Diagnostic(path=path, message=(
        f"the selection picks no whole element, so nothing would move: a translate moves "
        f"whole elements, and the box holds only node(s) {', '.join(map(str, labels))} of "
        f"the part's elements; to move those nodes alone, write move_nodes with labels "
        f"{labels} and to [{to}]"), needs=("action=move_nodes",))]


def _point_literal(point: list[float]) -> str:
    """A point as the model copies it into its answer (the sum's float noise left out)."""
    return "[" + ", ".join(json_number_words(float(f"{v:.12g}")) for v in point) + "]"


def _degenerate(op: object, scale: scale_checks.Scale, here: str) -> list[Diagnostic]:
    """Zero or degenerate vectors, judged against the part's scale (not ``== 0``)."""
    if isinstance(op, RotateOp):
        return scale_checks.check_direction(op.axis, scale, f"{here}.axis", "axis")
    if isinstance(op, MirrorOp):
        return scale_checks.check_direction(op.normal, scale, f"{here}.normal", "normal")
    if isinstance(op, TranslateCopyOp | LinearArrayOp):
        return scale_checks.check_offset(op.vector, scale, f"{here}.vector")
    if isinstance(op, TranslateOp):
        return scale_checks.check_offset(op.vector, scale, f"{here}.vector", copies=False)
    return []


def _check_after_earlier_calls(selection: object, ctx: CompileContext,
                               path: str) -> list[Diagnostic]:
    """An earlier call of this run changed the part: labels or sets may be gone by now."""
    state = ctx.state
    if isinstance(selection, SetSelector) and selection.name not in state.sets_present:
        names = ", ".join(state.sets_present) or "none"
        return [Diagnostic(path=f"{path}.name", message=(
            f"set {selection.name!r} does not exist after the earlier calls of this run; "
            f"sets then: {names}"))]
    if not isinstance(selection, LabelsSelector):
        return []
    try:
        alive = {e.label for e in replay(ctx).elements}
    except NotSimulated:
        return _labels_may_be_gone(selection, ctx, path)
    gone = [label for label in selection.labels if label not in alive]
    if not gone:
        return []
    return [Diagnostic(path=f"{path}.labels", message=(
        f"element(s) {', '.join(map(str, gone[:10]))} are deleted by an earlier call of this "
        f"run; after it, {label_range(alive, 'element')}"))]


def _deletes(fragment: Fragment) -> bool:
    args = fragment.normalized
    return fragment.tool == "edit_part" and bool(
        args.get("clear_all") or args.get("delete_elements") or args.get("delete_nodes"))


def _labels_may_be_gone(selection: LabelsSelector, ctx: CompileContext,
                        path: str) -> list[Diagnostic]:
    """Without a simulation, labels are refused after any call that may delete elements."""
    live_elements = len(ctx.part.elements) if ctx.part is not None else 0
    if ctx.state.element_count.min < live_elements or any(map(_deletes, ctx.prior_fragments)):
        return [Diagnostic(path=f"{path}.labels", message=(
            "an earlier call of this run may delete elements, so these labels may be gone; "
            "select by shape, box or all, or transform in a separate request"))]
    return []


@dataclass
class _Counts:
    nodes: Range
    elements: Range
    shapes: dict[ShapeName, Range]


def _copies(op: object) -> int:
    if isinstance(op, TranslateCopyOp):
        return 1
    if isinstance(op, MirrorOp):
        return 1 if op.make_copy else 0
    if isinstance(op, LinearArrayOp):
        return op.count - 1
    return 0


def _selected(op: TransformOp, current: _Counts, ctx: CompileContext, pristine: bool) -> _Counts:
    selection = op.selection
    if pristine:
        elements, nodes = select_transform_nodes(ctx.part, selector_literal(selection))
        shapes: dict[str, int] = {shape: 0 for shape in SHAPES}
        for element in elements:
            shapes[str(element.type)] += 1
        return _Counts(Range.exact(len(nodes)), Range.exact(len(elements)),
                       {s: Range.exact(shapes[s]) for s in SHAPES})
    if isinstance(selection, AllSelector):
        return current
    return _Counts(Range(min=0, max=current.nodes.max), Range(min=0, max=current.elements.max),
                   {s: Range(min=0, max=current.shapes[s].max) for s in SHAPES})


def _grow(a: Range, b: Range, k: int) -> Range:
    return Range(min=a.min + k * b.min, max=a.max + k * b.max)


def predict(ir: TransformPartIR, ctx: CompileContext) -> Prediction:
    state = ctx.state
    current = _Counts(state.node_count, state.element_count, dict(state.shape_counts))
    pristine = state_is_live(ctx)
    for op in ir.operations:
        k = _copies(op)
        if k:
            chosen = _selected(op, current, ctx, pristine)
            current = _Counts(
                _grow(current.nodes, chosen.nodes, k),
                _grow(current.elements, chosen.elements, k),
                {s: _grow(current.shapes[s], chosen.shapes[s], k) for s in SHAPES},
            )
        pristine = False
    update = {}
    if any(isinstance(op, MirrorOp) and not op.make_copy for op in ir.operations):
        # Re-created elements keep sets but lose assignments made on bare element arrays.
        update = {"assigned_elements": None, "oriented_beams": None}
    return changed(state, node_count=current.nodes, element_count=current.elements,
                   shape_counts=current.shapes, **update)


def compile_transform(ir: TransformPartIR, ctx: CompileContext) -> Fragment:
    operations = []
    for op in ir.operations:
        data = op.model_dump(mode="python", by_alias=True)
        data["selection"] = selector_literal(op.selection)
        operations.append(data)
    preflight = ""
    if ctx.part is not None:
        preflight = "_part_ops.require_part(_model, _part_name)\n"
    if state_is_live(ctx):
        # Transforms never delete: what the live part has now, every op of the call still has.
        for i, op in enumerate(ir.operations):
            if isinstance(op.selection, LabelsSelector | SetSelector):
                preflight += codegen.call(
                    "_part_ops.require_selection", [codegen.PART], literal_args=[
                        selector_literal(op.selection), f"operations[{i}].selection",
                        "elements"])
    return tightened(Fragment(
        tool=TOOL,
        preflight=preflight,
        mutation=codegen.call("_part_transform.apply", [codegen.PART],
                              literal_args=[tuple(operations)]),
        normalized=ir.model_dump(mode="json", by_alias=True),
        evidence=predict(ir, ctx),
        helpers=["part_transform", "part_ops"] if preflight else ["part_transform"],
    ), ctx)
