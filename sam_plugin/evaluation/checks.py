"""Acceptance checks on the FINAL model (read through the host API), never on tool calls.

Each check is a small frozen object; ``check(mdb, target)`` returns a :class:`CheckOutcome`
that says what was expected and what the model holds. The base is ``compilers/acceptance.py``,
where a domain's own checks find it (Load: ``compilers/load/acceptance.py``).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sam_plugin.compilers.acceptance import TOL as TOL
from sam_plugin.compilers.acceptance import Check as Check
from sam_plugin.compilers.acceptance import CheckOutcome as CheckOutcome
from sam_plugin.compilers.acceptance import part_of as part_of

Vec3 = tuple[float, float, float]
def _shape_name(element: Any) -> str:
    return str(getattr(element.type, "name", element.type))




@dataclass(frozen=True)
class ShapeCounts(Check):
    """Element counts by shape (shapes not named must be 0)."""

    counts: tuple[tuple[str, int], ...]

    def measure(self, model: Any, part: Any) -> tuple[Any, Any, bool]:
        actual = Counter(_shape_name(e) for e in part.elements)
        expected = dict(self.counts)
        seen = {s: actual.get(s, 0) for s in sorted(set(expected) | set(actual))}
        want = {s: expected.get(s, 0) for s in seen}
        return want, seen, want == seen


@dataclass(frozen=True)
class NodeCount(Check):
    count: int

    def measure(self, model: Any, part: Any) -> tuple[Any, Any, bool]:
        return self.count, len(part.nodes), len(part.nodes) == self.count


@dataclass(frozen=True)
class BoundingBox(Check):
    low: Vec3
    high: Vec3
    tol: float = 1e-4

    def measure(self, model: Any, part: Any) -> tuple[Any, Any, bool]:
        coords = [n.coordinates for n in part.nodes]
        if not coords:
            return (self.low, self.high), "no nodes", False
        low = tuple(min(c[i] for c in coords) for i in range(3))
        high = tuple(max(c[i] for c in coords) for i in range(3))
        ok = all(abs(a - b) <= self.tol for a, b in zip(low + high, self.low + self.high,
                                                        strict=True))
        return (self.low, self.high), (_round(low), _round(high)), ok


@dataclass(frozen=True)
class NodesAt(Check):
    """A node exists at each of these coordinates (within ``tol``)."""

    points: tuple[Vec3, ...]
    tol: float = 1e-4

    def measure(self, model: Any, part: Any) -> tuple[Any, Any, bool]:
        missing = [p for p in self.points if not _node_near(part, p, self.tol)]
        return f"nodes at {list(self.points)}", f"missing {missing}" if missing else "all", \
            not missing


@dataclass(frozen=True)
class NoNodeAt(Check):
    points: tuple[Vec3, ...]
    tol: float = 1e-4

    def measure(self, model: Any, part: Any) -> tuple[Any, Any, bool]:
        present = [p for p in self.points if _node_near(part, p, self.tol)]
        return f"no node at {list(self.points)}", f"present {present}" if present else "none", \
            not present


@dataclass(frozen=True)
class NoCoincidentNodes(Check):
    tol: float = 1e-6

    def measure(self, model: Any, part: Any) -> tuple[Any, Any, bool]:
        seen: Counter[tuple[int, int, int]] = Counter()
        scale = 1.0 / max(self.tol, 1e-12)
        for node in part.nodes:
            seen[tuple(round(c * scale) for c in node.coordinates)] += 1  # type: ignore[misc]
        pairs = sum(n - 1 for n in seen.values() if n > 1)
        return 0, pairs, pairs == 0


@dataclass(frozen=True)
class NoFreeNodes(Check):
    def measure(self, model: Any, part: Any) -> tuple[Any, Any, bool]:
        used = {label for e in part.elements for label in e.connectivity}
        free = sum(1 for n in part.nodes if n.label not in used)
        return 0, free, free == 0


@dataclass(frozen=True)
class ElementSet(Check):
    """Set ``name`` holds ``count`` elements (and, if given, all inside the box)."""

    set_name: str
    count: int | None = None
    shape: str | None = None
    box: tuple[Vec3, Vec3] | None = None

    def name(self) -> str:
        return f"ElementSet({self.set_name})"

    def measure(self, model: Any, part: Any) -> tuple[Any, Any, bool]:
        if self.set_name not in part.sets.keys():
            return f"set {self.set_name}", f"sets: {sorted(part.sets.keys())}", False
        elements = list(part.sets[self.set_name].elements)
        problems = []
        if self.count is not None and len(elements) != self.count:
            problems.append(f"{len(elements)} elements")
        if self.shape is not None and any(_shape_name(e) != self.shape for e in elements):
            problems.append("other shapes")
        if self.box is not None:
            outside = [e.label for e in elements if not _element_in_box(part, e, self.box)]
            if outside:
                problems.append(f"{len(outside)} outside {self.box}")
        want = f"{self.count} {self.shape or ''} elements".strip()
        return want, "; ".join(problems) or f"{len(elements)} elements", not problems


@dataclass(frozen=True)
class Material(Check):
    material: str
    youngs_modulus: float
    poisson_ratio: float
    density: float | None = None

    def name(self) -> str:
        return f"Material({self.material})"

    def measure(self, model: Any, part: Any) -> tuple[Any, Any, bool]:
        want = (self.youngs_modulus, self.poisson_ratio, self.density)
        if self.material not in model.materials.keys():
            return want, f"materials: {sorted(model.materials.keys())}", False
        got = e, nu, rho = _material_values(model.materials[self.material])
        ok = _close(e, self.youngs_modulus) and _close(nu, self.poisson_ratio) and (
            self.density is None or _close(rho, self.density))
        return want, got, ok


@dataclass(frozen=True)
class MaterialValues(Check):
    """Some material has these values, whatever its name (a request that names none)."""

    youngs_modulus: float
    poisson_ratio: float
    density: float | None = None

    def measure(self, model: Any, part: Any) -> tuple[Any, Any, bool]:
        want = (self.youngs_modulus, self.poisson_ratio, self.density)
        found = {name: _material_values(model.materials[name])
                 for name in model.materials.keys()}
        ok = any(_close(e, self.youngs_modulus) and _close(nu, self.poisson_ratio) and (
            self.density is None or _close(rho, self.density)) for e, nu, rho in found.values())
        return want, found or "no materials", ok


@dataclass(frozen=True)
class ShellCoverage(Check):
    """Every element of ``shape`` (or all) carries a shell section of this thickness,
    whatever the section's name."""

    thickness: float
    shape: str | None = None

    def measure(self, model: Any, part: Any) -> tuple[Any, Any, bool]:
        owner = assigned_sections(part)
        wanted = [e.label for e in part.elements
                  if self.shape is None or _shape_name(e) == self.shape]
        thick = {name for name in model.sections.keys()
                 if _close(getattr(model.sections[name], "thickness", None), self.thickness)}
        carrying = [label for label in wanted if owner.get(label) in thick]
        scope = self.shape or "all"
        return f"{scope} elements ({len(wanted)}) with a {self.thickness:g} shell", \
            f"{len(carrying)} carry one", bool(wanted) and len(carrying) == len(wanted)


@dataclass(frozen=True)
class ShellSection(Check):
    section: str
    material: str
    thickness: float

    def name(self) -> str:
        return f"ShellSection({self.section})"

    def measure(self, model: Any, part: Any) -> tuple[Any, Any, bool]:
        want = (self.material, self.thickness)
        if self.section not in model.sections.keys():
            return want, f"sections: {sorted(model.sections.keys())}", False
        s = model.sections[self.section]
        got = (getattr(s, "material", None), getattr(s, "thickness", None))
        return want, got, got[0] == self.material and _close(got[1], self.thickness)


@dataclass(frozen=True)
class BeamSection(Check):
    section: str
    material: str
    profile_shape: str  # rectangle | circle | pipe | I
    dimensions: tuple[tuple[str, float], ...]

    def name(self) -> str:
        return f"BeamSection({self.section})"

    def measure(self, model: Any, part: Any) -> tuple[Any, Any, bool]:
        want = (self.material, self.profile_shape, dict(self.dimensions))
        if self.section not in model.sections.keys():
            return want, f"sections: {sorted(model.sections.keys())}", False
        s = model.sections[self.section]
        profile_name = getattr(s, "profile", None)
        if profile_name not in model.profiles.keys():
            return want, f"profile {profile_name!r} missing", False
        profile = model.profiles[profile_name]
        kind = {"RectangularProfile": "rectangle", "CircularProfile": "circle",
                "PipeProfile": "pipe", "IProfile": "I"}.get(type(profile).__name__, "?")
        dims = profile.dimensions
        dims = dict(dims() if callable(dims) else dims)
        ok = s.material == self.material and kind == self.profile_shape and all(
            _close(dims.get(k), v) for k, v in self.dimensions)
        return want, (s.material, kind, dims), ok


@dataclass(frozen=True)
class Coverage(Check):
    """Every element of ``shape`` (or all) carries section ``section`` (the latest wins)."""

    section: str
    shape: str | None = None
    count: int | None = None  # exactly this many elements carry it, if given
    box: tuple[Vec3, Vec3] | None = None  # with count: every one of them inside this box

    def name(self) -> str:
        return f"Coverage({self.section})"

    def measure(self, model: Any, part: Any) -> tuple[Any, Any, bool]:
        owner = assigned_sections(part)
        wanted = [e.label for e in part.elements
                  if self.shape is None or _shape_name(e) == self.shape]
        carrying = [label for label, s in owner.items() if s == self.section]
        if self.count is not None:
            box = self.box
            outside = [] if box is None else [
                label for label in carrying
                if not _element_in_box(part, part.elements.getFromLabel(label), box)]
            where = f" inside {box}" if box is not None else ""
            got = f"{len(carrying)} elements" + (f", {len(outside)} outside" if outside else "")
            return f"{self.count} elements{where}", got, \
                len(carrying) == self.count and not outside
        missing = [label for label in wanted if owner.get(label) != self.section]
        scope = self.shape or "all"
        return f"{scope} elements ({len(wanted)})", \
            f"{len(wanted) - len(missing)} carry it", bool(wanted) and not missing


@dataclass(frozen=True)
class BeamOrientation(Check):
    n1: Vec3
    count: int | None = None  # BEAM elements oriented (default: all BEAM elements)

    def measure(self, model: Any, part: Any) -> tuple[Any, Any, bool]:
        latest: dict[int, tuple[float, ...]] = {}
        for entry in part.beamOrientations:
            for element in entry.region.elements:
                latest[element.label] = tuple(entry.n1)
        beams = [e.label for e in part.elements if _shape_name(e) == "BEAM"]
        target = self.count if self.count is not None else len(beams)
        unit = _unit(self.n1)
        matching = sum(1 for v in latest.values() if _unit(v) == unit)
        return f"{target} beams with n1 {self.n1}", f"{matching}", matching == target


@dataclass(frozen=True)
class ElementsInBox(Check):
    """Exactly ``count`` elements (of ``shape``) lie entirely inside the box."""

    box: tuple[Vec3, Vec3]
    count: int
    shape: str | None = None

    def measure(self, model: Any, part: Any) -> tuple[Any, Any, bool]:
        inside = sum(1 for e in part.elements
                     if (self.shape is None or _shape_name(e) == self.shape)
                     and _element_in_box(part, e, self.box))
        return self.count, inside, inside == self.count


# -- constructors (what task files call) -------------------------------------------------------


def shape_counts(**counts: int) -> ShapeCounts:
    return ShapeCounts(tuple(sorted(counts.items())))


def node_count(count: int) -> NodeCount:
    return NodeCount(count)


def bbox(low: Sequence[float], high: Sequence[float], tol: float = 1e-4) -> BoundingBox:
    return BoundingBox(_vec(low), _vec(high), tol)


def nodes_at(*points: Sequence[float]) -> NodesAt:
    return NodesAt(tuple(_vec(p) for p in points))


def no_node_at(*points: Sequence[float]) -> NoNodeAt:
    return NoNodeAt(tuple(_vec(p) for p in points))


def element_set(name: str, count: int | None = None, *, shape: str | None = None,
                box: tuple[Sequence[float], Sequence[float]] | None = None) -> ElementSet:
    return ElementSet(name, count, shape, (_vec(box[0]), _vec(box[1])) if box else None)


def material(name: str, youngs_modulus: float, poisson_ratio: float,
             density: float | None = None) -> Material:
    return Material(name, youngs_modulus, poisson_ratio, density)


def material_values(youngs_modulus: float, poisson_ratio: float,
                    density: float | None = None) -> MaterialValues:
    return MaterialValues(youngs_modulus, poisson_ratio, density)


def shell_coverage(thickness: float, shape: str | None = None) -> ShellCoverage:
    return ShellCoverage(thickness, shape)


def shell_section(name: str, material: str, thickness: float) -> ShellSection:
    return ShellSection(name, material, thickness)


def beam_section(name: str, material: str, shape: str, **dimensions: float) -> BeamSection:
    return BeamSection(name, material, shape, tuple(sorted(dimensions.items())))


def coverage(section: str, shape: str | None = None, count: int | None = None, *,
             box: tuple[Sequence[float], Sequence[float]] | None = None) -> Coverage:
    return Coverage(section, shape, count, (_vec(box[0]), _vec(box[1])) if box else None)


def beam_orientation(n1: Sequence[float], count: int | None = None) -> BeamOrientation:
    return BeamOrientation(_vec(n1), count)


def elements_in_box(low: Sequence[float], high: Sequence[float], count: int,
                    shape: str | None = None) -> ElementsInBox:
    return ElementsInBox((_vec(low), _vec(high)), count, shape)


def no_coincident_nodes(tol: float = 1e-6) -> NoCoincidentNodes:
    return NoCoincidentNodes(tol)


def no_free_nodes() -> NoFreeNodes:
    return NoFreeNodes()


# -- helpers ------------------------------------------------------------------------------------


def assigned_sections(part: Any) -> dict[int, str]:
    owner: dict[int, str] = {}
    for assignment in part.sectionAssignments:
        for element in assignment.region.elements:
            owner[element.label] = assignment.sectionName
    return owner


def _material_values(material: Any) -> tuple[Any, Any, Any]:
    elastic = getattr(material, "elastic", None)
    e, nu = (elastic.table[0][0], elastic.table[0][1]) if elastic else (None, None)
    density = getattr(material, "density", None)
    return e, nu, density.table[0][0] if density is not None else None


def _vec(values: Iterable[float]) -> Vec3:
    x, y, z = (float(v) for v in values)
    return (x, y, z)


def _round(values: Iterable[float]) -> tuple[float, ...]:
    return tuple(round(v, 6) + 0.0 for v in values)


def _close(a: Any, b: float) -> bool:
    return a is not None and math.isclose(float(a), b, rel_tol=1e-6, abs_tol=1e-9)


def _unit(v: Sequence[float]) -> tuple[float, ...]:
    length = math.sqrt(sum(c * c for c in v)) or 1.0
    return tuple(round(c / length, 6) + 0.0 for c in v)


def _node_near(part: Any, point: Vec3, tol: float) -> bool:
    return any(all(abs(a - b) <= tol for a, b in zip(n.coordinates, point, strict=True))
               for n in part.nodes)


def _element_in_box(part: Any, element: Any, box: tuple[Vec3, Vec3]) -> bool:
    low, high = box
    for node in element.getNodes():
        if any(c < lo - 1e-6 or c > hi + 1e-6
               for c, lo, hi in zip(node.coordinates, low, high, strict=True)):
            return False
    return True
