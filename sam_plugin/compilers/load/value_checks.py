"""The Load domain's readback (``DomainModule.record_values`` / ``value_checks``,
docs/architecture.md §5, §7): each step, load and boundary condition a run made, read from
the live model (present, its step, its region's members, its values), and the properties
unchanged. ``load_values.json`` in the run directory keeps what was read before and after:
the names of the steps, loads and boundary conditions, and their values."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from sam_plugin.compilers.evidence import Check, ValueRow
from sam_plugin.compilers.load import phrases as _words  # noqa: F401 (registers the words)
from sam_plugin.compilers.load.regions import MEMBERS, picked, region_name
from sam_plugin.compilers.selectors import Selector
from sam_plugin.compilers.spec.values import number_words
from sam_plugin.compilers.units import Quantity
from sam_plugin.compilers.values_file import read_values, write_values
from sam_plugin.samops.load_ops import INITIAL, displacement_values, is_encastre
from sam_plugin.samops.load_read import read_loads
from sam_plugin.samops.property_readback import read_property_values
from sam_plugin.words.phrase import Phrase, phrase

VALUES_FILE = "load_values.json"
OBSERVED_NAMES = 200  # names of each kind an observation lists
REL_TOLERANCE = 1e-9
_SELECTOR: TypeAdapter[Any] = TypeAdapter(Selector)
_KINDS = ("pressure", "force", "encastre", "displacement")
_QUANTITY: dict[str, Quantity | None] = {"magnitude": "stress", "cf1": "force", "cf2": "force",
                                         "cf3": "force", "u1": "length", "u2": "length",
                                         "u3": "length"}


def names(values: dict[str, Any]) -> dict[str, list[str]]:
    """The names ``result.json`` shows before and after: steps, loads, boundary conditions."""
    return {"steps": [s["name"] for s in values.get("steps", [])],
            "loads": list(values.get("loads", {})),
            "boundary_conditions": list(values.get("boundary_conditions", {}))}


def record_before(run_dir: Path, model: Any) -> None:
    """The model's steps, loads, conditions and property values as observed."""
    before = read_loads(model) if model is not None else {}
    write_values(run_dir, VALUES_FILE, {"before": before, "before_names": names(before),
                     "properties_before": read_property_values(model)})


def load_value_checks(run_dir: Path, model: Any) -> list[Check]:
    """One check per step, load and condition the run made and per value it set, with the
    properties unchanged; ``[]`` when its calls made none (an audit)."""
    made = made_by_run(run_dir)
    if not any(made.values()):
        return []
    after = read_loads(model)
    stored = read_values(run_dir, VALUES_FILE)
    stored.update(after=after, after_names=names(after))
    write_values(run_dir, VALUES_FILE, stored)
    steps = {s["name"]: s for s in after["steps"]}
    checks: list[Check] = []
    for step in made["steps"]:
        found = steps.get(step["name"])
        checks.append(_present(phrase("load.check.step", name=str(step["name"])), found))
        if step.get("previous") and found is not None:
            checks.append(_text(phrase("load.check.step_previous", name=str(step["name"])),
                                step["previous"], found.get("previous")))
    part = _part(model, run_dir)
    for item in made["loads"]:
        checks += _entry_checks("load.check.load", item, after["loads"].get(item["name"]),
                                part)
    for item in made["conditions"]:
        checks += _entry_checks("load.check.condition", item,
                                after["boundary_conditions"].get(item["name"]), part)
    before_props = stored.get("properties_before")
    if before_props is not None:
        same = read_property_values(model) == before_props
        checks.append(Check.said(phrase("load.check.properties_unchanged"),
                                 phrase("load.value.unchanged"),
                                 phrase("load.value.unchanged" if same else "load.value.changed"),
                                 same))
    return checks


def expected_values(item: dict[str, Any]) -> dict[str, float | None]:
    if item["kind"] == "pressure":
        return {"magnitude": float(item["magnitude"])}
    if item["kind"] == "force":
        return dict(zip(("cf1", "cf2", "cf3"), (float(c) for c in item["vector"]),
                        strict=True))
    if is_encastre(item):
        return {}
    return displacement_values(item)


def _entry_checks(noun: str, item: dict[str, Any], found: dict[str, Any] | None,
                  part: Any) -> list[Check]:
    """``noun``: ``load.check.load`` or ``load.check.condition``, the entry's name."""
    entry = phrase(noun, name=str(item["name"]))
    checks = [_present(entry, found)]
    if found is None:
        return checks
    checks.append(_text(phrase("load.check.entry_step", entry=entry), item.get("step", INITIAL),
                        found["step"]))
    selector = _SELECTOR.validate_python(item["selection"])
    members = MEMBERS[item["kind"]]
    expected_set = region_name(item["kind"], item["name"], selector)
    checks.append(_text(phrase("load.check.entry_region", entry=entry), expected_set,
                        found["region"][1]))
    count = len(picked(part, selector, members)) if part is not None else -1
    checks.append(_text(phrase("load.check.entry_members", entry=entry,
                               members=phrase(f"load.members.{members}")),
                        str(count), str(found["members"][members])))
    if item["kind"] in ("fix", "displace"):
        kind = "encastre" if is_encastre(item) else "displacement"
        checks.append(_text(phrase("load.check.entry_kind", entry=entry), kind, found["kind"],
                            words=_kind))
    for field, value in expected_values(item).items():
        said: str | Phrase = phrase("load.field.magnitude") if field == "magnitude" else field
        checks.append(_value(phrase("load.check.entry_value", entry=entry, field=said), value,
                             found["values"].get(field), _QUANTITY.get(field)))
    return checks


def values_table(run_dir: Path) -> list[ValueRow]:
    """Every value a run set, before and after it (the dock's before/after)."""
    made, stored = made_by_run(run_dir), read_values(run_dir, VALUES_FILE)
    rows: list[ValueRow] = []
    for key, items in (("loads", made["loads"]), ("boundary_conditions", made["conditions"])):
        for item in items:
            for field in expected_values(item):
                rows.append(ValueRow(
                    name=f"{item['name']} {field}",
                    before=_shown(stored.get("before", {}), key, item["name"], field),
                    after=_shown(stored.get("after", {}), key, item["name"], field),
                    quantity=_QUANTITY.get(field)))
    return rows


def made_by_run(run_dir: Path) -> dict[str, list[dict[str, Any]]]:
    """The steps, loads and conditions of the run's normalized calls."""
    try:
        calls = json.loads((Path(run_dir) / "normalized_calls.json").read_text("utf-8"))
    except (OSError, ValueError):
        calls = []
    made: dict[str, list[dict[str, Any]]] = {"steps": [], "loads": [], "conditions": []}
    for call in calls if isinstance(calls, list) else []:
        if not isinstance(call, dict):
            continue
        arguments = call.get("arguments") or {}
        for key in made:
            made[key] += [x for x in arguments.get(key) or [] if isinstance(x, dict)]
    return made


def _part(model: Any, run_dir: Path) -> Any:
    try:
        result = json.loads((Path(run_dir) / "workspace.json").read_text("utf-8"))
        part_name = result["target"]["part_name"]
        return model.parts[part_name]
    except Exception:  # no part to count on: the member checks say so
        return None


def _shown(values: dict[str, Any], key: str, name: str, field: str) -> str:
    entry = values.get(key, {}).get(name)
    value = (entry or {}).get("values", {}).get(field) if isinstance(entry, dict) else None
    return "—" if value is None else number_words(value)


def _value(name: Phrase, expected: float | None, actual: Any,
           quantity: Quantity | None) -> Check:
    if expected is None:  # a free dof: UNSET on the host
        free = phrase("load.value.free")
        return Check.said(name, free, free if actual is None else number_words(actual),
                          actual is None)
    if not isinstance(actual, int | float):
        return Check.said(name, number_words(expected), phrase("check.missing"), False,
                          quantity)
    ok = math.isclose(float(actual), expected, rel_tol=REL_TOLERANCE, abs_tol=0.0)
    return Check.said(name, number_words(expected), number_words(actual), ok, quantity)


def _present(name: Phrase, found: Any) -> Check:
    return Check.said(name, phrase("check.present"),
                      phrase("check.present" if found else "check.missing"), bool(found))


def _text(name: Phrase, expected: Any, actual: Any,
          words: Callable[[str], Phrase | str] = str) -> Check:
    """A name or a count compared as it is (``words``: how a value is said)."""
    shown = phrase("check.missing") if actual is None else words(str(actual))
    return Check.said(name, words(str(expected)), shown, actual == expected)


def _kind(kind: str) -> Phrase | str:
    """What the host's entry is (``samops.load_read``), in words when it is a kind."""
    return phrase(f"load.kind.{kind}") if kind in _KINDS else kind



def observation(model: Any) -> dict[str, Any]:
    """What the Load mode's observation shows of the model, and ``result.json``'s
    ``before``/``after`` hold: the names of its steps (in order), loads and boundary
    conditions, each list bounded."""
    return {key: found[:OBSERVED_NAMES] for key, found in names(read_loads(model)).items()}
