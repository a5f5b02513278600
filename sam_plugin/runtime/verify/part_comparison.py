"""Exact verification (I13): the live part against the part the plan predicted.

Up to ``EXACT_LIMIT`` entities every node, element and set member is compared: coordinates
within a tolerance relative to the part's size, connectivity, set members, and labels where
they are predictable (an entity that existed before the run keeps its label; the host numbers
new ones, so those are matched by geometry). Above the limit: the bounding box and a sample of
the surviving entities, and the check's name says so. Every ``actual`` is read from the live
part, never copied from the prediction.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

import numpy as np

from sam_plugin.compilers.evidence import Check, Readback
from sam_plugin.compilers.plan import Box, PredictedPart, Vec3

EXACT_LIMIT = 50_000
SAMPLE_SIZE = 2_000
RELATIVE_TOLERANCE = 1e-6
SHOWN = 5  # differences named per check


def compare_with_plan(predicted: PredictedPart | None, live_part: Any, after: Readback,
                      basis: str = "") -> list[Check]:
    if predicted is None:
        return [Check(name="part compared with the plan", expected="counts and names only",
                      actual=basis or "the plan has no predicted part", ok=True)]
    if live_part is None:
        return [Check(name="part compared with the plan", expected="the part", actual="missing",
                      ok=False)]
    tol = _tolerance(predicted)
    if predicted.size > EXACT_LIMIT:
        return _sampled(predicted, live_part, after, tol)
    live = PredictedPart.of(live_part)
    mapping, node_check = _nodes(predicted, live, tol)
    checks = [node_check]
    if mapping is None:
        return checks
    checks.append(_elements(predicted, live, mapping))
    checks.append(_sets(predicted, live, mapping))
    if predicted.assignments is not None:
        checks.append(_assignments(predicted, live_part))
    return checks


def _tolerance(predicted: PredictedPart) -> float:
    box = predicted.bounding_box()
    if box is None:
        return RELATIVE_TOLERANCE
    extent = max(abs(v) for corner in box for v in corner)
    return RELATIVE_TOLERANCE * max(1.0, extent)


# -- nodes --------------------------------------------------------------------------------


def _nodes(predicted: PredictedPart, live: PredictedPart,
           tol: float) -> tuple[dict[int, int] | None, Check]:
    """(predicted label -> live label, the check); the mapping is None when it failed."""
    prior = predicted.prior_nodes
    expected = f"{len(predicted.nodes)} nodes at the planned coordinates (within {tol:.3g})"
    problems: list[str] = []
    kept = {k for k in predicted.nodes if k in prior}
    live_kept = {k for k in live.nodes if k in prior}
    problems += [f"node {k} missing (the plan keeps it)" for k in sorted(kept - live_kept)]
    problems += [f"node {k} still present (the plan removes it)"
                 for k in sorted(live_kept - kept)]
    both = sorted(kept & live_kept)
    problems += _moved([(k, predicted.nodes[k], k, live.nodes[k]) for k in both], tol)
    new = sorted(k for k in predicted.nodes if k not in prior)
    live_new = sorted(k for k in live.nodes if k not in prior)
    mapping = {k: k for k in both}
    if len(new) != len(live_new):
        problems.append(f"{len(live_new)} new nodes, the plan creates {len(new)}")
    elif new:
        pairs = _pair_by_geometry(new, predicted.nodes, live_new, live.nodes, tol)
        problems += _moved([(a, predicted.nodes[a], b, live.nodes[b]) for a, b in pairs], tol)
        mapping.update(pairs)
    check = _check("nodes match the plan (exact)", expected, problems,
                   f"{len(live.nodes)} nodes as planned")
    return (mapping if check.ok else None), check


def _moved(pairs: list[tuple[int, Vec3, int, Vec3]], tol: float) -> list[str]:
    if not pairs:
        return []
    planned = np.array([p for _, p, _, _ in pairs], dtype=np.float64)
    found = np.array([q for _, _, _, q in pairs], dtype=np.float64)
    off = np.abs(planned - found).max(axis=1)
    bad = np.nonzero(off > tol)[0]
    out = []
    for i in bad[: SHOWN + 1].tolist():
        label, plan, live_label, live = pairs[i]
        name = f"node {live_label}" + (f" (planned as {label})" if label != live_label else "")
        out.append(f"{name} at {_pt(live)}, the plan puts it at {_pt(plan)}")
    if len(bad) > SHOWN + 1:
        out.append(f"... {len(bad)} nodes off the plan in all")
    return out


def _pair_by_geometry(new: list[int], planned: dict[int, Vec3], live_new: list[int],
                      live: dict[int, Vec3], tol: float) -> list[tuple[int, int]]:
    """New nodes paired: by label when the host numbered them as the shadow did, else in
    coordinate order on the tolerance's grid (a wrong pairing shows up as a coordinate
    difference, never as a pass)."""
    if new == live_new:
        return list(zip(new, live_new, strict=True))

    def order(labels: list[int], points: dict[int, Vec3]) -> list[int]:
        return sorted(labels, key=lambda k: tuple(round(v / tol) for v in points[k]))
    return list(zip(order(new, planned), order(live_new, live), strict=True))


# -- elements -----------------------------------------------------------------------------


def _elements(predicted: PredictedPart, live: PredictedPart, mapping: dict[int, int]) -> Check:
    prior = predicted.prior_elements
    problems: list[str] = []
    kept = {k for k in predicted.elements if k in prior}
    live_kept = {k for k in live.elements if k in prior}
    problems += [f"element {k} missing (the plan keeps it)" for k in sorted(kept - live_kept)]
    problems += [f"element {k} still present (the plan deletes it)"
                 for k in sorted(live_kept - kept)]
    for k in sorted(kept & live_kept):
        shape, nodes = predicted.elements[k]
        want = (shape, tuple(mapping.get(n, -n) for n in nodes))
        if live.elements[k] != want:
            problems.append(f"element {k} is {_elem(live.elements[k])}, the plan says "
                            f"{_elem(want)}")
    planned_new = Counter((s, tuple(mapping.get(n, -n) for n in c))
                          for k, (s, c) in predicted.elements.items() if k not in prior)
    live_new = Counter(e for k, e in live.elements.items() if k not in prior)
    for key in sorted(planned_new - live_new):
        problems.append(f"new element {_elem(key)} missing (the plan creates it)")
    for key in sorted(live_new - planned_new):
        problems.append(f"new element {_elem(key)} is not in the plan")
    return _check("elements match the plan (exact)",
                  f"{len(predicted.elements)} elements with the planned shapes and nodes",
                  problems, f"{len(live.elements)} elements as planned")


# -- sets ---------------------------------------------------------------------------------


def _sets(predicted: PredictedPart, live: PredictedPart, mapping: dict[int, int]) -> Check:
    problems = []
    element_map = _element_mapping(predicted, live, mapping)
    for name, (nodes, elements) in sorted(predicted.sets.items()):
        if name not in live.sets:
            problems.append(f"set {name} missing")
            continue
        live_nodes, live_elements = live.sets[name]
        want_nodes = {mapping.get(k, -k) for k in nodes}
        want_elements = {element_map.get(k, -k) for k in elements}
        if live_nodes != want_nodes:
            problems.append(f"set {name}: nodes {_diff(live_nodes, want_nodes)}")
        if live_elements != want_elements:
            problems.append(f"set {name}: elements {_diff(live_elements, want_elements)}")
    problems += [f"set {name} is not in the plan" for name in sorted(set(live.sets) -
                                                                     set(predicted.sets))]
    return _check("set members match the plan (exact)",
                  f"{len(predicted.sets)} set(s) with the planned members", problems,
                  f"{len(live.sets)} set(s) as planned")


def _element_mapping(predicted: PredictedPart, live: PredictedPart,
                     mapping: dict[int, int]) -> dict[int, int]:
    by_key: dict[tuple[str, tuple[int, ...]], list[int]] = {}
    for k, value in live.elements.items():
        if k not in predicted.prior_elements:
            by_key.setdefault(value, []).append(k)
    out = {k: k for k in predicted.elements if k in predicted.prior_elements}
    for k, (shape, nodes) in sorted(predicted.elements.items()):
        if k in predicted.prior_elements:
            continue
        found = by_key.get((shape, tuple(mapping.get(n, -n) for n in nodes)))
        if found:
            out[k] = found.pop(0)
    return out


# -- section assignments ------------------------------------------------------------------


def _assignments(predicted: PredictedPart, live_part: Any) -> Check:
    """Every element's sections, read from the live part's section assignments."""
    planned = predicted.assignments or {}
    found: dict[int, list[str]] = {}
    for entry in live_part.sectionAssignments:
        for element in entry.region.elements:
            found.setdefault(int(element.label), []).append(str(entry.sectionName))
    problems = []
    for label in sorted(set(planned) | set(found)):
        want, have = tuple(planned.get(label, ())), tuple(found.get(label, ()))
        if want != have:
            problems.append(f"element {label} has {_sections(have)}, the plan gives it "
                            f"{_sections(want)}")
    return _check("section assignments match the plan (exact)",
                  f"{len(planned)} elements with the planned sections", problems,
                  f"{len(found)} elements with the planned sections")


def _sections(names: tuple[str, ...]) -> str:
    return ("section " + ", ".join(names)) if names else "no section"


# -- above the exact limit ----------------------------------------------------------------


def _sampled(predicted: PredictedPart, live_part: Any, after: Readback, tol: float) -> list[Check]:
    problems: list[str] = []
    box = predicted.bounding_box()
    if box is not None and after.bounding_box is not None and not _same_box(
            box, after.bounding_box, tol):
        problems.append(f"bounding box {_box(after.bounding_box)}, the plan says {_box(box)}")
    kept = sorted(k for k in predicted.nodes if k in predicted.prior_nodes)
    for label in _sample(kept):
        try:
            node = live_part.nodes.getFromLabel(label)
        except Exception:
            problems.append(f"node {label} missing (the plan keeps it)")
            continue
        x, y, z = node.coordinates
        problems += _moved([(label, predicted.nodes[label], label,
                             (float(x), float(y), float(z)))], tol)
    kept_elements = sorted(k for k in predicted.elements if k in predicted.prior_elements)
    for label in _sample(kept_elements):
        try:
            element = live_part.elements.getFromLabel(label)
        except Exception:
            problems.append(f"element {label} missing (the plan keeps it)")
            continue
        found = (str(element.type), tuple(int(k) for k in element.connectivity))
        if found != predicted.elements[label]:
            problems.append(f"element {label} is {_elem(found)}, the plan says "
                            f"{_elem(predicted.elements[label])}")
    return [_check(
        f"part matches the plan (sampled: above {EXACT_LIMIT} entities, bounding box and "
        f"{min(SAMPLE_SIZE, len(kept))} nodes, {min(SAMPLE_SIZE, len(kept_elements))} "
        "elements compared)", "the planned bounding box and sampled entities", problems,
        "as planned")]


def _sample(labels: list[int]) -> list[int]:
    if len(labels) <= SAMPLE_SIZE:
        return labels
    step = len(labels) / SAMPLE_SIZE
    return [labels[int(i * step)] for i in range(SAMPLE_SIZE)]


def _same_box(a: Box, b: Box, tol: float) -> bool:
    return all(abs(x - y) <= tol for p, q in zip(a, b, strict=True)
               for x, y in zip(p, q, strict=True))


# -- words ----------------------------------------------------------------------------------


def _check(name: str, expected: str, problems: list[str], fine: str) -> Check:
    if not problems:
        return Check(name=name, expected=expected, actual=fine, ok=True)
    shown = problems[:SHOWN]
    more = f"; +{len(problems) - SHOWN} more" if len(problems) > SHOWN else ""
    return Check(name=name, expected=expected, actual="; ".join(shown) + more, ok=False)


def _diff(live: Iterable[int], planned: Iterable[int]) -> str:
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


def _elem(value: tuple[str, tuple[int, ...]]) -> str:
    shape, nodes = value
    return f"{shape} on nodes {', '.join(str(k) if k > 0 else '?' for k in nodes)}"


def _pt(p: Iterable[float]) -> str:
    return "(" + ", ".join(f"{float(v):.6g}" for v in p) + ")"


def _box(box: Box) -> str:
    return f"{_pt(box[0])}..{_pt(box[1])}"
