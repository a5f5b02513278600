"""The Part plan: each compiled call in words and numbers, from one shadow run of the script.

The live part becomes a shadow once (copy on write: it holds the host's entities and copies
only what a call writes); for every call, its operations are described against the shadow as
it is just before that call (which entities a selector picks there), then the call's own
mutation runs on it (``simulate.run_mutation``: the code the script runs). What the call
removed and added is what the shadow recorded during it, so a deletion is marked destructive
whatever the arguments say. What the calls touched, as the shadow leaves it, is the predicted
part the verifier compares the live part with (I13, ``prediction.py``); a plan of read-only
calls runs no shadow at all.

A mutation that raises on the shadow is a CompileError naming the call (I7): the script
would meet the same state in SAM. A step the shadow doubts (host-defined merge grouping)
leaves the plan without a predicted part, said in ``basis``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

import numpy as np

from sam_plugin.compilers.part.phrases import CATALOGUE as _WORDS  # noqa: F401 (registers)
from sam_plugin.compilers.part.plan_findings import (
    collapsed_elements,
    elements_using,
    free_labels,
    freed_nodes,
)
from sam_plugin.compilers.part.prediction import predicted_from_shadow
from sam_plugin.compilers.plan import (
    LABELS_SHOWN,
    PlanCall,
    PlanDetail,
    PlanOperation,
    Preview,
    Touched,
    Vec3,
    call_notes,
    touched,
)
from sam_plugin.compilers.plan_phrases import length as _length
from sam_plugin.compilers.plan_phrases import selector_phrase, text_phrase
from sam_plugin.compilers.plan_words import point
from sam_plugin.compilers.predicted_part import before_contents, unchanged
from sam_plugin.compilers.protocol import CompileContext, Diagnostic, Fragment
from sam_plugin.compilers.units import length_unit
from sam_plugin.errors import CompileError
from sam_plugin.samops import selection
from sam_plugin.samops.gc_pause import collector_paused
from sam_plugin.samops.mesh_read import mesh_of
from sam_plugin.samops.part_contents import PartContents, read_definitions
from sam_plugin.samops.part_scope import among, labels_array, unique
from sam_plugin.samops.part_shadow import ShadowModel, ShadowPart
from sam_plugin.words.phrase import RECORD, Phrase, known, phrase, render

PREVIEW_LIMIT = 5_000  # outlines drawn in the viewport preview


def describe(fragments: Sequence[Fragment], ctx: CompileContext) -> PlanDetail:
    # the shadow copies what the calls write, up to every node of a big part: the cyclic
    # collector walking the host's whole mesh meanwhile measured 4x the run (samops.gc_pause)
    with collector_paused():
        return _describe(fragments, ctx)


def _describe(fragments: Sequence[Fragment], ctx: CompileContext) -> PlanDetail:
    from sam_plugin.compilers.part.simulate import run_mutation
    from sam_plugin.errors import Doubted, NotSimulated

    part = ctx.part
    fingerprint = str(ctx.extra.get("before_fingerprint", ""))
    length = length_unit(ctx)
    if all(f.read_only for f in fragments):
        words = [PlanCall(index=i, tool=f.tool, operations=_operations(f, None, length=length),
                          notes=f.notes, note_phrases=call_notes(f.notes, f.note_phrases))
                 for i, f in enumerate(fragments, start=1)]
        before = before_contents(ctx.model, part, fingerprint) if part is not None else None
        return PlanDetail(calls=words, predicted=unchanged(before, fingerprint),
                          basis="read-only: the part stays as it is (fingerprint unchanged)",
                          basis_phrase=phrase("basis.read_only"))
    name = ctx.target.part_name
    model = ShadowModel()
    if part is not None:
        model.parts[name] = ShadowPart.copy_of(part)
    filled = _filled(model.parts.get(name))
    before = (before_contents(ctx.model, part, fingerprint) if part is not None
              else PartContents(mesh=mesh_of((), ()), definitions=read_definitions(ctx.model)))
    calls: list[PlanCall] = []
    basis = "exact: the script's own operations run on a copy of the part"
    basis_phrase = phrase("basis.exact_copy")
    simulated = True
    for index, fragment in enumerate(fragments, start=1):
        shadow = model.parts.get(name) if simulated else None
        operations = _operations(fragment, shadow, before, length=length)
        if simulated and fragment.mutation.strip():
            mark = _Mark(shadow)
            try:
                run_mutation(fragment, index, model, name)
            except Doubted as doubt:
                simulated = False
                basis = f"counts as ranges: {doubt}"
                basis_phrase = phrase("basis.ranges", why=str(doubt))
            except NotSimulated as failure:
                raise CompileError(fragment.tool, [Diagnostic(path="", message=(
                    f"call {index} cannot run on the part as the earlier calls leave it "
                    f"({failure}); the script would fail in SAM, so nothing runs"))]) from None
            else:
                after = model.parts.get(name)
                operations += _changes(mark, after, _named(operations))
                freed = (freed_nodes(after, set(after.removed_elements) - mark.removed_elements)
                         if after is not None else None)
                operations += [freed] if freed is not None else []
        calls.append(PlanCall(index=index, tool=fragment.tool, operations=operations,
                              notes=list(fragment.notes),
                              note_phrases=call_notes(fragment.notes, fragment.note_phrases)))
    if not simulated:
        return PlanDetail(calls=calls, basis=basis, basis_phrase=basis_phrase)
    final = model.parts.get(name)
    if final is None:
        return PlanDetail(calls=calls, basis="counts: the part does not exist after the calls",
                          basis_phrase=phrase("basis.gone"))
    predicted = predicted_from_shadow(final, before)
    using = elements_using(before, final.changed_nodes)  # one pass for both below
    collapsed = collapsed_elements(final, using)
    units = {"length": length} if length else None
    return PlanDetail(calls=calls, predicted=predicted, basis=basis, basis_phrase=basis_phrase,
                      preview=_preview(final, before, using),
                      empty_sets=sorted(filled - _filled(final)),
                      warnings=[render(w, RECORD, units) for w in collapsed],
                      warning_phrases=collapsed,
                      free_nodes=free_labels(final, final.removed_elements))


def _filled(shadow: ShadowPart | None) -> set[str]:
    """The sets of ``shadow`` that hold a node or an element."""
    if shadow is None:
        return set()
    return {name for name, found in shadow.sets.items()
            if len(found.nodes) or len(found.elements)}


# -- what each call says it does ---------------------------------------------------------


def _operations(fragment: Fragment, shadow: ShadowPart | None,
                before: PartContents | None = None, *, length: str = "") -> list[PlanOperation]:
    """``length``: the unit the coordinates, vectors and tolerances are said in (or none)."""
    args = fragment.normalized
    if fragment.tool == "transform_part":
        return _transform(args, shadow, before, length)
    if fragment.tool == "repair_part":
        return _repair(args, shadow, length)
    if fragment.tool == "edit_part":
        return _edit(args, shadow, length)
    if fragment.tool == "build_part":
        return _build(args, shadow, length)
    describer = _DESCRIBERS.get(fragment.tool)
    return describer(args, shadow) if describer is not None else []


def _build(args: Mapping[str, Any], shadow: ShadowPart | None,
           length: str = "") -> list[PlanOperation]:
    ops = []
    for patch in args.get("patches", ()) or args.get("add_patches", ()):
        nu, nv = patch["divisions"]
        ops.append(_op(phrase("part.patch", id=str(patch["id"]), shape=str(patch["shape"]),
                              nu=nu, nv=nv, corners=_length(", ".join(
                                  point(c) for c in patch["corners"]))), length))
    for line in args.get("lines", ()) or args.get("add_lines", ()):
        ops.append(_op(phrase("part.beam_line", id=str(line["id"]), n=line["divisions"],
                              start=point(line["start"]), end=_length(point(line["end"]))),
                       length))
    elements = args.get("elements", ()) or args.get("add_elements", ())
    if elements:
        shapes: dict[str, int] = {}
        for element in elements:
            shapes[element["shape"]] = shapes.get(element["shape"], 0) + 1
        ops.append(_op(phrase("part.add_elements", shapes=", ".join(
            f"{n} {s}" for s, n in sorted(shapes.items())))))
    nodes = args.get("nodes", ())
    if nodes:
        ops.append(_op(phrase("part.node_table", n=len(nodes))))
    for element_set in args.get("element_sets", ()):
        name = str(element_set["name"])
        ops.append(_op(phrase("part.listed_set", name=name,
                              n=len(element_set.get("element_ids") or ()))
                       if element_set.get("element_ids") else
                       phrase("part.selected_set", name=name,
                              which=selector_phrase(element_set.get("selection")))))
    return ops


def _edit(args: Mapping[str, Any], shadow: ShadowPart | None,
          length: str = "") -> list[PlanOperation]:
    ops = []
    if args.get("clear_all"):
        picked = list(shadow.elements) if shadow is not None else []
        ops.append(_op(phrase("part.clear"), destructive=True,
                       touched=_elements(picked, shadow)))
    if args.get("delete_elements"):
        literal = args["delete_elements"]
        picked = _pick(selection.select_elements, shadow, literal)
        ops.append(_op(phrase("part.delete_elements", which=selector_phrase(literal)),
                       destructive=True, touched=_elements(picked, shadow)))
    if args.get("delete_nodes"):
        literal = args["delete_nodes"]
        picked = _pick(selection.select_nodes, shadow, literal)
        ops.append(_op(phrase("part.delete_nodes", which=selector_phrase(literal, "nodes")),
                       destructive=True, touched=[*_nodes(picked), *_users(picked, shadow)]))
    for move in args.get("move_nodes", ()):
        ops.append(_op(phrase("part.move_node", label=move["label"],
                              to=_length(point(move["coordinates"]))), length))
    return ops + _build(args, shadow)


def _transform(args: Mapping[str, Any], shadow: ShadowPart | None,
               before: PartContents | None = None, length: str = "") -> list[PlanOperation]:
    ops = []
    for op in args.get("operations", ()):
        literal = op.get("selection") or {"by": "all"}
        said = _transform_phrase(op, selector_phrase(literal))
        found: list[Touched] = []
        if shadow is not None and literal == {"by": "all"} and before is not None \
                and shadow.untouched:
            found = _everything(before)  # the part as observed: counts and boxes in numpy
        elif shadow is not None:
            elements, nodes = selection.select_transform_nodes(shadow, literal)
            found = [*_elements(elements, shadow)[:1], *_nodes(nodes)]
        ops.append(_op(said, length, touched=found))
    return ops


def _transform_phrase(op: Mapping[str, Any], which: Phrase) -> Phrase:
    """One transform operation in words; ``which``: what its selection picks."""
    kind = op["op"]
    at = _length(point(op["origin"])) if "origin" in op else _length("")
    moved = _length(point(op["vector"])) if "vector" in op else _length("")
    if kind == "translate":
        return phrase("part.translate", vector=moved, which=which)
    if kind == "rotate":
        return phrase("part.rotate", angle=f"{op['angle_deg']:g}", axis=point(op["axis"]),
                      origin=at, which=which)
    if kind == "mirror":
        return phrase("part.mirror_copy" if op.get("copy") else "part.mirror", origin=at,
                      normal=point(op["normal"]), which=which)
    if kind == "scale":
        return phrase("part.scale", factor=f"{op['factor']:g}", origin=at, which=which)
    if kind == "translate_copy":
        return phrase("part.translate_copy", vector=moved, which=which)
    return phrase("part.linear_array", copies=op["count"], step=moved, which=which)


def _everything(before: PartContents) -> list[Touched]:
    """Every element and node of the part, from the observation's read."""
    mesh = before.mesh
    used = among(mesh.node_labels, unique(mesh.connectivity))
    return [touched("elements", mesh.element_labels.tolist(), mesh.coordinates[used]),
            touched("nodes", mesh.node_labels.tolist(), mesh.coordinates)]


def _repair(args: Mapping[str, Any], shadow: ShadowPart | None,
            length: str = "") -> list[PlanOperation]:
    ops = []
    merge = args.get("merge_coincident_nodes")
    if merge is not None:
        tol = merge.get("tolerance")
        ops.append(_op(phrase("part.merge", tolerance=_length(f"{tol:g}")) if tol is not None
                       else phrase("part.merge_default"), length))
    if args.get("delete_duplicate_elements"):
        ops.append(_op(phrase("part.delete_duplicates")))
    if args.get("delete_free_nodes"):
        ops.append(_op(phrase("part.delete_free_nodes")))
    return ops


def _audit(args: Mapping[str, Any], shadow: ShadowPart | None) -> list[PlanOperation]:
    checks = [phrase(f"part.check.{name}") if known(f"part.check.{name}") else text_phrase(name)
              for name in args.get("checks", ())] or [phrase("part.check.default")]
    return [_op(phrase("part.audit", checks=checks, file="part_audit.json"))]


def _op(said: Phrase, length: str = "", *, destructive: bool = False,
        touched: list[Touched] | None = None) -> PlanOperation:
    """An operation of the plan: its phrase, and its record (``plan.json``'s English) with
    the length unit when the plan has one."""
    return PlanOperation(text=render(said, RECORD, {"length": length} if length else None),
                         phrase=said, destructive=destructive, touched=touched or [])


_DESCRIBERS = {"build_part": _build, "edit_part": _edit, "repair_part": _repair,
               "audit_part": _audit}


# -- what each call changed on the shadow ------------------------------------------------


def _named(operations: list[PlanOperation]) -> dict[str, int]:
    """How many elements and nodes the call's own destructive operations name."""
    named = {"elements": 0, "nodes": 0}
    for op in operations:
        if op.destructive:
            for group in op.touched:
                named[group.kind] += group.count
    return named


class _Mark:
    """What a shadow had touched before a call (to tell what the call itself did)."""

    def __init__(self, shadow: ShadowPart | None) -> None:
        self.removed_nodes = set(shadow.removed_nodes) if shadow is not None else set()
        self.removed_elements = set(shadow.removed_elements) if shadow is not None else set()
        self.created_nodes = set(shadow.created_nodes) if shadow is not None else set()
        self.created_elements = set(shadow.created_elements) if shadow is not None else set()
        self.existed = shadow is not None


def _changes(mark: _Mark, after: ShadowPart | None,
             named: dict[str, int]) -> list[PlanOperation]:
    """What the call removed and added on the shadow. A removal is destructive when it goes
    beyond what the call's own deletions name (a merge, nodes taking their elements along)."""
    if not mark.existed or after is None:
        return []
    ops = []
    gone_nodes = sorted(k for k in set(after.removed_nodes) - mark.removed_nodes
                        if after.entity(k, True) is after.removed_nodes[k])
    gone_elements = sorted(k for k in set(after.removed_elements) - mark.removed_elements
                           if after.entity(k, False) is after.removed_elements[k])
    removals: tuple[tuple[Literal["nodes", "elements"], list[int], Any], ...] = (
        ("elements", gone_elements, lambda: _outline_points(after, gone_elements)),
        ("nodes", gone_nodes, lambda: [tuple(after.removed_nodes[k].coordinates)
                                       for k in gone_nodes]))
    for kind, gone, points in removals:
        if not gone:
            continue
        beyond = len(gone) > named[kind]
        ops.append(_op(phrase("plan.removes_beyond" if beyond else "plan.removes"),
                       destructive=beyond, touched=[touched(kind, gone, points())]))
    added_nodes = after.alive(sorted(after.created_nodes - mark.created_nodes), True)
    added_elements = after.alive(sorted(after.created_elements - mark.created_elements), False)
    if added_elements or added_nodes:
        found = []
        if added_elements:
            found.append(touched("elements", [e.label for e in added_elements],
                                 _node_points(after, added_elements), labels_known=False))
        if added_nodes:
            found.append(touched("nodes", [n.label for n in added_nodes],
                                 [n.coordinates for n in added_nodes], labels_known=False))
        ops.append(_op(phrase("plan.adds"), touched=found))
    return ops


def _preview(final: ShadowPart, before: PartContents, using_changed: np.ndarray) -> Preview:
    """Outlines of what the calls add, move and delete, from the touched entities alone
    (``using_changed``: the part's elements that used a node the calls changed)."""
    alive = final.element_labels_alive()
    changed = labels_array(final.changed_elements)
    if len(changed):
        changed = changed[among(changed, unique(before.mesh.element_labels))]
    deleted = [k for k in changed.tolist() if k not in alive]
    added = sorted(k for k in final.created_elements if k in alive)
    candidates = unique(np.concatenate([using_changed, changed]))
    # an element the part had is still there unless the run deleted it (and only a deleted
    # label can be missing, or created again): the store is asked about those alone
    kept = ~among(candidates, labels_array(final.deleted_elements))
    for at in np.nonzero(~kept)[0].tolist():
        kept[at] = int(candidates[at]) in alive
    moved_count = int(kept.sum())
    moved: list[int] = candidates[kept][:PREVIEW_LIMIT].tolist()
    truncated = max(len(added), moved_count, len(deleted) // 4) > PREVIEW_LIMIT
    gone_nodes: list[Any] = [node for label, node in sorted(final.removed_nodes.items())
                  if final.entity(label, True) is node]  # removed, and not made again
    return Preview(
        added=[_outline(final, label) for label in added[:PREVIEW_LIMIT]],
        deleted=deleted[:4 * PREVIEW_LIMIT],  # labels only: the view draws them from the part
        moved=moved,
        moved_to=[_outline(final, label) for label in moved],
        deleted_nodes=[tuple(node.coordinates) for node in gone_nodes[:4 * PREVIEW_LIMIT]],
        truncated=truncated or len(gone_nodes) > 4 * PREVIEW_LIMIT,
    )


def _outline(part: ShadowPart, label: int) -> list[Vec3]:
    element = part.entity(label, False)
    return [] if element is None else _coords(part, element)


def _outline_points(part: ShadowPart, labels: list[int]) -> list[Vec3]:
    return [c for label in labels for c in _outline(part, label)]


def _coords(part: ShadowPart, element: Any) -> list[Vec3]:
    found = (part.entity(k, True) for k in element.connectivity)
    return [tuple(n.coordinates) for n in found if n is not None]


def _pick(select: Any, shadow: ShadowPart | None, literal: Mapping[str, Any]) -> list[Any]:
    if shadow is None:
        return []
    try:
        return list(select(shadow, literal))
    except Exception:  # a selector the compile let through but the shadow cannot resolve
        return []


def _elements(elements: Sequence[Any], shadow: ShadowPart | None) -> list[Touched]:
    if shadow is None:
        return []
    labels = [e.label for e in elements]
    if len(labels) <= LABELS_SHOWN:
        return [touched("elements", labels)]
    return [touched("elements", labels, _node_points(shadow, elements))]


def _users(nodes: Sequence[Any], shadow: ShadowPart | None) -> list[Touched]:
    """The elements that use ``nodes`` (they go with a node deletion), if any."""
    if shadow is None:
        return []
    labels = sorted({e for node in nodes for e in shadow.users(node.label)})
    return _elements(shadow.alive(labels, False), shadow) if labels else []


def _node_points(shadow: ShadowPart, elements: Sequence[Any]) -> list[Any]:
    """The coordinates of the distinct nodes of ``elements`` (their box is the elements')."""
    used: set[int] = set()
    for element in elements:
        used.update(element.connectivity)
    found = (shadow.entity(k, True) for k in used)
    return [n.coordinates for n in found if n is not None]


def _nodes(nodes: Sequence[Any]) -> list[Touched]:
    labels = [n.label for n in nodes]
    if len(labels) <= LABELS_SHOWN:
        return [touched("nodes", labels)]
    return [touched("nodes", labels, [n.coordinates for n in nodes])]
