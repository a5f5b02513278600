"""What an audit found, as table rows: ``part_audit.json``, ``mesh_audit.json`` and
``property_audit.json`` read from the run directory (the files stay the full record).

Each row names a finding in words, its value, and the element labels it concerns (so the dock
can ask the host to highlight them).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sam_plugin.ui.i18n import tr

AUDIT_FILES = ("part_audit.json", "mesh_audit.json", "property_audit.json")
SKIPPED = frozenset({"part", "checks", "definitions", "element_size_histogram", "shape_counts"})
NODE_FINDINGS = frozenset({"free_nodes", "coincident_nodes", "hanging_nodes", "free_edges"})


@dataclass(frozen=True)
class Finding:
    name: str
    value: str
    elements: list[int] = field(default_factory=list)  # element labels it concerns
    detail: str = ""  # tooltip: the labels, the definition
    length: bool = False  # the value is a length (the view adds the model's unit)


def finding_title(key: str) -> str:
    return {
        "counts": tr("Counts"),
        "nodes": tr("Nodes"),
        "elements": tr("Elements"),
        "node_count": tr("Nodes"),
        "element_count": tr("Elements"),
        "bounding_box": tr("Bounding box"),
        "tolerance": tr("Audit: nodes closer than this count as coincident"),
        "free_nodes": tr("Free nodes"),
        "duplicate_elements": tr("Duplicate elements"),
        "coincident_nodes": tr("Coincident nodes"),
        "degenerate_elements": tr("Degenerate elements"),
        "hanging_nodes": tr("Hanging nodes"),
        "free_edges": tr("Free edges"),
        "inverted_elements": tr("Inverted elements"),
        "aspect_ratio": tr("Aspect ratio"),
        "min_angle": tr("Smallest angle (°)"),
        "max_angle": tr("Largest angle (°)"),
        "min_angle_deg": tr("Smallest angle (°)"),
        "max_angle_deg": tr("Largest angle (°)"),
        "warping": tr("Warping (°)"),
        "warping_deg": tr("Warping (°)"),
        "skew": tr("Skew"),
        "sets": tr("Sets"),
        "shapes": tr("Shapes"),
    }.get(key, key.replace("_", " ").capitalize())


def _number(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def _flat_labels(value: Any) -> list[int]:
    if isinstance(value, int):
        return [value]
    if isinstance(value, list):
        return [label for item in value for label in _flat_labels(item)]
    return []


def _labels_tip(labels: list[int], truncated: bool) -> str:
    if not labels:
        return ""
    shown = ", ".join(str(label) for label in labels[:40])
    more = " …" if truncated or len(labels) > 40 else ""
    return tr("Labels: {labels}").format(labels=shown + more)


def _finding(key: str, entry: dict[str, Any]) -> Finding | None:
    labels = _flat_labels(entry.get("labels", entry.get("edges", [])))
    elements = [] if key in NODE_FINDINGS else labels
    truncated = bool(entry.get("truncated"))
    if "worst" in entry:  # part audit quality: the worst value and the offenders
        worst = "—" if entry["worst"] is None else _number(entry["worst"])
        value = tr("worst {worst} (limit {limit}); {count} beyond the limit").format(
            worst=worst, limit=_number(entry.get("threshold")), count=entry.get("total", 0))
        return Finding(finding_title(key), value, elements, _labels_tip(labels, truncated))
    if {"min", "mean", "max"} <= set(entry):
        value = tr("min {min}, mean {mean}, max {max}").format(
            min=_number(entry["min"]), mean=_number(entry["mean"]), max=_number(entry["max"]))
        return Finding(finding_title(key), value)
    count = entry.get("total", entry.get("count"))
    if count is None:
        return None
    value = str(count)
    if "extra_elements" in entry:
        value = tr("{groups} group(s), {extra} extra element(s)").format(
            groups=count, extra=entry["extra_elements"])
    return Finding(finding_title(key), value, elements, _labels_tip(labels, truncated))


def findings_of(data: dict[str, Any]) -> list[Finding]:
    """Rows for one audit report, in the report's order."""
    rows: list[Finding] = []
    for key, entry in data.items():
        if key in SKIPPED:
            continue
        if key == "counts" and isinstance(entry, dict):
            shapes = ", ".join(f"{s} {n}" for s, n in (entry.get("shapes") or {}).items() if n)
            rows.append(Finding(tr("Nodes / elements"),
                                f"{entry.get('nodes')} / {entry.get('elements')}"
                                + (f" ({shapes})" if shapes else "")))
            continue
        if key == "bounding_box" and isinstance(entry, dict):
            rows.append(Finding(finding_title(key), "({}) – ({})".format(
                ", ".join(_number(v) for v in entry.get("min", [])),
                ", ".join(_number(v) for v in entry.get("max", []))), length=True))
            continue
        if key == "quality" and isinstance(entry, dict):
            rows += [f for sub, value in entry.items() if isinstance(value, dict)
                     for f in [_finding(sub, value)] if f is not None]
            continue
        if isinstance(entry, dict):
            found = _finding(key, entry)
            if found is not None:
                rows.append(found)
        elif key == "tolerance" and isinstance(entry, int | float):
            rows.append(Finding(finding_title(key), _number(entry), detail=tr(
                "The distance the audit uses to find coincident and degenerate entities: "
                "relative to the part's size. A merge uses the tolerance its operation names "
                "(shown as the repair's row)."), length=True))
        elif isinstance(entry, int | float | str) and not isinstance(entry, bool):
            rows.append(Finding(finding_title(key), _number(entry)))
        elif isinstance(entry, list):
            rows.append(Finding(finding_title(key), ", ".join(map(str, entry)) or "—"))
    return rows


def audit_findings(run_dir: Path | None) -> list[Finding]:
    """Every audit file of the run, its rows after a heading row per file."""
    if run_dir is None:
        return []
    rows: list[Finding] = []
    for name in AUDIT_FILES:
        path = Path(run_dir) / name
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict):
            rows += findings_of(data)
    return _with_merge_tolerance(run_dir, rows)


def merge_tolerances(run_dir: Path) -> list[float | None]:
    """The tolerance of every merge the run's calls asked for (None: the part's default)."""
    try:
        calls = json.loads((Path(run_dir) / "normalized_calls.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    found: list[float | None] = []
    for call in calls if isinstance(calls, list) else []:
        arguments = call.get("arguments") if isinstance(call, dict) else None
        merge = arguments.get("merge_coincident_nodes") if isinstance(arguments, dict) else None
        if isinstance(merge, dict):
            tolerance = merge.get("tolerance")
            found.append(float(tolerance) if isinstance(tolerance, int | float) else None)
    return found


def _with_merge_tolerance(run_dir: Path, rows: list[Finding]) -> list[Finding]:
    """Beside the audit's own distance, the tolerance the run's merge used, labelled apart:
    the two numbers are different things."""
    merges = merge_tolerances(run_dir)
    if not rows or not merges:
        return rows
    words = ", ".join(_number(t) if t is not None else tr("the part's default")
                      for t in merges)
    merge = Finding(tr("Repair: merged nodes closer than"), words, detail=tr(
        "The tolerance the repair operation used to merge coincident nodes"), length=True)
    titles = [row.name for row in rows]
    at = titles.index(finding_title("tolerance")) + 1 if finding_title("tolerance") in titles \
        else len(rows)
    return [*rows[:at], merge, *rows[at:]]
