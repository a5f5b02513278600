"""The read-only Part audit: writes ``part_audit.json`` into the run's output directory.

Every finding carries its offending labels (a capped list) and the total.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from sam_plugin.samops import part_inspect as inspect
from sam_plugin.samops.geometry import box_tolerance, size_tolerance
from sam_plugin.samops.mesh_read import PartMesh, column_box, read_mesh
from sam_plugin.samops.part_scope import among, unique

AUDIT_FILENAME = "part_audit.json"
LABEL_CAP = 100
THRESHOLDS = {"aspect_ratio": 5.0, "min_angle_deg": 30.0, "max_angle_deg": 150.0,
              "warping_deg": 10.0}


def _finding(labels: Sequence[Any]) -> dict[str, Any]:
    return {"total": len(labels), "labels": list(labels[:LABEL_CAP]),
            "truncated": len(labels) > LABEL_CAP}


def _counts(part: Any, mesh: PartMesh) -> dict[str, Any]:
    shapes = {"QUAD": 0, "TRI": 0, "BEAM": 0}
    found = np.bincount(mesh.shape_codes, minlength=len(mesh.shape_names))
    shapes.update(zip(mesh.shape_names, map(int, found), strict=True))
    return {"nodes": mesh.node_count, "elements": mesh.element_count, "shapes": shapes,
            "sets": sorted(part.sets.keys())}


def _bounding_box(mesh: PartMesh) -> dict[str, Any] | None:
    if not mesh.node_count:
        return None
    low, high = column_box(mesh.coordinates)
    return {"min": list(low), "max": list(high)}


def _tolerance(mesh: PartMesh) -> float:
    if not mesh.node_count:
        return size_tolerance(())
    return box_tolerance(*column_box(mesh.coordinates))


def _free_nodes(mesh: PartMesh) -> list[int]:
    """Nodes no element uses, in label order (whole arrays: one read of the part)."""
    used = unique(mesh.connectivity)
    free: list[int] = np.sort(mesh.node_labels[~among(mesh.node_labels, used)]).tolist()
    return free


def _quality(part: Any, coords: dict[int, tuple[float, float, float]]) -> dict[str, Any]:
    worst: dict[str, float] = {}
    offenders: dict[str, list[int]] = {key: [] for key in THRESHOLDS}
    for element in part.elements:
        shape = str(element.type)
        if shape == "BEAM":
            continue
        points = [coords[label] for label in element.connectivity]
        for key, value in inspect.element_quality(points, shape).items():
            low_is_bad = key == "min_angle_deg"
            current = worst.get(key)
            if current is None or (value < current if low_is_bad else value > current):
                worst[key] = value
            limit = THRESHOLDS[key]
            if (value < limit) if low_is_bad else (value > limit):
                offenders[key].append(element.label)
    report: dict[str, Any] = {}
    for key, limit in THRESHOLDS.items():
        found = worst.get(key)
        report[key] = {
            "worst": None if found is None or math.isinf(found) else round(found, 6),
            "threshold": limit,
            **_finding(offenders[key]),
        }
    return report


def audit(part: Any, checks: Sequence[str]) -> dict[str, Any]:
    """The audit report as a dict (nothing is changed). Counts, the box, the tolerance and
    free nodes come from one read of the mesh into arrays; the per-element checks read the
    coordinates they need."""
    mesh = read_mesh(part)
    tolerance = _tolerance(mesh)
    report: dict[str, Any] = {"part": part.name, "checks": list(checks),
                              "tolerance": tolerance, "bounding_box": _bounding_box(mesh)}
    coords: dict[int, tuple[float, float, float]] | None = None
    if "counts" in checks:
        report["counts"] = _counts(part, mesh)
    if "free_nodes" in checks:
        report["free_nodes"] = _finding(_free_nodes(mesh))
    if "duplicate_elements" in checks:
        groups = inspect.duplicate_groups(part)
        report["duplicate_elements"] = {**_finding([g[1:] for g in groups]),
                                        "extra_elements": sum(len(g) - 1 for g in groups)}
    if "coincident_nodes" in checks:
        groups = inspect.coincident_groups(part, tolerance)
        report["coincident_nodes"] = _finding(groups)
    if "degenerate_elements" in checks:
        coords = inspect.node_coordinates(part)
        report["degenerate_elements"] = _finding(
            inspect.degenerate_labels(part, tolerance, coords))
    if "quality" in checks:
        report["quality"] = _quality(part, coords or inspect.node_coordinates(part))
    return report


def write_audit(part: Any, output_dir: str, checks: Sequence[str]) -> str:
    """Write ``part_audit.json`` and return its path."""
    path = os.path.join(output_dir, AUDIT_FILENAME)
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(audit(part, checks), handle, indent=2, sort_keys=True)
    return path
