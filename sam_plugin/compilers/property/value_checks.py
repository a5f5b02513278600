"""The Property domain's value checks: the values a run defined, read back after it
(``DomainModule.record_values`` / ``value_checks``, docs/architecture.md §5).

The plan's checks say that ``Steel`` and ``Shell-2mm`` exist; these say that Steel's E, ν and
density, the shell's thickness and a beam profile's dimensions are the numbers of the call.
Expected values come from the normalized calls the script was composed from; actual values
only from the live model (``samops.property_readback``), never from the prediction.
``property_values.json`` in the run directory keeps what was read before and after.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from sam_plugin.compilers.evidence import Check, ValueRow
from sam_plugin.compilers.property import phrases as _words  # noqa: F401 (registers the words)
from sam_plugin.compilers.units import Quantity
from sam_plugin.compilers.values_file import read_values, write_values
from sam_plugin.samops.property_readback import read_property_values
from sam_plugin.words.phrase import Phrase, phrase

VALUES_FILE = "property_values.json"
DEFINE_TOOL = "define_property"
MATERIAL_FIELDS = (("youngs_modulus", "E"), ("poisson_ratio", "ν"), ("density", "density"))
REL_TOLERANCE = 1e-9
# what each value's last word measures: the unit the words for people add to its number
_QUANTITIES: dict[str, Quantity] = {
    "E": "stress", "density": "density", "thickness": "length",
    **dict.fromkeys(("a", "b", "r", "t", "l", "h", "b1", "b2", "t1", "t2", "t3"), "length")}


def value_quantity(field: str) -> Quantity | None:
    """What a value's field (``E``, ``thickness``, a profile's ``r``) measures; ``None`` for
    a ratio (ν), a name, a count."""
    return _QUANTITIES.get(field)


def record_before(run_dir: Path, model: Any) -> None:
    """The model's values as observed (the drift check keeps them valid until execution)."""
    write_values(run_dir, VALUES_FILE, {"before": read_property_values(model)})


def property_value_checks(run_dir: Path, model: Any) -> list[Check]:
    """One check per value a ``define_property`` call set; ``[]`` when there was none."""
    defined = _defined(run_dir)
    if not defined["materials"] and not defined["sections"]:
        return []
    after = read_property_values(model)
    stored = read_values(run_dir, VALUES_FILE)
    stored["after"] = after
    write_values(run_dir, VALUES_FILE, stored)
    checks: list[Check] = []
    for material in defined["materials"]:
        found = after["materials"].get(material["name"])
        for field, label in MATERIAL_FIELDS:
            if material.get(field) is not None:
                checks.append(_value(_named("material", material["name"], phrase(
                                         f"property.field.{label}")), material[field],
                                     None if found is None else found.get(field),
                                     value_quantity(label)))
    for section in defined["sections"]:
        found = after["sections"].get(section["name"])
        name = section["name"]
        checks.append(_text(_named("section", name, phrase("property.field.material")),
                            section["material"],
                            None if found is None else found.get("material")))
        if section.get("kind") == "shell":
            checks.append(_value(_named("section", name, phrase("property.field.thickness")),
                                 section["thickness"],
                                 None if found is None else found.get("thickness"),
                                 value_quantity("thickness")))
            continue
        wanted = dict(section.get("profile") or {})
        profile = (found or {}).get("profile") or {}
        checks.append(_text(_named("section", name, phrase("property.field.profile")),
                            wanted.pop("shape", ""), profile.get("shape")))
        for dimension, value in wanted.items():
            said = phrase("property.field.dimension", dimension=dimension)
            checks.append(_value(_named("section", name, said), value,
                                 profile.get(dimension), value_quantity(dimension)))
    return checks


def values_table(run_dir: Path) -> list[ValueRow]:
    """Every value a run defined, before and after it (the dock's before/after)."""
    defined, stored = _defined(run_dir), read_values(run_dir, VALUES_FILE)
    before, after = stored.get("before", {}), stored.get("after", {})
    rows: list[ValueRow] = []
    for material in defined["materials"]:
        name = material["name"]
        for field, label in MATERIAL_FIELDS:
            if material.get(field) is not None:
                rows.append(ValueRow(name=f"{name} {label}",
                                     before=_shown(before, "materials", name, field),
                                     after=_shown(after, "materials", name, field),
                                     quantity=value_quantity(label)))
    for section in defined["sections"]:
        name = section["name"]
        if section.get("kind") == "shell":
            rows.append(ValueRow(name=f"{name} thickness",
                                 before=_shown(before, "sections", name, "thickness"),
                                 after=_shown(after, "sections", name, "thickness"),
                                 quantity=value_quantity("thickness")))
            continue
        for dimension in (k for k in (section.get("profile") or {}) if k != "shape"):
            rows.append(ValueRow(name=f"{name} {dimension}",
                                 before=_shown(before, "sections", name, "profile", dimension),
                                 after=_shown(after, "sections", name, "profile", dimension),
                                 quantity=value_quantity(dimension)))
    return rows


def _shown(values: dict[str, Any], kind: str, name: str, *path: str) -> str:
    value: Any = values.get(kind, {}).get(name)
    for key in path:
        value = value.get(key) if isinstance(value, dict) else None
    return "—" if value is None else _number(value)


def _defined(run_dir: Path) -> dict[str, list[dict[str, Any]]]:
    try:
        calls = json.loads((Path(run_dir) / "normalized_calls.json").read_text("utf-8"))
    except (OSError, ValueError):
        calls = []
    materials: list[dict[str, Any]] = []
    sections: list[dict[str, Any]] = []
    for call in calls if isinstance(calls, list) else []:
        if isinstance(call, dict) and call.get("tool") == DEFINE_TOOL:
            arguments = call.get("arguments") or {}
            materials += list(arguments.get("materials") or [])
            sections += list(arguments.get("sections") or [])
    return {"materials": materials, "sections": sections}


def _number(value: Any) -> str:
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return f"{value:g}" if isinstance(value, float) else str(value)


def _named(kind: str, name: str, field: Phrase) -> Phrase:
    """``material Steel E``, ``section Beam-1 profile r``: the check's name."""
    return phrase(f"property.check.{kind}", name=name, field=field)


def _value(name: Phrase, expected: Any, actual: Any, quantity: Quantity | None) -> Check:
    if not isinstance(actual, int | float):
        return Check.said(name, _number(expected), phrase("check.missing"), ok=False,
                          quantity=quantity)
    ok = math.isclose(float(actual), float(expected), rel_tol=REL_TOLERANCE, abs_tol=0.0)
    return Check.said(name, _number(expected), _number(actual), ok=ok, quantity=quantity)


def _text(name: Phrase, expected: Any, actual: Any) -> Check:
    shown: Phrase | str = phrase("check.missing") if actual is None else str(actual)
    return Check.said(name, str(expected), shown, ok=actual == expected)

