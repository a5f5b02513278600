"""Wire schemas (docs/architecture.md §4) and descriptions of the five Part tools.

The descriptions are the model's operating manual: they say how plates and beams map to
patches and lines, that coordinates are shared, that ids are local aliases, and when sets
and ``clear_all`` are allowed.
"""

from __future__ import annotations

from typing import Any

from sam_plugin.compilers import schema_common as sc

MAX_DIVISIONS = 1000
MAX_LINE_DIVISIONS = 10000
AUDIT_CHECKS: tuple[str, ...] = (
    "counts", "free_nodes", "duplicate_elements", "coincident_nodes", "degenerate_elements",
    "quality",
)
TRANSFORM_OPS: tuple[str, ...] = (
    "translate", "rotate", "mirror", "scale", "translate_copy", "linear_array",
)


def _node() -> dict[str, Any]:
    return sc.obj({"id": sc.local_id(), "coordinates": sc.vec3()}, ["id", "coordinates"])


def _element() -> dict[str, Any]:
    return sc.obj(
        {
            "id": sc.local_id("local id of the element (used by element_sets)"),
            "shape": sc.shape(description="QUAD 4 nodes, TRI 3 nodes, BEAM 2 nodes"),
            "node_ids": sc.array(sc.local_id(), "local node ids, counter-clockwise for "
                                 "QUAD/TRI", min_items=2, max_items=4),
        },
        ["id", "shape", "node_ids"],
    )


def _patch() -> dict[str, Any]:
    return sc.obj(
        {
            "id": sc.local_id(),
            "shape": sc.shape(("QUAD", "TRI"), "QUAD cells, or TRI with two per cell"),
            "corners": sc.array(sc.vec3(), "four corners in order around the patch: "
                                "(u=0,v=0), (u=1,v=0), (u=1,v=1), (u=0,v=1)",
                                min_items=4, max_items=4),
            "divisions": sc.array(sc.integer(minimum=1, maximum=MAX_DIVISIONS),
                                  "[nu, nv]: cells along corner0->corner1 and "
                                  "corner0->corner3", min_items=2, max_items=2),
        },
        ["id", "shape", "corners", "divisions"],
    )


def _line() -> dict[str, Any]:
    return sc.obj(
        {
            "id": sc.local_id(),
            "start": sc.vec3(),
            "end": sc.vec3(),
            "divisions": sc.integer("number of BEAM elements along the line", minimum=1,
                                    maximum=MAX_LINE_DIVISIONS),
        },
        ["id", "start", "end", "divisions"],
    )


def _ids(what: str) -> dict[str, Any]:
    return sc.array(sc.local_id(), what, min_items=1)


BUILD_DESCRIPTION = """\
Build the mesh of an EMPTY or missing part (never a part that already has nodes or elements).
Mapping: a plate / shell / 板 / 面 is a patch (QUAD cells, or TRI with two triangles per cell);
a beam / bar / truss / 梁 / 杆 is a line of BEAM elements. Prefer patches and lines over
listing single elements. Coordinates that coincide (within a tolerance relative to the model
size) become ONE node, so two patches that share an edge, or a line that starts on a plate
corner, are connected automatically: reuse the exact same coordinates. `id`s are local
aliases inside this call, never SAM labels (SAM numbers the nodes and elements itself).
Single elements: `nodes` declares coordinates under local ids, `elements` uses them; QUAD
needs 4 distinct nodes, TRI 3, BEAM 2, listed counter-clockwise. TRI correct:
{"id":"T1","shape":"TRI","node_ids":["a","b","c"]}; TRI wrong: {"id":"T1","shape":"TRI",
"node_ids":["a","b","c","d"]} (4 nodes). Give `element_sets` ONLY when the user asked for
sets or groups; their element_ids name elements, patches or lines of this call."""

EDIT_DESCRIPTION = """\
Edit an existing part. Applied in this order: clear_all -> delete_elements -> delete_nodes
(elements using a deleted node go too) -> move_nodes -> resolve the `nodes` coordinate table
(an existing node within tolerance of a coordinate is reused, otherwise a node is created)
-> add_elements, add_patches, add_lines -> element_sets. Selectors pick existing entities by
SAM label, set, shape, box or all; `move_nodes` uses SAM node labels. New patches and lines
connect to existing nodes at the same coordinates. Local ids are aliases inside this call,
never SAM labels. Give `element_sets` ONLY when the user asked for sets or groups. Use
`clear_all: true` ONLY when the user explicitly asked to delete or replace everything."""

TRANSFORM_DESCRIPTION = """\
Transform existing geometry; operations run in order, each on its `selection` (default:
everything). translate moves; rotate turns about `axis` through `origin` by `angle_deg`
(right-hand rule, degrees); mirror reflects across the plane through `origin` with `normal`
(in place, or as a copy when `copy` is true; mirrored elements get reversed node order so
normals stay consistent); scale about `origin` by `factor` > 0; translate_copy adds a moved
copy; linear_array makes `count` instances in total including the original (2..100), each
shifted by `vector` from the previous. Copies are not merged with the original: follow with
repair_part to merge coincident nodes when they must connect."""

REPAIR_DESCRIPTION = """\
Repair the part: merge coincident nodes (within `tolerance`; omit it for a tolerance relative
to the model size), delete duplicate elements (same node set in any order or rotation; the
lowest label is kept), delete free nodes (used by no element). Ask only for what the user
wants repaired."""

AUDIT_DESCRIPTION = """\
Read-only audit of the part, written to part_audit.json: counts, shape counts, bounding box,
free nodes, duplicate elements, coincident node groups, degenerate elements and quality
(aspect ratio, min/max angle, QUAD warping). Omit `checks` to run all of them."""


def build_schema() -> dict[str, Any]:
    return sc.parameters({
        "nodes": sc.array(_node(), "coordinates declared under local ids for `elements`"),
        "elements": sc.array(_element(), "single elements over declared node ids"),
        "patches": sc.array(_patch(), "structured QUAD/TRI grids (plates)"),
        "lines": sc.array(_line(), "BEAM chains (beams, bars)"),
        "element_sets": sc.array(sc.obj({"name": sc.name(), "element_ids": _ids(
            "local ids of elements, patches or lines of this call")},
            ["name", "element_ids"]), "only when the user asked for sets/groups"),
    })


def edit_schema() -> dict[str, Any]:
    move = sc.obj({"label": sc.integer("existing SAM node label", minimum=1),
                   "coordinates": sc.vec3("new position")}, ["label", "coordinates"])
    edit_set = sc.obj({
        "name": sc.name(),
        "element_ids": sc.array(sc.local_id(), "local ids of elements, patches or lines "
                                "added in this call"),
        "selection": sc.selector("existing elements to include"),
    }, ["name"])
    return sc.parameters({
        "nodes": sc.array(_node(), "coordinate table: an existing node at a coordinate is "
                          "reused, otherwise one is created"),
        "add_elements": sc.array(_element()),
        "add_patches": sc.array(_patch()),
        "add_lines": sc.array(_line()),
        "delete_elements": sc.selector("elements to delete (their nodes stay)"),
        "delete_nodes": sc.selector("nodes to delete; elements using them go too"),
        "move_nodes": sc.array(move),
        "element_sets": sc.array(edit_set, "only when the user asked for sets/groups"),
        "clear_all": sc.boolean("delete everything first; only on an explicit request to "
                                "delete or replace everything"),
    })


def transform_schema() -> dict[str, Any]:
    sel = {"selection": sc.selector("what to transform (default: all)")}
    ops = [
        sc.tagged("op", "translate", {"vector": sc.vec3(), **sel}, ["vector"]),
        sc.tagged("op", "rotate", {"origin": sc.vec3(), "axis": sc.vec3("axis direction"),
                                   "angle_deg": sc.number("degrees, right-hand rule",
                                                          minimum=-3600, maximum=3600),
                                   **sel}, ["origin", "axis", "angle_deg"]),
        sc.tagged("op", "mirror", {"origin": sc.vec3("a point on the mirror plane"),
                                   "normal": sc.vec3("the mirror plane's normal"),
                                   "copy": sc.boolean("true keeps the original"), **sel},
                  ["origin", "normal", "copy"]),
        sc.tagged("op", "scale", {"origin": sc.vec3(),
                                  "factor": sc.in_range(sc.SCALE_FACTOR_RANGE),
                                  **sel}, ["origin", "factor"]),
        sc.tagged("op", "translate_copy", {"vector": sc.vec3(), **sel}, ["vector"]),
        sc.tagged("op", "linear_array", {"vector": sc.vec3("offset between instances"),
                                         "count": sc.integer("instances including the "
                                                             "original", minimum=2,
                                                             maximum=100), **sel},
                  ["vector", "count"]),
    ]
    return sc.parameters({
        "operations": sc.array({"anyOf": ops}, "applied in order", min_items=1),
    }, ["operations"])


def repair_schema() -> dict[str, Any]:
    merge = sc.obj({"tolerance": sc.number("merge distance; omit for a tolerance relative "
                                           "to the model size", minimum=sc.TOLERANCE_MIN)})
    return sc.parameters({
        "merge_coincident_nodes": merge,
        "delete_duplicate_elements": sc.boolean(),
        "delete_free_nodes": sc.boolean(),
    })


def audit_schema() -> dict[str, Any]:
    return sc.parameters({
        "checks": sc.array(sc.shape(AUDIT_CHECKS), "omit for all checks"),
    })


SCHEMAS = {
    "build_part": build_schema(),
    "edit_part": edit_schema(),
    "transform_part": transform_schema(),
    "repair_part": repair_schema(),
    "audit_part": audit_schema(),
}
DESCRIPTIONS = {
    "build_part": BUILD_DESCRIPTION,
    "edit_part": EDIT_DESCRIPTION,
    "transform_part": TRANSFORM_DESCRIPTION,
    "repair_part": REPAIR_DESCRIPTION,
    "audit_part": AUDIT_DESCRIPTION,
}
