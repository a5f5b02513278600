"""``query_regions``: the L2 region index on demand, whole or zoomed into a box (the
exploration's read-only tool, docs/architecture.md §1)."""

from __future__ import annotations

from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from sam_plugin.errors import QueryError
from sam_plugin.runtime.observe.region_schema import DEFAULT_GRID_CELLS, DEFAULT_STATIONS
from sam_plugin.runtime.observe.regions import (
    RegionIndexCache,
    build_region_index,
    named_set_regions,
    region_index,
)
from sam_plugin.samops.readback import mesh_of

REGION_SECTIONS: tuple[str, ...] = ("all", "components", "grid", "sets", "shapes", "stations")
_VEC3 = {"type": "array", "items": {"type": "number"}, "minItems": 3, "maxItems": 3}

REGION_QUERY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "section": {"enum": list(REGION_SECTIONS),
                    "description": "which part of the region index to return (default all)"},
        "box": {
            "type": "object",
            "additionalProperties": False,
            "required": ["min", "max"],
            "properties": {"min": _VEC3, "max": _VEC3},
            "description": "zoom: index only nodes inside this box and elements whose nodes "
                           "are all inside, with a grid of the same budget over the box",
        },
        "grid_cells": {"type": "integer", "minimum": 1, "maximum": 256,
                       "description": f"grid cell budget (default {DEFAULT_GRID_CELLS})"},
        "stations": {"type": "integer", "minimum": 2, "maximum": 41,
                     "description": f"stations along the longest axis (default "
                                    f"{DEFAULT_STATIONS})"},
        "names": {"type": "array", "items": {"type": "string", "minLength": 1},
                  "minItems": 1, "maxItems": 64,
                  "description": "section=sets only: the sets to describe"},
    },
}
_REGION_VALIDATOR = Draft202012Validator(REGION_QUERY_SCHEMA)
_SECTION_FIELDS = {"components": ("components_total", "components"), "grid": ("grid",),
                   "sets": ("sets_total", "sets"), "shapes": ("shapes",),
                   "stations": ("stations",)}


def validate_region_query(arguments: Any) -> dict[str, Any]:
    if not isinstance(arguments, dict):
        raise QueryError(f"arguments: expected an object; got {type(arguments).__name__}")
    error = best_match(_REGION_VALIDATOR.iter_errors(arguments))
    if error is not None:
        path = ".".join(str(p) for p in error.absolute_path) or "arguments"
        legal = ""
        if error.validator == "additionalProperties":
            legal = f"; legal fields: {', '.join(REGION_QUERY_SCHEMA['properties'])}"
        raise QueryError(f"{path}: {error.message}{legal}")
    if "names" in arguments and arguments.get("section") != "sets":
        raise QueryError("names: only used with section='sets'")
    box = arguments.get("box")
    if box is not None and any(lo > hi for lo, hi in zip(box["min"], box["max"], strict=True)):
        raise QueryError(f"box.min: every coordinate of min must be <= max; got min "
                               f"{box['min']}, max {box['max']}")
    return arguments


def query_regions(part: Any, arguments: Any, *, fingerprint: str,
                  cache: RegionIndexCache | None = None) -> dict[str, Any]:
    """Answer one ``query_regions`` call (reads only); raises ``QueryError``."""
    query = validate_region_query(arguments)
    if part is None:
        raise QueryError("part: the target part does not exist; there is nothing to query")
    section = query.get("section", "all")
    box = query.get("box")
    grid_cells = query.get("grid_cells", DEFAULT_GRID_CELLS)
    stations = query.get("stations", DEFAULT_STATIONS)
    answer: dict[str, Any] = {"section": section}
    if box is not None:
        low, high = box["min"], box["max"]
        bounds = {"xMin": low[0], "yMin": low[1], "zMin": low[2],
                  "xMax": high[0], "yMax": high[1], "zMax": high[2]}
        arrays = mesh_of(tuple(part.nodes.getByBoundingBox(**bounds)),
                         tuple(part.elements.getByBoundingBox(**bounds)))
        index = build_region_index(part, fingerprint, arrays=arrays, grid_cells=grid_cells,
                                   stations=stations, include_sets=False)
        answer["box"] = box
        answer["note"] = ("zoomed: nodes inside the box and elements whose nodes are all "
                          "inside; components and free nodes are counted inside the box only")
    elif grid_cells != DEFAULT_GRID_CELLS or stations != DEFAULT_STATIONS:
        index = build_region_index(part, fingerprint, grid_cells=grid_cells, stations=stations)
    else:
        index = region_index(part, fingerprint, cache=cache)
    if section == "sets" and "names" in query:
        regions, total = named_set_regions(part, query["names"])
        answer.update(sets_total=total, sets=[r.model_dump(mode="json") for r in regions])
        return answer
    dumped = index.model_dump(mode="json")
    if section == "all":
        answer.update(dumped)
    else:
        answer.update({key: dumped[key] for key in _SECTION_FIELDS[section]})
        answer["notes"] = dumped["notes"]
    return answer
