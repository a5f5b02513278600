"""The unit system values are shown in, for people: SAM has none, every number is
in the model's own consistent units, so the words say which (``E = 210000 MPa``).

A model that declares a length unit (``lengthUnit``), or the one chosen in Settings, picks a
consistent system: ``mm`` is mm-N-t-s (stress MPa, density t/mm³, mass t), ``m`` is m-N-kg-s.
A length without a known system (``cm``) gives lengths their unit and leaves the others bare.

Only the words for people carry units: what a model is sent (prompts, the observation, the
spec a collection round states, repair messages) is rendered without them, byte for byte as
before (a model recording is frozen on it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, get_args

Quantity = Literal["length", "stress", "density", "mass", "force"]


@dataclass(frozen=True)
class UnitSystem:
    """``name`` (``mm-N-t-s``) and each quantity's unit (``""``: not known)."""

    name: str
    length: str
    stress: str = ""
    density: str = ""
    mass: str = ""
    force: str = ""

    def unit(self, quantity: Quantity | None) -> str:
        return getattr(self, quantity) if quantity is not None else ""

    def words(self) -> str:
        """``mm-N-t-s (length mm, stress MPa, density t/mm³, mass t)``."""
        said = [f"{q} {self.unit(q)}" for q in ("length", "stress", "density", "mass")
                if self.unit(q)]
        if self.name == self.length:
            return ", ".join(said)
        return f"{self.name} ({', '.join(said)})"


SYSTEMS: tuple[UnitSystem, ...] = (
    UnitSystem("mm-N-t-s", "mm", "MPa", "t/mm³", "t", "N"),
    UnitSystem("m-N-kg-s", "m", "Pa", "kg/m³", "kg", "N"),
    UnitSystem("mm-kN-kg-ms", "mm", "GPa", "kg/mm³", "kg", "kN"),
    UnitSystem("in-lbf-s", "in", "psi", "lbf·s²/in⁴", "lbf·s²/in", "lbf"),
)
DEFAULT = SYSTEMS[0]
# a bare length unit means the usual consistent system of that length
_BY_LENGTH = {"mm": SYSTEMS[0], "m": SYSTEMS[1], "in": SYSTEMS[3]}


def unit_system(text: str) -> UnitSystem:
    """The system a model or Settings names: a system (``m-N-kg-s``), or a length unit
    (``mm``); an unknown length (``cm``) gives only lengths their unit."""
    said = text.strip()
    for system in SYSTEMS:
        if said == system.name:
            return system
    if said in _BY_LENGTH:
        return _BY_LENGTH[said]
    return UnitSystem(said, said) if said else DEFAULT


def with_unit(words: str, quantity: Quantity | None, units: UnitSystem | None) -> str:
    """``210000`` -> ``210000 MPa``; unchanged without units or a unit for the quantity."""
    unit = units.unit(quantity) if units is not None else ""
    return f"{words} {unit}" if unit else words


def unit_table(units: UnitSystem | None) -> dict[str, str] | None:
    """Quantity -> unit, as a phrase is rendered with (``sam_plugin/words/phrase.py``)."""
    if units is None:
        return None
    return {q: units.unit(q) for q in get_args(Quantity) if units.unit(q)}


def context_units(ctx: Any) -> UnitSystem | None:
    """The unit system a plan's words say, from a ``CompileContext``'s ``extra["units"]``
    (set for people's plans only; never for what a model is sent)."""
    found = getattr(ctx, "extra", {}).get("units")
    return found if isinstance(found, UnitSystem) else None


def length_unit(ctx: Any) -> str:
    units = context_units(ctx)
    return units.length if units is not None else ""


# where a host model may say its units (a system name, or a length unit)
_DECLARED = ("unitSystem", "lengthUnit", "length_unit", "units")


def declared_units(model: Any) -> UnitSystem | None:
    """The unit system a host model declares, or ``None`` (SAM models declare none: then the
    one chosen in Settings holds)."""
    for attribute in _DECLARED:
        declared = getattr(model, attribute, None)
        if isinstance(declared, str) and declared.strip():
            return unit_system(declared)
    return None


def measured(value: str, quantity: Quantity | None, units: UnitSystem | None) -> str:
    """A number said as text (``210000``) with its unit; anything else (``missing``) as it
    is."""
    try:
        float(value)
    except ValueError:
        return value
    return with_unit(value, quantity, units)
