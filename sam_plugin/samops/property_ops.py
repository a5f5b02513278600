"""Host-side Property operations: define materials and sections, assign them, orient beams,
and guard the geometry a Property run must not touch.

The compiler calls the read-only functions here (``definition_conflicts``,
``parallel_beams``, ``covering_entries``) on the live model to check a call before anything
runs; the generated script calls the same functions again in its preflight, so a check cannot
pass at compile time and be skipped in SAM.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sam_plugin.errors import PropertyScriptError
from sam_plugin.samops import readback, selection
from sam_plugin.samops.records import plain_exponent

# Sine of the angle below which n1 counts as parallel to a beam axis (about 0.06 degrees):
# the host cannot build a local 1-2 frame from two (nearly) parallel vectors.
PARALLEL_SINE = 1e-3
SHAPES_FOR_KIND = {"shell": ("QUAD", "TRI"), "beam": ("BEAM",)}
_SHOWN = 20


def list_labels(labels: Sequence[int]) -> str:
    shown = ", ".join(str(label) for label in labels[:_SHOWN])
    more = f" (+{len(labels) - _SHOWN} more)" if len(labels) > _SHOWN else ""
    return shown + more


# ------------------------------------------------------------------ geometry guard


def geometry_snapshot(part: Any) -> dict[str, Any]:
    """Counts and fingerprint of the part's mesh (``absent`` when there is no part)."""
    if part is None:
        return {"node_count": 0, "element_count": 0, "fingerprint": "absent"}
    return {
        "node_count": len(part.nodes),
        "element_count": len(part.elements),
        "fingerprint": readback.geometry_fingerprint(part),
    }


def assert_geometry_unchanged(part: Any, before: Mapping[str, Any]) -> None:
    """Raise when a Property script changed node/element counts or the geometry."""
    after = geometry_snapshot(part)
    changed = [key for key in ("node_count", "element_count", "fingerprint")
               if after[key] != before[key]]
    if changed:
        details = "; ".join(f"{key} {before[key]} -> {after[key]}" for key in changed)
        raise PropertyScriptError(
            f"Property run changed the part geometry ({details}); stopped before the "
            "postflight"
        )


class GeometryGuard:
    """The snapshot a Property script takes once in its preflights and verifies once, first
    thing in its postflights."""

    def __init__(self, snapshot: Mapping[str, Any]):
        self.snapshot = dict(snapshot)
        self.verified = False

    @classmethod
    def begin(cls, existing: Any, model: Any, part_name: str) -> GeometryGuard:
        if isinstance(existing, GeometryGuard):
            return existing
        return cls(geometry_snapshot(readback.find_part(model, part_name)))

    def verify(self, model: Any, part_name: str) -> None:
        if not self.verified:
            assert_geometry_unchanged(readback.find_part(model, part_name), self.snapshot)
            self.verified = True


# ------------------------------------------------------------------ definitions


def profile_name(section_name: str) -> str:
    return f"{section_name}_profile"


def material_definition(material: Any) -> dict[str, Any]:
    """A host material as the IR's plain fields (``None`` for undefined behaviours)."""
    elastic = material.elastic.table[0] if material.elastic is not None else (None, None)
    density = material.density.table[0][0] if material.density is not None else None
    return {
        "name": material.name,
        "youngs_modulus": elastic[0],
        "poisson_ratio": elastic[1],
        "density": density,
    }


def section_definition(model: Any, section: Any) -> dict[str, Any]:
    """A host section as the IR's plain fields (beam profiles resolved by name)."""
    kind = getattr(section, "kind", "")
    out: dict[str, Any] = {"name": section.name, "kind": kind, "material": section.material}
    if kind == "shell":
        out["thickness"] = section.thickness
    else:
        profile = section.profile
        if isinstance(profile, str):
            profile = model.profiles[profile] if profile in model.profiles.keys() else None
        out["profile"] = (
            None if profile is None else {"shape": profile.shape, **profile.dimensions()}
        )
    return out


def _same(existing: Mapping[str, Any], wanted: Mapping[str, Any]) -> bool:
    keys = set(existing) | set(wanted)
    return all(_close(existing.get(k), wanted.get(k)) for k in keys)


def _close(a: Any, b: Any) -> bool:
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return _same(a, b)
    if isinstance(a, int | float) and isinstance(b, int | float):
        return math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=0.0)
    return bool(a == b)


def copyable(number: Any) -> str:
    """A number as the message says it, in a form a JSON grammar lets a model copy back:
    ``7.85e-9``, not ``7.85e-09`` (llama.cpp's number rule ends an exponent at its first
    ``0``, so a model repeating the definition would write a density of 7.85)."""
    return plain_exponent(repr(number)) if isinstance(number, float) else repr(number)


def definition_conflicts(
    model: Any, materials: Sequence[Mapping[str, Any]], sections: Sequence[Mapping[str, Any]]
) -> tuple[list[str], list[str]]:
    """(conflicts, identical): names that exist with a different / the same definition."""
    conflicts: list[str] = []
    identical: list[str] = []
    for wanted in materials:
        name = wanted["name"]
        if name in model.materials.keys():
            existing = material_definition(model.materials[name])
            if _same(existing, wanted):
                identical.append(f"material {name!r}")
            else:
                conflicts.append(
                    f"material {name!r} already exists with a different definition "
                    f"(E={existing['youngs_modulus']}, nu={existing['poisson_ratio']}, "
                    f"density={copyable(existing['density'])})"
                )
    for wanted in sections:
        name = wanted["name"]
        if name in model.sections.keys():
            existing = section_definition(model, model.sections[name])
            if _same(existing, wanted):
                identical.append(f"section {name!r}")
            else:
                conflicts.append(
                    f"section {name!r} already exists with a different definition "
                    f"({_describe_section(existing)})"
                )
        elif wanted["kind"] == "beam" and profile_name(name) in model.profiles.keys():
            profile = model.profiles[profile_name(name)]
            existing_profile = {"shape": profile.shape, **profile.dimensions()}
            if not _same(existing_profile, wanted["profile"]):
                conflicts.append(
                    f"profile {profile_name(name)!r} (for section {name!r}) already exists "
                    f"with a different shape or dimensions ({existing_profile})"
                )
    return conflicts, identical


def _describe_section(section: Mapping[str, Any]) -> str:
    if section["kind"] == "shell":
        return f"shell, material {section['material']!r}, thickness {section['thickness']}"
    return f"beam, material {section['material']!r}, profile {section.get('profile')}"


def check_definitions(
    model: Any, materials: Sequence[Mapping[str, Any]], sections: Sequence[Mapping[str, Any]]
) -> None:
    """Preflight: refuse to run when a name exists with a different definition."""
    conflicts, _ = definition_conflicts(model, materials, sections)
    if conflicts:
        raise PropertyScriptError("; ".join(conflicts))


def verify_definitions(
    model: Any, materials: Sequence[Mapping[str, Any]], sections: Sequence[Mapping[str, Any]]
) -> None:
    """Postflight: every material and section of the call exists with its definition."""
    have_materials, have_sections = set(model.materials.keys()), set(model.sections.keys())
    missing = [f"material {m['name']!r}" for m in materials if m["name"] not in have_materials]
    missing += [f"section {s['name']!r}" for s in sections if s["name"] not in have_sections]
    if missing:
        raise PropertyScriptError(f"not found after define_property: {', '.join(missing)}")
    conflicts, _ = definition_conflicts(model, materials, sections)
    if conflicts:
        raise PropertyScriptError("after define_property: " + "; ".join(conflicts))


def define(
    model: Any, materials: Sequence[Mapping[str, Any]], sections: Sequence[Mapping[str, Any]]
) -> dict[str, dict[str, list[str]]]:
    """Create what does not exist yet; identical existing definitions are left as they are.
    The report names them as data: ``{"created": {"materials": [...], "sections": [...]},
    "unchanged": {...}}`` (the dock says them in words)."""
    created: dict[str, list[str]] = {"materials": [], "sections": []}
    unchanged: dict[str, list[str]] = {"materials": [], "sections": []}
    for wanted in materials:
        name = wanted["name"]
        if name in model.materials.keys():
            unchanged["materials"].append(name)
            continue
        material = model.Material(name=name)
        material.Elastic(table=((wanted["youngs_modulus"], wanted["poisson_ratio"]),))
        if wanted.get("density") is not None:
            material.Density(table=((wanted["density"],),))
        created["materials"].append(name)
    for wanted in sections:
        name = wanted["name"]
        if name in model.sections.keys():
            unchanged["sections"].append(name)
            continue
        if wanted["kind"] == "shell":
            model.HomogeneousShellSection(
                name=name, material=wanted["material"], thickness=wanted["thickness"]
            )
        else:
            profile = _create_profile(model, profile_name(name), wanted["profile"])
            model.BeamSection(name=name, material=wanted["material"], profile=profile)
        created["sections"].append(name)
    return {"created": created, "unchanged": unchanged}


def _create_profile(model: Any, name: str, profile: Mapping[str, Any]) -> str:
    if name in model.profiles.keys():
        return name  # identical (definition_conflicts refused a different one)
    dims = {k: v for k, v in profile.items() if k != "shape"}
    factory = {
        "rectangle": model.RectangularProfile,
        "circle": model.CircularProfile,
        "pipe": model.PipeProfile,
        "I": model.IProfile,
    }[profile["shape"]]
    factory(name=name, **dims)
    return name


# ------------------------------------------------------------------ assignment


def section_kind(model: Any, name: str) -> str | None:
    if name not in model.sections.keys():
        return None
    return str(getattr(model.sections[name], "kind", "")) or None


def resolve_elements(part: Any, selector: Mapping[str, Any]) -> list[int]:
    return [e.label for e in selection.select_elements(part, selector)]


def shapes_of(part: Any, labels: Iterable[int]) -> dict[str, list[int]]:
    """Element labels grouped by shape name."""
    grouped: dict[str, list[int]] = {}
    get = part.elements.getFromLabel
    for label in labels:
        grouped.setdefault(str(get(label).type), []).append(label)
    return grouped


def misplaced(kind: str, shapes: Mapping[str, Sequence[int]]) -> list[str]:
    """Shapes a section of ``kind`` cannot go on."""
    legal = SHAPES_FOR_KIND.get(kind, ())
    return sorted(shape for shape in shapes if shape not in legal)


def parallel_beams(part: Any, labels: Iterable[int], n1: Sequence[float]) -> list[int]:
    """BEAM elements among ``labels`` whose axis is parallel to ``n1``."""
    norm_n1 = math.sqrt(sum(c * c for c in n1))
    offending: list[int] = []
    get_element = part.elements.getFromLabel
    get_node = part.nodes.getFromLabel
    for label in labels:
        element = get_element(label)
        if str(element.type) != "BEAM":
            continue
        a, b = (get_node(n).coordinates for n in element.connectivity)
        axis = (b[0] - a[0], b[1] - a[1], b[2] - a[2])
        length = math.sqrt(sum(c * c for c in axis))
        if length == 0.0 or norm_n1 == 0.0:
            continue
        cross = (
            axis[1] * n1[2] - axis[2] * n1[1],
            axis[2] * n1[0] - axis[0] * n1[2],
            axis[0] * n1[1] - axis[1] * n1[0],
        )
        if math.sqrt(sum(c * c for c in cross)) <= PARALLEL_SINE * length * norm_n1:
            offending.append(label)
    return offending


def covering_entries(entries: Any, labels: Iterable[int]) -> list[tuple[int, list[int]]]:
    """(index, covered labels) of the existing assignments/orientations over ``labels``."""
    wanted = set(labels)
    found: list[tuple[int, list[int]]] = []
    for index, entry in enumerate(entries):
        region = entry.region
        covered = sorted(e.label for e in region.elements if e.label in wanted)
        if covered:
            found.append((index, covered))
    return found


def prepare_assignments(
    model: Any, part: Any, assignments: Sequence[tuple[str, Mapping[str, Any]]],
    orientations: Sequence[tuple[Mapping[str, Any], Sequence[float]]],
) -> dict[str, Any]:
    """Preflight: resolve every selector once and re-check n1 on the live geometry.

    Section kinds are checked again at mutation time (a section defined by this same run
    does not exist yet while preflights run).
    """
    resolved = [(name, resolve_elements(part, sel)) for name, sel in assignments]
    oriented = []
    for index, (sel, n1) in enumerate(orientations):
        labels = resolve_elements(part, sel)
        beams = shapes_of(part, labels).get("BEAM", [])
        offending = parallel_beams(part, beams, n1)
        if offending:
            raise PropertyScriptError(
                f"beam_orientations[{index}].n1 {tuple(n1)} is parallel to the axis of beam "
                f"element(s) {list_labels(offending)}; choose an n1 that is not along "
                "those beams"
            )
        oriented.append((beams, tuple(n1)))
    return {"assignments": resolved, "orientations": oriented}


def apply_assignments(model: Any, part: Any, prepared: Mapping[str, Any]) -> dict[str, Any]:
    """Mutation: give every selected element exactly one section, orient the selected beams.

    Existing assignments (or orientations) covering selected elements lose those elements;
    one left empty is deleted. Returns what was created and replaced.
    """
    from samConstants import N1_COSINES

    report: dict[str, Any] = {"assigned": [], "replaced": [], "oriented": []}
    for name, labels in prepared["assignments"]:
        kind = section_kind(model, name)
        if kind is None:
            raise PropertyScriptError(f"section {name!r} does not exist in the model")
        wrong = misplaced(kind, shapes_of(part, labels))
        if wrong:
            raise PropertyScriptError(
                f"section {name!r} is a {kind} section and cannot go on {', '.join(wrong)} "
                "elements"
            )
        report["replaced"].extend(
            _release(part, part.sectionAssignments, labels, "sectionName")
        )
        part.SectionAssignment(region=part.elements.sequenceFromLabels(labels), sectionName=name)
        report["assigned"].append({"section": name, "elements": len(labels)})
    for beams, n1 in prepared["orientations"]:
        report["replaced"].extend(_release(part, part.beamOrientations, beams, "n1"))
        part.assignBeamSectionOrientation(
            region=part.elements.sequenceFromLabels(beams), method=N1_COSINES, n1=n1
        )
        report["oriented"].append({"n1": list(n1), "beams": len(beams)})
    return report


def _release(part: Any, entries: Any, labels: Sequence[int], what: str) -> list[str]:
    """Take ``labels`` out of every existing entry; delete entries left empty."""
    messages: list[str] = []
    for index, covered in reversed(covering_entries(entries, labels)):
        entry = entries[index]
        taken = set(covered)
        remaining = [e.label for e in entry.region.elements if e.label not in taken]
        value = getattr(entry, what)
        label = f"section {value!r}" if what == "sectionName" else f"orientation n1={tuple(value)}"
        if remaining:
            entry.setValues(region=part.elements.sequenceFromLabels(remaining))
        else:
            del entries[index]
        messages.append(f"{label} replaced on {len(covered)} element(s): "
                        f"{list_labels(covered)}")
    return messages


def sections_by_element(part: Any) -> dict[int, list[str]]:
    """Element label → the section names assigned to it (in assignment order)."""
    found: dict[int, list[str]] = {}
    for entry in part.sectionAssignments:
        for element in entry.region.elements:
            found.setdefault(element.label, []).append(entry.sectionName)
    return found


def oriented_labels(part: Any) -> set[int]:
    labels: set[int] = set()
    for entry in part.beamOrientations:
        labels.update(e.label for e in entry.region.elements)
    return labels


def verify_assignments(part: Any, prepared: Mapping[str, Any]) -> None:
    """Postflight: each selected element carries exactly the one section it was given and
    every selected beam is oriented."""
    sections = sections_by_element(part)
    wrong: list[int] = []
    for name, labels in prepared["assignments"]:
        wrong.extend(label for label in labels if sections.get(label) != [name])
    if wrong:
        raise PropertyScriptError(
            f"element(s) {list_labels(sorted(wrong))} do not carry exactly the one "
            "section assigned to them"
        )
    oriented = oriented_labels(part)
    unoriented = sorted(
        label for beams, _ in prepared["orientations"] for label in beams if label not in oriented
    )
    if unoriented:
        raise PropertyScriptError(f"beam(s) {list_labels(unoriented)} have no orientation")
