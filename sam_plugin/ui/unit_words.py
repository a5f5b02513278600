"""A unit system in the dock's words and language: ``length mm, stress MPa, density t/mm³,
mass t`` (``长度 mm，应力 MPa，密度 t/mm³，质量 t``)."""

from __future__ import annotations

from sam_plugin.compilers.units import Quantity, UnitSystem
from sam_plugin.ui.i18n import tr


def units_words(units: UnitSystem) -> str:
    names: dict[Quantity, str] = {"length": tr("length"), "stress": tr("stress"),
                                  "density": tr("density"), "mass": tr("mass")}
    return tr(", ").join(f"{name} {units.unit(quantity)}"
                         for quantity, name in names.items() if units.unit(quantity))
