"""How a verification difference is said in a check row (``part_comparison.py``): a
record, a point, an element, labels missing or not planned; the first few named."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sam_plugin.runtime.verify.entity_matching import Element

SHOWN = 5  # differences named per check


def record_words(kind: str, record: Any) -> str:
    if kind == "set members":
        what, name, label = record
        return f"{what[:-1]} {label} in set {name}"
    if kind == "section assignments":
        return f"section {record[0]} on element {record[1]}"
    if kind == "beam orientations":
        return f"n1 {point_words(record[0][1])} on element {record[1]}"
    if kind == "sets":
        return f"set {record[0]}"
    return f"{record[0][0]} {record[0][1]} ({record[0][2]})"


def named(found: list[str]) -> str:
    if not found:
        return ""
    more = f", +{len(found) - SHOWN} more" if len(found) > SHOWN else ""
    return ": " + ", ".join(found[:SHOWN]) + more


def values_words(values: tuple[Any, ...], word: Any, noun: str) -> str:
    return ", ".join(word(v) for v in values) if values else f"no {noun[:-1]}"


def label_diff(live: Iterable[int], planned: Iterable[int]) -> str:
    live, planned = set(live), set(planned)
    extra = sorted(k for k in live - planned if k > 0)
    missing = sorted(k for k in planned - live)
    parts = []
    if missing:
        parts.append("missing " + ", ".join(str(k) if k > 0 else f"(planned {-k})"
                                            for k in missing[:10]))
    if extra:
        parts.append("not planned " + ", ".join(map(str, extra[:10])))
    return "; ".join(parts)


def element_words(value: Element) -> str:
    shape, nodes = value
    return f"{shape} on nodes {', '.join(str(k) if k > 0 else '?' for k in nodes)}"


def point_words(p: Iterable[float]) -> str:
    return "(" + ", ".join(f"{float(v):.6g}" for v in p) + ")"
