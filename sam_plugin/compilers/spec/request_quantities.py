"""The quantities a person's words state with a unit ("5 cm", "210 GPa", "3 kN", "5 厘米"),
and their values in a model's unit system (``compilers/units.py``).

SAM has no units: a model's numbers are in its one consistent system, and a step's bare
number is taken in it. A request that says "5 cm" of a model in mm means 50; this module
says so (``5 cm = 50 mm in this model``). Pure: it reads text and converts numbers.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Literal

from sam_plugin.compilers.spec.request_words import fold
from sam_plugin.compilers.spec.values import json_number_words, number_words
from sam_plugin.compilers.units import UnitSystem

QuantityKind = Literal["length", "stress", "force", "density"]

# each unit a request may say: its kind and its size in SI (m, Pa, N, kg/m³)
UNITS: dict[str, tuple[QuantityKind, float]] = {
    "mm": ("length", 1e-3), "cm": ("length", 1e-2), "m": ("length", 1.0),
    "in": ("length", 0.0254),
    "Pa": ("stress", 1.0), "kPa": ("stress", 1e3), "MPa": ("stress", 1e6),
    "GPa": ("stress", 1e9), "psi": ("stress", 6894.757293168361),
    "N": ("force", 1.0), "kN": ("force", 1e3), "MN": ("force", 1e6),
    "lbf": ("force", 4.4482216152605),
    "kg/m³": ("density", 1.0), "g/cm³": ("density", 1e3), "kg/mm³": ("density", 1e9),
    "t/mm³": ("density", 1e12), "t/m³": ("density", 1e3),
}
# the words a request writes for them (longest first where one begins another)
_SPELLINGS = {
    "mm": "mm", "millimet(?:er|re)s?": "mm", "毫米": "mm",
    "cm": "cm", "centimet(?:er|re)s?": "cm", "厘米": "cm",
    "m": "m", "met(?:er|re)s?": "m", "米": "m",
    "inch(?:es)?": "in", "英寸": "in",
    "[Pp]a": "Pa", "[Kk][Pp]a": "kPa", "MPa|mpa|Mpa": "MPa", "GPa|gpa|Gpa": "GPa",
    "psi": "psi", "帕": "Pa", "千帕": "kPa", "兆帕": "MPa", "吉帕": "GPa",
    "N": "N", "newtons?": "N", "牛(?:顿)?": "N", "kN|KN|kn": "kN", "千牛(?:顿)?": "kN",
    "MN": "MN", "lbf": "lbf",
    "kg/m(?:3|³|\\^3)": "kg/m³", "g/cm(?:3|³|\\^3)": "g/cm³", "kg/mm(?:3|³|\\^3)": "kg/mm³",
    "t/mm(?:3|³|\\^3)": "t/mm³", "t/m(?:3|³|\\^3)": "t/m³", "千克/立方米": "kg/m³",
}
_UNIT_WORD = "|".join(sorted(_SPELLINGS, key=len, reverse=True))
_QUANTITY = re.compile(
    r"(?<![A-Za-z0-9_.\-−])([-+−]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)\s*"
    rf"({_UNIT_WORD})(?![A-Za-z0-9²³/])")
_CANONICAL = [(re.compile(rf"(?:{spelling})\Z"), unit) for spelling, unit in _SPELLINGS.items()]


@dataclass(frozen=True)
class StatedQuantity:
    """A number a request states with a unit: ``value`` in ``unit`` (canonical: ``cm``,
    ``MPa``, ``kN``), what it measures (``kind``), and the words as written (``said``)."""

    value: float
    unit: str
    kind: QuantityKind
    said: str

    def unit_in(self, system: UnitSystem) -> str:
        """The unit ``system`` gives this kind of quantity (``""``: none known)."""
        return system_unit(system, self.kind)

    def value_in(self, system: UnitSystem) -> float | None:
        """The value in ``system``'s unit of this kind (``None`` where it has none)."""
        target = self.unit_in(system)
        if not target:
            return None
        return _tidy(convert(self.value, self.unit, target))

    def differs_from(self, system: UnitSystem) -> bool:
        """Whether ``system`` says this kind in another unit than the request does."""
        target = self.unit_in(system)
        return bool(target) and target != self.unit

    def conversion_words(self, system: UnitSystem, *, for_model: bool = False) -> str:
        """``5 cm = 50 mm in this model`` (``""`` where the system has no such unit);
        ``for_model``: the value as a held answer can write it (``7.85e-9``)."""
        value = self.value_in(system)
        if value is None:
            return ""
        written = json_number_words(value) if for_model else number_words(value)
        return (f"{number_words(self.value)} {self.unit} = {written} "
                f"{self.unit_in(system)} in this model")


def quantities_in(text: str) -> list[StatedQuantity]:
    """Every number ``text`` states with a unit, in order."""
    found = []
    for match in _QUANTITY.finditer(fold(text)):
        number, word = match.groups()
        value = float(number.replace("−", "-"))
        unit = _canonical(word)
        if unit is None or not math.isfinite(value):
            continue
        found.append(StatedQuantity(value, unit, UNITS[unit][0], match.group(0)))
    return found


def convert(value: float, unit: str, target: str) -> float:
    """``value`` in ``unit`` said in ``target`` (two units of one kind)."""
    kind, size = UNITS[unit]
    target_kind, target_size = UNITS[target]
    if kind != target_kind:
        raise ValueError(f"cannot convert {unit} ({kind}) to {target} ({target_kind})")
    return value * size / target_size


def system_unit(system: UnitSystem, kind: QuantityKind) -> str:
    """The unit ``system`` gives ``kind``: its own length and stress; its force is stress
    times length squared (MPa·mm² is N, GPa·mm² is kN, Pa·m² is N, psi·in² is lbf)."""
    if kind != "force":
        unit = system.unit(kind)
        return unit if unit in UNITS else ""
    length, stress = UNITS.get(system.length), UNITS.get(system.stress)
    if length is None or stress is None:
        return ""
    size = stress[1] * length[1] ** 2
    return next((unit for unit, (k, s) in UNITS.items()
                 if k == "force" and math.isclose(s, size, rel_tol=1e-6)), "")


def _canonical(word: str) -> str | None:
    return next((unit for pattern, unit in _CANONICAL if pattern.match(word)), None)


def _tidy(value: float) -> float:
    """``0.30000000000000004`` as ``0.3``: the conversion's own rounding left out."""
    return float(f"{value:.12g}")
