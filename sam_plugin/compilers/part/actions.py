"""The Part mode's spec actions (docs/architecture.md §4 "The spec") and the map from its
normalized tool calls to the operations the binding compares with the steps.

build: ``build`` · edit: ``add_nodes``, ``add_elements``, ``delete_elements``,
``delete_nodes``, ``move_nodes``, ``create_set``, ``clear_all`` · transform: ``translate``,
``translate_copy``, ``rotate``, ``mirror``, ``scale``, ``linear_array`` · repair:
``merge_nodes``, ``delete_free_nodes``, ``delete_duplicate_elements`` · audit: ``audit``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import TypeAdapter

from sam_plugin.compilers.ir_common import fixed_precision
from sam_plugin.compilers.part import geometry_values as geo
from sam_plugin.compilers.part import repair_words as words
from sam_plugin.compilers.part.authorization import SET_WORDS, SETS_UNASKED
from sam_plugin.compilers.part.routing_rules import CAPABILITIES
from sam_plugin.compilers.part.schemas import AUDIT_CHECKS, MAX_DIVISIONS
from sam_plugin.compilers.protocol import Fragment
from sam_plugin.compilers.schema_common import SCALE_FACTOR_RANGE, TOLERANCE_MIN
from sam_plugin.compilers.selectors import SELECT_ALL, LabelsSelector, Selector
from sam_plugin.compilers.spec import values as v
from sam_plugin.compilers.spec.vocabulary import ActionDef, CallOperation, Vocabulary

_SELECTOR: TypeAdapter[Any] = TypeAdapter(Selector)

SHAPE = geo.SHAPE
SIZE = v.numbers("extents of the built mesh, [lx, ly] (a line: [length])", min_items=1,
                 max_items=3, minimum=0, quantity="length")
DIVISIONS = v.integers("[nu, nv] of a patch (a line: [n])", min_items=1, max_items=2,
                       minimum=1)
VECTOR = v.vector("[dx, dy, dz]", quantity="length")
ORIGIN = v.vector("[x, y, z]", quantity="length")
PLANES = ("XY", "XZ", "YZ")
PLANE = v.choice("the rectangle's plane (XY when not given): size and divisions go along its "
                 "first axis, then its second", {p: (p, p) for p in PLANES})
TOLERANCE = v.number("merge distance, in model units", minimum=TOLERANCE_MIN,
                     quantity="length")
_CHECK_WORDS = {"counts": ("counts", "数量"), "free_nodes": ("free nodes", "自由节点"),
                "duplicate_elements": ("duplicate elements", "重复单元"),
                "coincident_nodes": ("coincident nodes", "重合节点"),
                "degenerate_elements": ("degenerate elements", "退化单元"),
                "quality": ("quality", "质量")}
CHECKS = v.choices("audit checks (all when omitted)",
                   {check: _CHECK_WORDS[check] for check in AUDIT_CHECKS})

ACTIONS: tuple[ActionDef, ...] = (
    ActionDef(
        "build", "build",
        {"shape": SHAPE, "size": SIZE, "divisions": DIVISIONS, "origin": ORIGIN, "plane": PLANE,
         "patches": geo.PATCHES, "lines": geo.LINES,
         "nodes": v.integer("nodes the mesh has, as you count them", minimum=1, claim=True),
         "elements": geo.BUILD_ELEMENTS,
         "sets": v.names("element sets the build creates, each holding every new element")},
        asked_by={"sets": ((SET_WORDS,), SETS_UNASKED)},
        en=("build a mesh[ of {shape} elements][, size {size}][, divided {divisions}]"
            "[, from {origin}][ in the {plane} plane][: {patches;lines}][, with the sets {sets}]"
            "[: {nodes} nodes][, {elements}]"),
        zh=("建立网格[（{shape} 单元）][，尺寸 {size}][，划分 {divisions}][，起点 {origin}]"
            "[，{plane} 平面内][：{patches;lines}][，集合 {sets}][：{nodes} 个节点][，{elements}]"),
        description=("mesh an empty or missing part: a QUAD or TRI rectangle (size [lx, ly], "
                     "divisions [nu, nv], origin (else the origin), and its plane: XY, XZ or "
                     "YZ), or patches, lines (a BEAM line: its start, end and divisions) and "
                     "elements by their coordinates"),
        together=("patches", "lines", "elements"),
        alternatives=(("size", "divisions", "origin", "plane"),
                      ("patches", "lines", "elements")),
        # in the order a rectangle is said: a grammar that holds a way's required values
        # asks them first, so the rectangle states its shape, size and divisions, then plane
        states=("shape", "size", "divisions", "plane"), narrows={"shape": ("QUAD", "TRI")},
        asks=("build a new mesh on an empty part: a plate, a panel, a rectangle, a beam line "
              "or column")),
    ActionDef(
        "add_nodes", "edit",
        {"count": v.integer("new free nodes", minimum=1, claim=True), "points": geo.POINTS},
        en="add[ {count}] free nodes[ at {points}]", zh="添加[ {count} 个]自由节点[：{points}]",
        required=("count",), description="nodes that no new element uses, at their points",
        asks="add single free nodes at given points"),
    ActionDef(
        "add_elements", "edit",
        {"count": v.integer("new elements", minimum=1, claim=True), "shape": SHAPE,
         "elements": geo.ELEMENTS, "patches": geo.PATCHES, "lines": geo.LINES},
        en="add[ {count}][ {shape}] elements[: {patches;lines;elements}]",
        zh="添加[ {count} 个][ {shape}]单元[：{patches;lines;elements}]",
        required=("count",), together=("patches", "lines", "elements"),
        description=("new elements (their nodes included), by their node coordinates, "
                     "patches or lines"),
        asks="add elements, patches or beam lines to the existing part"),
    ActionDef(
        "delete_elements", "edit", {}, en="delete {scope}", zh="删除{scope}",
        scope="required",
        asks="delete or remove some elements"),
    ActionDef(
        "delete_nodes", "edit", {}, en="delete {scope}", zh="删除{scope}",
        scope="required", members="nodes", description="their elements go too",
        asks="delete or remove some nodes (their elements go too)"),
    ActionDef(
        "move_nodes", "edit",
        {"labels": v.labels("node labels"),
         "to": v.points("the new coordinates, one point per label")},
        en="move nodes[ {labels}][ to {to}]", zh="移动节点[ {labels}][ 到 {to}]",
        required=("labels", "to"), scope="optional", members="nodes", keeps_counts=True,
        paired=("labels", "to"),
        asks="move given nodes to new coordinates"),
    ActionDef(
        "create_set", "edit", {"name": v.name("the new set's name")},
        en="create the set[ {name}][ of {scope}]", zh="创建集合[ {name}][（{scope}）]",
        required=("name",), scope="optional",
        description="an element set of existing elements (scope) or of new ones",
        asks="make a named set or group of elements",
        asked_by={"": ((SET_WORDS,), SETS_UNASKED)}),
    ActionDef(
        "clear_all", "edit", {}, en="delete everything (every node, element and set)",
        zh="删除全部节点、单元和集合", scope="optional", whole_part=True,
        description="only when the analyst asked to delete or replace everything",
        asks="delete everything, or replace the whole part"),
    ActionDef(
        "translate", "transform", {"vector": VECTOR}, en="translate {scope}[ by {vector}]",
        zh="将{scope}平移[ {vector}]", required=("vector",), scope="required",
        members="transform", keeps_counts=True,
        asks="move, shift or offset elements by a distance"),
    ActionDef(
        "translate_copy", "transform", {"vector": VECTOR},
        en="copy {scope}[ shifted by {vector}]", zh="将{scope}平移复制[ {vector}]",
        required=("vector",), scope="required", members="transform", copies=True,
        asks="one shifted copy of elements"),
    ActionDef(
        "rotate", "transform",
        {"angle_deg": v.number("degrees, counter-clockwise about the axis"),
         "axis": v.vector("the rotation axis [x, y, z]"), "origin": ORIGIN},
        en="rotate {scope}[ by {angle_deg} degrees][ about the axis {axis}][ through {origin}]",
        zh="将{scope}[绕过点 {origin} ][、方向 {axis} 的轴]旋转[ {angle_deg} 度]",
        required=("angle_deg", "axis"), scope="required", members="transform",
        keeps_counts=True, defaults={"origin": [0.0, 0.0, 0.0]},
        asks="rotate or turn elements about an axis"),
    ActionDef(
        "mirror", "transform",
        {"copy": v.flag("keep the original and add the mirrored copy",
                        ("as a copy", "in place", "并保留原件", "不保留原件")),
         "origin": ORIGIN, "normal": v.vector("the mirror plane's normal")},
        en="mirror {scope}[ {copy}][ in the plane through {origin}][ with the normal {normal}]",
        zh="将{scope}[关于过点 {origin} ][、法向 {normal} 的平面]镜像[（{copy}）]",
        required=("copy", "normal"), scope="required", members="transform",
        defaults={"origin": [0.0, 0.0, 0.0]}, copies_if="copy",
        description=("normal: the plane's normal, [1, 0, 0] for the YZ plane (x = origin's "
                     "x), [0, 1, 0] for XZ, [0, 0, 1] for XY"),
        asks="mirror or reflect elements across a plane"),
    ActionDef(
        "scale", "transform",
        {"factor": v.number("scale factor", minimum=SCALE_FACTOR_RANGE[0],
                            maximum=SCALE_FACTOR_RANGE[1]),
         "origin": ORIGIN},
        en="scale {scope}[ by {factor}][ about {origin}]",
        zh="将{scope}[以 {origin} 为中心]缩放[ {factor} 倍]", required=("factor",),
        scope="required", members="transform", keeps_counts=True,
        defaults={"origin": [0.0, 0.0, 0.0]},
        asks="scale, enlarge or shrink elements",
        named_by=words.SCALE, stand_ins=words.SCALE_STAND_INS),
    ActionDef(
        "linear_array", "transform",
        {"count": v.integer("instances including the original", minimum=2, maximum=100),
         "vector": VECTOR},
        en="array {scope}[ into {count} instances][ {vector} apart]",
        zh="将{scope}[沿 {vector} ]线性阵列[为 {count} 份]", required=("count", "vector"),
        scope="required", members="transform", copies=True,
        asks="several copies in a row, a pattern or array",
        asked_as={"count": ("copies", 1, "the new copies, the original not counted")}),
    ActionDef(
        "merge_nodes", "repair", {"tolerance": TOLERANCE},
        en="merge coincident nodes[ of {scope}][ within {tolerance}]",
        zh="合并[{scope}的]重合节点[（容差 {tolerance}）]", scope="optional", whole_part=True,
        description="coincident nodes of the whole part",
        asks="merge coincident or duplicate nodes, stitch or join a seam",
        named_by=words.MERGE_NODES, stand_ins=words.MERGE_STAND_INS),
    ActionDef(
        "delete_free_nodes", "repair", {}, en="delete free nodes[ of {scope}]",
        zh="删除[{scope}的]自由节点", scope="optional", members="nodes", whole_part=True,
        asks="remove free, stray or unused nodes",
        named_by=words.DELETE_FREE_NODES, stand_ins=words.FREE_NODES_STAND_INS),
    ActionDef(
        "delete_duplicate_elements", "repair", {},
        en="delete duplicate elements[ of {scope}]", zh="删除[{scope}的]重复单元",
        scope="optional", whole_part=True,
        asks="remove duplicate or double elements",
        named_by=words.DELETE_DUPLICATE_ELEMENTS, stand_ins=words.DUPLICATES_STAND_INS),
    ActionDef(
        "audit", "audit", {"checks": CHECKS}, en="audit the part[: {checks}]",
        zh="审计部件[：{checks}]", mutating=False, keeps_counts=True,
        description="a read-only report",
        asks="check, count or report without changing anything"),
)

VOCABULARY = Vocabulary(
    mode="part", title="Part", capabilities=CAPABILITIES,
    capability_words={"build": ("build", "建模"), "edit": ("edit", "编辑"),
                      "transform": ("transform", "变换"), "repair": ("repair", "修复"),
                      "audit": ("audit", "审计")},
    actions=ACTIONS,
)

_BY_NAME = {a.name: a for a in ACTIONS}


def _norm(action: str, key: str, raw: Any) -> Any:
    return v.normalize(_BY_NAME[action].values[key], raw)


def _scope(raw: Any) -> Any:
    return _SELECTOR.validate_python(raw) if raw is not None else None


# -- calls -> operations ---------------------------------------------------------------------


def operations(fragment: Fragment) -> list[CallOperation]:
    """The operations of one compiled Part call, in the order the call performs them."""
    args = fragment.normalized
    tool = fragment.tool
    if tool == "build_part":
        return [_build(fragment)]
    if tool == "edit_part":
        return _edit(args)
    if tool == "transform_part":
        return [_transform(i, op) for i, op in enumerate(args.get("operations", ()))]
    if tool == "repair_part":
        return _repair(args)
    if tool == "audit_part":
        return [CallOperation(tool, "checks", "audit",
                              {"checks": _norm("audit", "checks", args.get("checks") or
                                               AUDIT_CHECKS)})]
    return []


def _points(args: Mapping[str, Any], fields: Sequence[str]) -> list[Sequence[float]]:
    """Every coordinate the new mesh is made of (node table, patch corners, line ends)."""
    nodes_key, patches_key, lines_key = fields
    found: list[Sequence[float]] = [n["coordinates"] for n in args.get(nodes_key, ())]
    for patch in args.get(patches_key, ()):
        found.extend(patch["corners"])
    for line in args.get(lines_key, ()):
        found.extend((line["start"], line["end"]))
    return found


def _shapes(args: Mapping[str, Any], fields: Sequence[str]) -> list[str]:
    elements_key, patches_key, lines_key = fields
    shapes = {e["shape"] for e in args.get(elements_key, ())}
    shapes |= {p["shape"] for p in args.get(patches_key, ())}
    if args.get(lines_key):
        shapes.add("BEAM")
    return sorted(shapes)


def _build(fragment: Fragment) -> CallOperation:
    args = fragment.normalized
    values: dict[str, Any] = {}
    shapes = _shapes(args, ("elements", "patches", "lines"))
    if shapes:
        values["shape"] = "+".join(shapes)
    points = _points(args, ("nodes", "patches", "lines"))
    if points:
        low = [min(p[axis] for p in points) for axis in range(3)]
        high = [max(p[axis] for p in points) for axis in range(3)]
        extents = [fixed_precision(hi - lo) for lo, hi in zip(low, high, strict=True)]
        values["size"] = [e for e in extents if e != 0] or [0.0]
        values["origin"] = [fixed_precision(x) for x in low]
    divisions = _divisions(args)
    if divisions is not None:
        values["divisions"] = divisions
    plane = _plane(args)
    if plane is not None:
        values["plane"] = plane
    values.update(_geometry("build", args, ("nodes", "elements", "patches", "lines")))
    sets = [s["name"] for s in args.get("element_sets", ())]
    if sets:
        values["sets"] = sorted(set(sets))
    evidence = fragment.evidence
    counts = {}
    if evidence.node_count.min == evidence.node_count.max:
        counts["nodes"] = evidence.node_count.min
    if evidence.element_count.min == evidence.element_count.max:
        counts["elements"] = evidence.element_count.min
    return CallOperation(fragment.tool, "", "build", values, counts=counts)


def _geometry(action: str, args: Mapping[str, Any],
              fields: tuple[str, str, str, str]) -> dict[str, Any]:
    """What a call adds, as a step states it: ``patches``, ``lines``, and single
    ``elements`` by the coordinates of their nodes (from the call's node table)."""
    nodes_key, elements_key, patches_key, lines_key = fields
    at = {n["id"]: n["coordinates"] for n in args.get(nodes_key, ())}
    found: dict[str, Any] = {}
    if args.get(patches_key):
        found["patches"] = _norm(action, "patches", args[patches_key])
    if args.get(lines_key):
        found["lines"] = _norm(action, "lines", args[lines_key])
    if args.get(elements_key):
        found["elements"] = _norm(action, "elements", [
            {"shape": e["shape"], "nodes": [at[i] for i in e["node_ids"] if i in at]}
            for e in args[elements_key]])
    return found


def _plane(args: Mapping[str, Any]) -> str | None:
    """The plane every patch lies in (the first of XY, XZ, YZ that holds them all), for a
    build of patches only; ``None`` otherwise."""
    patches = args.get("patches", ())
    if not patches or args.get("lines") or args.get("elements"):
        return None
    corners = [c for patch in patches for c in patch["corners"]]
    for plane, normal in zip(PLANES, (2, 1, 0), strict=True):
        if max(c[normal] for c in corners) - min(c[normal] for c in corners) <= 1e-9:
            return plane
    return None


def _divisions(args: Mapping[str, Any]) -> list[int] | None:
    """The divisions every patch shares (a lone line: its own); ``None`` when they differ."""
    patches, lines = args.get("patches", ()), args.get("lines", ())
    found = {tuple(p["divisions"]) for p in patches}
    if patches and not lines and len(found) == 1:
        return [int(x) for x in found.pop()]
    if lines and not patches and len({line["divisions"] for line in lines}) == 1:
        return [int(lines[0]["divisions"])]
    return None


def _edit(args: Mapping[str, Any]) -> list[CallOperation]:
    tool = "edit_part"
    found: list[CallOperation] = []
    if args.get("clear_all"):
        found.append(CallOperation(tool, "clear_all", "clear_all", {}, SELECT_ALL))
    for key in ("delete_elements", "delete_nodes"):
        if args.get(key) is not None:
            found.append(CallOperation(tool, key, key, {}, _scope(args[key])))
    moves = sorted(args.get("move_nodes", ()), key=lambda m: m["label"])
    if moves:
        labels = [m["label"] for m in moves]
        found.append(CallOperation(tool, "move_nodes", "move_nodes", {
            "labels": labels, "to": _norm("move_nodes", "to", [m["coordinates"] for m in moves])},
            LabelsSelector(by="labels", labels=tuple(labels))))
    used = {node_id for e in args.get("add_elements", ()) for node_id in e["node_ids"]}
    free = [n for n in args.get("nodes", ()) if n["id"] not in used]
    if free:
        found.append(CallOperation(tool, "nodes", "add_nodes", {
            "points": _norm("add_nodes", "points", [n["coordinates"] for n in free])},
            counts={"count": len(free)}))
    added = _added_elements(args)
    if added:
        values: dict[str, Any] = {
            "shape": "+".join(_shapes(args, ("add_elements", "add_patches", "add_lines"))),
            **_geometry("add_elements", args, ("nodes", "add_elements", "add_patches",
                                               "add_lines"))}
        found.append(CallOperation(tool, "add_elements", "add_elements", values,
                                   counts={"count": added}))
    for i, item in enumerate(args.get("element_sets", ())):
        found.append(CallOperation(tool, f"element_sets[{i}]", "create_set",
                                   {"name": item["name"]}, _scope(item.get("selection"))))
    return found


def _added_elements(args: Mapping[str, Any]) -> int:
    total = len(args.get("add_elements", ()))
    for patch in args.get("add_patches", ()):
        cells = int(patch["divisions"][0]) * int(patch["divisions"][1])
        total += cells * (2 if patch["shape"] == "TRI" else 1)
    return total + sum(int(line["divisions"]) for line in args.get("add_lines", ()))


def _transform(index: int, op: Mapping[str, Any]) -> CallOperation:
    action = str(op["op"])
    keys = _BY_NAME[action].values if action in _BY_NAME else {}
    raw = {("copy" if key == "make_copy" else key): value for key, value in op.items()}
    values = {key: _norm(action, key, raw[key]) for key in keys if key in raw}
    return CallOperation("transform_part", f"operations[{index}]", action, values,
                         _scope(op.get("selection")) or SELECT_ALL)


def _repair(args: Mapping[str, Any]) -> list[CallOperation]:
    tool = "repair_part"
    found: list[CallOperation] = []
    merge = args.get("merge_coincident_nodes")
    if merge is not None:
        values = {} if merge.get("tolerance") is None else {
            "tolerance": _norm("merge_nodes", "tolerance", merge["tolerance"])}
        found.append(CallOperation(tool, "merge_coincident_nodes", "merge_nodes", values,
                                   SELECT_ALL))
    if args.get("delete_duplicate_elements"):
        found.append(CallOperation(tool, "delete_duplicate_elements",
                                   "delete_duplicate_elements", {}, SELECT_ALL))
    if args.get("delete_free_nodes"):
        found.append(CallOperation(tool, "delete_free_nodes", "delete_free_nodes", {},
                                   SELECT_ALL))
    return found


__all__ = ["ACTIONS", "MAX_DIVISIONS", "VOCABULARY", "operations"]
