"""Warnings at Review (docs/architecture.md §4 "The spec"): where the spec disagrees with the
part as observed now, said before Confirm rather than only at the plan.

A spec written for another state of the part (a replayed recording, a part changed since the
request was typed) names labels or sets the part does not have, scopes that pick nothing, or
expects counts its steps cannot reach. Pure: the observed part is read, never changed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sam_plugin.compilers.selectors import selector_literal
from sam_plugin.compilers.spec.ir import Spec
from sam_plugin.compilers.spec.render import step_phrase
from sam_plugin.compilers.spec.vocabulary import Members, Vocabulary
from sam_plugin.compilers.units import UnitSystem
from sam_plugin.errors import SelectionError
from sam_plugin.samops import selection


def review_warnings(spec: Spec, vocabulary: Vocabulary, part: Any,
                    counts: Mapping[str, Any], units: UnitSystem | None = None) -> list[str]:
    """What the analyst should know before confirming. ``counts`` is the part as observed:
    ``nodes``, ``elements``, ``shapes`` (shape -> count) and ``sets`` (names); ``units``: the
    steps' values are said with them (``compilers/units.py``)."""
    found: list[str] = []
    picked: list[tuple[int, int, int]] = []  # (step number, elements, nodes)
    created = _created_sets(spec)
    for number, step in enumerate(spec.steps, start=1):
        action = vocabulary.action(step.action)
        if action is None or step.scope is None:
            continue
        said = f"step {number} ({step_phrase(step, vocabulary, units=units)})"
        literal = selector_literal(step.scope)
        if literal.get("by") == "set" and literal.get("name") in created.get(number, set()):
            continue
        try:
            elements, nodes = _picked(part, literal, action.members)
        except SelectionError as error:
            found.append(f"{said}: {error} on the part as it is now")
            continue
        if not (elements or nodes):
            found.append(f"{said} picks nothing on the part as it is now")
        picked.append((number, elements, nodes))
    found += _selected(spec, picked)
    if all((a := vocabulary.action(s.action)) is not None and a.keeps_counts
           for s in spec.steps):
        found += _unchanged_counts(spec, counts)
    found += _sets(spec, counts, created)
    return found


def _picked(part: Any, literal: Mapping[str, Any], members: Members) -> tuple[int, int]:
    if part is None:
        raise SelectionError("the part does not exist")
    if literal.get("by") == "all":  # what each selection of "all" picks, counted not listed
        return (0 if members == "nodes" else len(part.elements),
                len(part.nodes) if members != "elements" else 0)
    if members == "nodes":
        return 0, len(selection.select_nodes(part, literal))
    if members == "transform":
        elements, nodes = selection.select_transform_nodes(part, literal)
        return len(elements), len(nodes)
    return len(selection.select_elements(part, literal)), 0


def _created_sets(spec: Spec) -> dict[int, set[str]]:
    """Step number -> the sets earlier steps create (a later step may pick them)."""
    made: set[str] = set()
    out: dict[int, set[str]] = {}
    for number, step in enumerate(spec.steps, start=1):
        out[number] = set(made)
        name = step.values.get("name") if step.action == "create_set" else None
        if isinstance(name, str):
            made.add(name)
        made.update(n for n in step.values.get("sets", ()) if isinstance(n, str))
    out[0] = made
    return out


def _selected(spec: Spec, picked: Sequence[tuple[int, int, int]]) -> list[str]:
    wanted = spec.expected.selected
    if wanted is None or not picked:
        return []
    if any(wanted in (elements, nodes) for _, elements, nodes in picked):
        return []
    number, elements, nodes = picked[0]
    what = f"{elements} elements" if elements else f"{nodes} nodes"
    return [f"the spec expects its steps to act on {wanted}; step {number}'s scope picks {what} "
            "on the part as it is now"]


def _unchanged_counts(spec: Spec, counts: Mapping[str, Any]) -> list[str]:
    """Steps that change no count: the expected counts are the part's counts now."""
    expected = spec.expected
    found = []
    for noun, wanted in (("nodes", expected.nodes), ("elements", expected.elements)):
        now = counts.get(noun)
        if wanted is not None and now is not None and wanted != now:
            found.append(f"the spec expects {wanted} {noun} after the run, but its steps change "
                         f"no count and the part has {now} {noun} now")
    shapes = counts.get("shapes") or {}
    for shape, wanted in sorted(expected.shapes.items()):
        now = int(shapes.get(shape, 0))
        if wanted != now:
            found.append(f"the spec expects {wanted} {shape} elements after the run, but its "
                         f"steps change no count and the part has {now} now")
    return found


def _sets(spec: Spec, counts: Mapping[str, Any], created: Mapping[int, set[str]]) -> list[str]:
    present = set(counts.get("sets") or ())
    made = created.get(0, set())
    return [f"the spec expects a set {name} after the run; the part has no set {name} now and "
            "no step creates it" for name in spec.expected.sets
            if name not in present and name not in made]
