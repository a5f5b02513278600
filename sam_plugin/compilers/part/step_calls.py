"""The Part calls computed from the confirmed steps: the inverse of ``actions.operations``
(docs/architecture.md §4 "Calls from the steps").

One call per routed tool, in the canonical order (build | edit, transform, repair, audit);
each step's part of it in the order of the steps. Local ids are made here (``P1``, ``L1``,
``E1``, ``N1``): aliases inside one call, never SAM labels.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sam_plugin.compilers.part.actions import VOCABULARY
from sam_plugin.compilers.part.routing_rules import TOOL_NAMES
from sam_plugin.compilers.spec.computed import ComputedCall, refuse, scope_json, steps_of
from sam_plugin.compilers.spec.ir import Spec, Step
from sam_plugin.compilers.spec.values import is_count

Point = Sequence[float]
_SINGLE = ("clear_all", "delete_elements", "delete_nodes")


def calls_from_steps(spec: Spec, tools: Sequence[str]) -> list[ComputedCall]:
    """The calls of ``tools`` (the route's, in order) that carry out ``spec``'s steps;
    raises ``StepsNotComputable`` naming the first step that does not state enough."""
    by_tool = {tool: capability for capability, tool in TOOL_NAMES.items()}
    return [_COMPUTE[by_tool[tool]](spec) for tool in tools]


class _Geometry:
    """What the steps of one call add: a node table shared by every element (one node per
    distinct coordinate), patches, lines and single elements, with ids of their own."""

    def __init__(self) -> None:
        self.nodes: list[dict[str, Any]] = []
        self._ids: dict[tuple[float, ...], str] = {}
        self.elements: list[dict[str, Any]] = []
        self.patches: list[dict[str, Any]] = []
        self.lines: list[dict[str, Any]] = []

    def node(self, point: Point) -> str:
        key = tuple(float(x) for x in point)
        if key not in self._ids:
            self._ids[key] = f"N{len(self.nodes) + 1}"
            self.nodes.append({"id": self._ids[key], "coordinates": list(key)})
        return self._ids[key]

    def add(self, values: Mapping[str, Any]) -> list[str]:
        """The patches, lines and elements of one step; the ids it added."""
        made = []
        for patch in values.get("patches", ()):
            made.append(f"P{len(self.patches) + 1}")
            self.patches.append({"id": made[-1], **patch})
        for line in values.get("lines", ()):
            made.append(f"L{len(self.lines) + 1}")
            self.lines.append({"id": made[-1], **line})
        elements = values.get("elements", ())
        for element in () if is_count(elements) else elements:
            made.append(f"E{len(self.elements) + 1}")
            self.elements.append({"id": made[-1], "shape": element["shape"],
                                  "node_ids": [self.node(p) for p in element["nodes"]]})
        return made


def _build(spec: Spec) -> ComputedCall:
    geometry = _Geometry()
    sets: list[dict[str, Any]] = []
    found = steps_of(spec, "build")
    paths: dict[str, int] = {}
    for index, step in found:
        values = dict(step.values)
        if not any(_listed(values, key) for key in ("patches", "lines", "elements")):
            values.update(_rectangle(spec, index, step))
        made = geometry.add(values)
        for key, listed in (("patches", geometry.patches), ("lines", geometry.lines),
                            ("elements", geometry.elements)):
            if listed:
                paths.setdefault(key, index)
        for name in step.values.get("sets", ()):
            sets.append({"name": name, "element_ids": made})
            paths[f"element_sets[{len(sets) - 1}]"] = index
    arguments: dict[str, Any] = {}
    for key, listed in (("nodes", geometry.nodes), ("elements", geometry.elements),
                        ("patches", geometry.patches), ("lines", geometry.lines),
                        ("element_sets", sets)):
        if listed:
            arguments[key] = listed
    return ComputedCall("build_part", arguments, tuple(i for i, _ in found), paths)


def _listed(values: Mapping[str, Any], key: str) -> bool:
    value = values.get(key)
    return isinstance(value, list) and bool(value)


def _rectangle(spec: Spec, index: int, step: Step) -> dict[str, Any]:
    """A build step's rectangle (in its plane, XY when not given) or BEAM line (along X) as a
    patch or a line."""
    values = step.values
    shape, size, divisions = values.get("shape"), values.get("size"), values.get("divisions")
    origin = [float(x) for x in values.get("origin", (0.0, 0.0, 0.0))]
    if shape is None or size is None or divisions is None:
        missing = [k for k, v in (("shape", shape), ("size", size), ("divisions", divisions))
                   if v is None]
        raise refuse(spec, index, VOCABULARY, (
            f"states no {', '.join(missing)}: give shape, size [lx, ly] and divisions "
            "[nu, nv] (a BEAM line: size [length], divisions [n]), or the patches, lines or "
            "elements by their coordinates"))
    x0, y0, z0 = origin
    if shape == "BEAM":
        if values.get("plane") is not None:
            raise refuse(spec, index, VOCABULARY, (
                "is a BEAM line, which lies in no single plane: give lines with their start "
                "and end instead of size and plane"))
        if len(size) != 1 or len(divisions) != 1:
            raise refuse(spec, index, VOCABULARY, (
                "is a BEAM line: give size [length] and divisions [n], or lines with start "
                "and end"))
        return {"lines": [{"start": origin, "end": [x0 + size[0], y0, z0],
                           "divisions": divisions[0]}]}
    if len(size) != 2 or len(divisions) != 2:
        raise refuse(spec, index, VOCABULARY, (
            f"is a {shape} rectangle: give size [lx, ly] and divisions [nu, nv], or patches "
            "with their corners"))
    corners = [_in_plane(origin, values.get("plane") or "XY", u, v)
               for u, v in ((0.0, 0.0), (size[0], 0.0), (size[0], size[1]), (0.0, size[1]))]
    return {"patches": [{"shape": shape, "corners": corners, "divisions": list(divisions)}]}


# a plane's (first axis, second axis), by coordinate index
_PLANE_AXES = {"XY": (0, 1), "XZ": (0, 2), "YZ": (1, 2)}


def _in_plane(origin: list[float], plane: str, u: float, v: float) -> list[float]:
    """``origin`` moved ``u`` along the plane's first axis and ``v`` along its second."""
    first, second = _PLANE_AXES[plane]
    point = list(origin)
    point[first] += u
    point[second] += v
    return point


def _edit(spec: Spec) -> ComputedCall:
    geometry = _Geometry()
    arguments: dict[str, Any] = {}
    paths: dict[str, int] = {}
    moves: list[dict[str, Any]] = []
    sets: list[tuple[int, Step]] = []
    added: list[str] = []
    found = steps_of(spec, "edit")
    for index, step in found:
        action = step.action
        if action in _SINGLE:
            if action in arguments:
                first = paths[action] + 1
                raise refuse(spec, index, VOCABULARY, (
                    f"and step {first} both {action.replace('_', ' ')}; one edit_part call "
                    "does that once: make them one step"), joins=first - 1)
            arguments[action] = True if action == "clear_all" else scope_json(step)
            paths[action] = index
        elif action == "move_nodes":
            moves += [{"label": label, "coordinates": point} for label, point in
                      zip(step.values["labels"], step.values["to"], strict=True)]
            paths.setdefault("move_nodes", index)
        elif action == "add_nodes":
            points = step.values.get("points")
            if not points:
                raise refuse(spec, index, VOCABULARY, (
                    "gives no points: give the point [x, y, z] of each new node"))
            for point in points:
                geometry.node(point)
            paths.setdefault("nodes", index)
        elif action == "add_elements":
            if not any(_listed(step.values, k) for k in ("patches", "lines", "elements")):
                raise refuse(spec, index, VOCABULARY, (
                    "states no coordinates: give the elements by the coordinates of their "
                    "nodes, or patches, or lines"))
            _counted(spec, index, step)
            added += geometry.add(step.values)
            for key in ("add_patches", "add_lines", "add_elements"):
                paths.setdefault(key, index)
        elif action == "create_set":
            sets.append((index, step))
    arguments.update(_table(geometry))
    if moves:
        arguments["move_nodes"] = moves
    if sets:
        arguments["element_sets"] = [_set(spec, index, step, added) for index, step in sets]
        paths.update({f"element_sets[{k}]": index for k, (index, _) in enumerate(sets)})
    return ComputedCall("edit_part", arguments, tuple(i for i, _ in found), paths)


def _counted(spec: Spec, index: int, step: Step) -> None:
    """A step that counts more or fewer elements than it gives, each by its nodes ("add 4
    QUAD elements" with one QUAD over the whole 20 × 20): which of the two it means cannot be
    told, so it is said (patches and lines make their count by their divisions)."""
    count, elements = step.values.get("count"), step.values.get("elements")
    if not isinstance(count, int) or not _listed(step.values, "elements") or \
            any(_listed(step.values, k) for k in ("patches", "lines")):
        return
    assert isinstance(elements, list)
    if count > len(elements):  # a patch or a line makes them: asked again without elements
        raise refuse(spec, index, VOCABULARY, (
            f"counts {count} elements and gives {len(elements)} by their nodes: give a patch "
            f"(corners, divisions [nu, nv]) or a line (start, end, divisions) that makes the "
            f"{count}"), needs=("-elements",))
    if count < len(elements):
        raise refuse(spec, index, VOCABULARY, (
            f"counts {count} elements and gives {len(elements)} by their nodes: count each "
            "element it gives, and give only the elements the request asks for"))


def _table(geometry: _Geometry) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, listed in (("nodes", geometry.nodes), ("add_elements", geometry.elements),
                        ("add_patches", geometry.patches), ("add_lines", geometry.lines)):
        if listed:
            out[key] = listed
    return out


def _set(spec: Spec, index: int, step: Step, added: list[str]) -> dict[str, Any]:
    """A set of existing elements (its scope), or of the elements the spec adds."""
    name = step.values["name"]
    if step.scope is not None:
        return {"name": name, "selection": scope_json(step)}
    if not added:
        raise refuse(spec, index, VOCABULARY, (
            "names no elements: give its scope (the existing elements it holds), or add the "
            "elements it holds in an add_elements step"), needs=("scope",))
    return {"name": name, "element_ids": list(added)}


_TRANSFORM_KEYS = {"translate": ("vector",), "translate_copy": ("vector",),
                   "rotate": ("origin", "axis", "angle_deg"),
                   "mirror": ("origin", "normal", "copy"), "scale": ("origin", "factor"),
                   "linear_array": ("vector", "count")}


def _transform(spec: Spec) -> ComputedCall:
    operations: list[dict[str, Any]] = []
    paths: dict[str, int] = {}
    found = steps_of(spec, "transform")
    for index, step in found:
        op: dict[str, Any] = {"op": step.action}
        for key in _TRANSFORM_KEYS[step.action]:
            if key in step.values:
                op[key] = step.values[key]
        if step.scope is not None:
            op["selection"] = scope_json(step)
        paths[f"operations[{len(operations)}]"] = index
        operations.append(op)
    return ComputedCall("transform_part", {"operations": operations},
                        tuple(i for i, _ in found), paths)


def _repair(spec: Spec) -> ComputedCall:
    arguments: dict[str, Any] = {}
    paths: dict[str, int] = {}
    found = steps_of(spec, "repair")
    for index, step in found:
        if step.action == "merge_nodes":
            tolerance = step.values.get("tolerance")
            arguments["merge_coincident_nodes"] = (
                {} if tolerance is None else {"tolerance": tolerance})
            paths["merge_coincident_nodes"] = index
        else:
            arguments[step.action] = True
            paths[step.action] = index
    return ComputedCall("repair_part", arguments, tuple(i for i, _ in found), paths)


def _audit(spec: Spec) -> ComputedCall:
    found = steps_of(spec, "audit")
    checks = next((step.values["checks"] for _, step in found if "checks" in step.values), None)
    arguments = {"checks": list(checks)} if checks else {}
    return ComputedCall("audit_part", arguments, tuple(i for i, _ in found))


_COMPUTE = {"build": _build, "edit": _edit, "transform": _transform, "repair": _repair,
            "audit": _audit}
