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

from sam_plugin.compilers.plan import (
    PlanCall,
    PlanDetail,
    PlanOperation,
    Touched,
    call_notes,
    touched,
)
from sam_plugin.compilers.plan_phrases import selector_phrase
from sam_plugin.compilers.plan_words import picked_elements, point
from sam_plugin.compilers.predicted_part import (
    DEFINITIONS,
    PredictedPart,
    before_contents,
    scoped,
    sorted_labels,
    unchanged,
)
from sam_plugin.compilers.protocol import CompileContext, Fragment
from sam_plugin.compilers.units import Quantity, UnitSystem, context_units, unit_table
from sam_plugin.samops import property_ops
from sam_plugin.samops.mesh_read import mesh_of
from sam_plugin.samops.part_contents import Keyed, PartContents
from sam_plugin.samops.part_scope import Scope, among, labels_array
from sam_plugin.words.phrase import RECORD, Measure, Phrase, Value, phrase, render

from . import phrases as _words  # noqa: F401 (registers the Property words)

METHOD = "N1_COSINES"  # how the script orients beams (property_ops.apply_assignments)


def describe(fragments: Sequence[Fragment], ctx: CompileContext) -> PlanDetail:
    part = ctx.part
    fingerprint = str(ctx.extra.get("before_fingerprint", ""))
    before = before_contents(ctx.model, part, fingerprint) if part is not None else None
    changes = _Changes(before)
    units = context_units(ctx)
    calls = [PlanCall(index=i, tool=f.tool, operations=_operations(f, part, changes, units),
                      notes=list(f.notes), note_phrases=call_notes(f.notes, f.note_phrases))
             for i, f in enumerate(fragments, start=1)]
    if before is None:
        return _detail(calls, phrase("basis.compilers_names",
                                     more="; the geometry must stay unchanged"))
    if all(f.read_only for f in fragments):
        return _detail(calls, phrase("basis.read_only"), unchanged(before, fingerprint))
    return _detail(calls, phrase("property.basis"), changes.predicted(before))


def _detail(calls: list[PlanCall], basis: Phrase,
            predicted: PredictedPart | None = None) -> PlanDetail:
    return PlanDetail(calls=calls, predicted=predicted, basis=render(basis),
                      basis_phrase=basis)


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


def _said(value: float, quantity: Quantity) -> Measure:
    """``210000``, said ``210000 MPa`` when the plan says units."""
    return Measure(said=f"{value:g}", quantity=quantity)


def _op(said: Phrase, units: UnitSystem | None, *, destructive: bool = False,
        touched: list[Touched] | None = None) -> PlanOperation:
    """An operation of the plan: its phrase, and its record in the plan's units."""
    return PlanOperation(text=render(said, RECORD, unit_table(units)), phrase=said,
                         destructive=destructive, touched=touched or [])


def _operations(fragment: Fragment, part: Any, changes: _Changes,
                units: UnitSystem | None = None) -> list[PlanOperation]:
    """``units``: the unit system the values are said in (none: bare numbers)."""
    args = fragment.normalized
    ops = []
    for material in args.get("materials", ()):
        density = material.get("density")
        changes.definitions.add(("material", material["name"]))
        values: dict[str, Value] = {"name": str(material["name"]),
                                    "E": _said(material["youngs_modulus"], "stress"),
                                    "nu": f"{material['poisson_ratio']:g}"}
        if density is not None:
            values["density"] = _said(density, "density")
        ops.append(_op(Phrase(key="property.material_density" if density is not None
                              else "property.material", values=values), units))
    for section in args.get("sections", ()):
        changes.definitions.add(("section", section["name"]))
        name, material_name = str(section["name"]), str(section["material"])
        if section.get("kind") == "shell":
            said = phrase("property.shell", name=name, material=material_name,
                          thickness=_said(section["thickness"], "length"))
        else:
            changes.definitions.add(("profile", property_ops.profile_name(section["name"])))
            profile = dict(section.get("profile") or {})
            shape = profile.pop("shape", "?")
            said = phrase("property.beam", name=name, material=material_name, shape=str(shape),
                          dimensions=[phrase("property.dimension", name=str(k),
                                             value=_said(v, "length"))
                                      for k, v in profile.items()])
        ops.append(_op(said, units))
    for assignment in args.get("assignments", ()):
        literal = assignment["selection"]
        name = assignment["section"]
        ops.append(_op(phrase("property.assign", name=str(name),
                              which=selector_phrase(literal)), units,
                       touched=picked_elements(part, literal)))
        ops += _reassigned(part, literal, name, changes)
    for orientation in args.get("beam_orientations", ()):
        literal = orientation["selection"]
        ops.append(_op(phrase("property.orient", which=selector_phrase(literal, "beams"),
                              n1=point(orientation["n1"])), units,
                       touched=picked_elements(part, literal)))
        _oriented(part, literal, orientation["n1"], changes)
    if fragment.tool == "audit_property":
        ops.append(_op(phrase("plan.audit", file="property_audit.json"), units))
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
    return [_op(phrase("property.replaces", names=", ".join(lost)), None, destructive=True,
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
