"""The Property plan: materials, sections and assignments in words, with the elements each
assignment picks on the live part (Property runs never change the geometry).

The predicted part is scoped to what the calls touch: the elements they assign (an element
keeps exactly one section, so an assignment takes its elements from any section they had —
marked destructive, with the elements named), the beams they orient (with the call's n1),
and the definitions they write. The verifier compares those exactly (the definitions by
their values, read back) and the rest of the part, geometry included, through the
fingerprint (I13, I16).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sam_plugin.compilers.plan import PlanCall, PlanDetail, PlanOperation, touched
from sam_plugin.compilers.plan_words import picked_elements, point, selector_words
from sam_plugin.compilers.predicted_part import (
    DEFINITIONS,
    PredictedPart,
    before_contents,
    scoped,
    sorted_labels,
    unchanged,
)
from sam_plugin.compilers.protocol import CompileContext, Fragment
from sam_plugin.compilers.units import Quantity, UnitSystem, context_units, with_unit
from sam_plugin.samops import property_ops
from sam_plugin.samops.mesh_read import mesh_of
from sam_plugin.samops.part_contents import Keyed, PartContents
from sam_plugin.samops.part_scope import Scope, among, labels_array

METHOD = "N1_COSINES"  # how the script orients beams (property_ops.apply_assignments)


def describe(fragments: Sequence[Fragment], ctx: CompileContext) -> PlanDetail:
    part = ctx.part
    fingerprint = str(ctx.extra.get("before_fingerprint", ""))
    before = before_contents(ctx.model, part, fingerprint) if part is not None else None
    changes = _Changes(before)
    units = context_units(ctx)
    calls = [PlanCall(index=i, tool=f.tool, operations=_operations(f, part, changes, units),
                      notes=list(f.notes)) for i, f in enumerate(fragments, start=1)]
    if before is None:
        return PlanDetail(calls=calls, basis=(
            "counts and names predicted by the compilers; the geometry must stay unchanged"))
    if all(f.read_only for f in fragments):
        return PlanDetail(calls=calls, predicted=unchanged(before, fingerprint),
                          basis="read-only: the part stays as it is (fingerprint unchanged)")
    return PlanDetail(calls=calls, predicted=changes.predicted(before), basis=(
        "exact: the geometry unchanged, the sections and orientations the calls give the "
        "elements they pick; the definitions they write read back by value"))


class _Changes:
    """What the calls give the elements they pick: one section each, the last n1 each (an
    assignment takes its elements from any section or orientation they had)."""

    def __init__(self, before: PartContents | None) -> None:
        self._before = before
        self.sections: dict[int, str] = {}
        self.orientations: dict[int, tuple[float, float, float]] = {}
        self.definitions: set[tuple[str, str]] = set()

    def current_sections(self, labels: list[int]) -> dict[int, tuple[str, ...]]:
        """The sections ``labels`` have before this assignment (earlier calls included)."""
        found: dict[int, tuple[str, ...]] = {}
        if self._before is not None and len(self._before.assignments):
            records = self._before.assignments
            found = records.take(among(records.labels, labels_array(labels))).by_label()
        found.update({k: (v,) for k, v in self.sections.items() if k in set(labels)})
        return found

    def predicted(self, before: PartContents) -> PredictedPart:
        scope = Scope(prior_nodes=sorted_labels(before.mesh.node_labels),
                      prior_elements=sorted_labels(before.mesh.element_labels),
                      assigned=labels_array(self.sections),
                      oriented=labels_array(self.orientations),
                      definitions=frozenset(self.definitions))
        image = PartContents(
            mesh=mesh_of((), ()),
            assignments=Keyed.of([(name, [label]) for label, name in self.sections.items()]),
            orientations=Keyed.of([((METHOD, n1), [label])
                                   for label, n1 in self.orientations.items()]))
        return scoped(before, scope, image,
                      unpredicted=(DEFINITIONS,) if self.definitions else ())


def _said(value: float, quantity: Quantity, units: UnitSystem | None) -> str:
    """``210000``, or ``210000 MPa`` when the plan says units."""
    return with_unit(f"{value:g}", quantity, units)


def _operations(fragment: Fragment, part: Any, changes: _Changes,
                units: UnitSystem | None = None) -> list[PlanOperation]:
    """``units``: the unit system the values are said in (none: bare numbers)."""
    args = fragment.normalized
    ops = []
    for material in args.get("materials", ()):
        density = material.get("density")
        changes.definitions.add(("material", material["name"]))
        ops.append(PlanOperation(text=(
            f"material {material['name']}: E {_said(material['youngs_modulus'], 'stress', units)}"
            f", nu {material['poisson_ratio']:g}"
            + (f", density {_said(density, 'density', units)}" if density is not None else ""))))
    for section in args.get("sections", ()):
        changes.definitions.add(("section", section["name"]))
        if section.get("kind") == "shell":
            what = f"shell, thickness {_said(section['thickness'], 'length', units)}"
        else:
            changes.definitions.add(("profile", property_ops.profile_name(section["name"])))
            profile = dict(section.get("profile") or {})
            shape = profile.pop("shape", "?")
            what = f"beam, {shape} profile " + ", ".join(
                f"{k} {_said(v, 'length', units)}" for k, v in profile.items())
        ops.append(PlanOperation(text=f"section {section['name']} ({what}) of material "
                                 f"{section['material']}"))
    for assignment in args.get("assignments", ()):
        literal = assignment["selection"]
        name = assignment["section"]
        ops.append(PlanOperation(
            text=f"assign section {name} to elements {selector_words(literal)}",
            touched=picked_elements(part, literal)))
        ops += _reassigned(part, literal, name, changes)
    for orientation in args.get("beam_orientations", ()):
        literal = orientation["selection"]
        ops.append(PlanOperation(
            text=f"orient beams {selector_words(literal)} with n1 {point(orientation['n1'])}",
            touched=picked_elements(part, literal)))
        _oriented(part, literal, orientation["n1"], changes)
    if fragment.tool == "audit_property":
        ops.append(PlanOperation(text="audit (read-only); writes property_audit.json"))
    return ops


def _reassigned(part: Any, literal: Any, name: str, changes: _Changes) -> list[PlanOperation]:
    """Record the assignment; an element that had another section loses it."""
    if part is None:
        return []
    try:
        labels = property_ops.resolve_elements(part, literal)
    except Exception:  # the compile reported an unresolvable selector already
        return []
    current = changes.current_sections(labels)
    taken = sorted(k for k in labels if current.get(k) not in (None, (name,)))
    lost = sorted({s for k in taken for s in current[k]} - {name})
    for label in labels:
        changes.sections[label] = name
    if not taken:
        return []
    return [PlanOperation(text=f"replaces section {', '.join(lost)} on", destructive=True,
                          touched=[touched("elements", taken)])]


def _oriented(part: Any, literal: Any, n1: Any, changes: _Changes) -> None:
    """Record the orientation of the picked beams (the script orients BEAM elements only)."""
    if part is None:
        return
    try:
        labels = property_ops.resolve_elements(part, literal)
        beams = property_ops.shapes_of(part, labels).get("BEAM", [])
    except Exception:  # the compile reported an unresolvable selector already
        return
    vector = (float(n1[0]), float(n1[1]), float(n1[2]))
    for label in beams:
        changes.orientations[label] = vector
