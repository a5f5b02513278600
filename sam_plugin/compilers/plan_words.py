"""Shared words for plans: selectors and vectors as an analyst reads them, and the entities a
selector picks on a (live or shadow) part. Used by every module's ``describe``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sam_plugin.compilers.plan import Touched, touched
from sam_plugin.samops import selection


def selector_words(literal: Mapping[str, Any] | None) -> str:
    if not literal:
        return "all"
    kind = literal.get("by")
    if kind == "labels":
        labels = list(literal["labels"])
        more = f" (+{len(labels) - 20} more)" if len(labels) > 20 else ""
        return f"labels {labels[:20]}{more}"
    if kind == "set":
        return f"in set {literal['name']}"
    if kind == "shape":
        return f"all {literal['shape']}"
    if kind == "box":
        return f"in box {point(literal['min'])}..{point(literal['max'])}"
    return "all"


def point(values: Sequence[float]) -> str:
    return "(" + ", ".join(f"{float(v):.6g}" for v in values) + ")"


def picked_elements(part: Any, literal: Mapping[str, Any]) -> list[Touched]:
    """The elements (and their count and box) ``literal`` picks on ``part``; [] when it cannot
    tell (no part, or a selector the part cannot resolve: the compile reported that)."""
    if part is None:
        return []
    try:
        elements = selection.select_elements(part, literal)
    except Exception:
        return []
    coordinates = {n.label: tuple(n.coordinates) for n in selection.nodes_of(part, elements)}
    points = [coordinates[k] for e in elements for k in e.connectivity if k in coordinates]
    return [touched("elements", [e.label for e in elements], points)]
