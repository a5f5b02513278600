"""The checks of a run written before check phrases, as the dock shows them: their recorded
English read back into words (``ui/check_words.py`` shows a check made with phrases; this is
only for checks that have none: an old run directory, or a check built from English)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from sam_plugin.compilers.units import UnitSystem, measured
from sam_plugin.runtime.verify.part_comparison import BY_VALUES, NOT_COMPARED, REST
from sam_plugin.ui.i18n import tr

_FIXED = frozenset({"part exists", "node count", "element count", "geometry unchanged",
                    "elements with a section", "oriented beam elements", "hanging nodes",
                    "property values", "part compared with the plan",
                    "free nodes the run leaves"})
# a part fingerprint (``25n-16e-<hash>``, or a readback's hex digest): never shown as such
_FINGERPRINT = re.compile(r"^(?:\d+n-\d+e-)?[0-9a-f]{16,}$|^absent-[0-9a-f]+$")


@dataclass(frozen=True)
class CheckRow:
    """One row of the checks table: the words shown, and the raw values for the tooltip."""

    name: str
    expected: str
    actual: str
    ok: bool
    raw: tuple[str, str, str] = ("", "", "")
    compared: bool = True  # False: a note, not a comparison (no expected value, no OK)


def recorded_check_row(check: Any, units: UnitSystem | None = None) -> CheckRow:
    """A check with no phrases as the table shows it: names and values in words (a value
    with its unit), a fingerprint said as "as before" or "changed" (the raw values stay in
    the tooltip)."""
    expected, actual = check_value(check.expected), check_value(check.actual)
    quantity = getattr(check, "quantity", None)
    if quantity is not None:
        expected, actual = (measured(expected, quantity, units),
                            measured(actual, quantity, units))
    if check.name in (NOT_COMPARED, BY_VALUES) and check.ok:  # a note, not a comparison
        note = tr("see the property values") if check.name == BY_VALUES else actual
        return CheckRow(name=check_name(check.name), expected="—", actual=note, ok=True,
                        raw=(check.name, check.expected, check.actual), compared=False)
    if check.name == REST:  # a paragraph of fingerprints and counts: its words on hover
        expected = tr("as before the run")
        actual = expected if check.ok else tr("changed")
    elif _FINGERPRINT.match(check.expected or "") or _FINGERPRINT.match(check.actual or ""):
        expected = tr("as before the run")
        actual = tr("as before the run") if check.ok else tr("changed")
    return CheckRow(name=check_name(check.name), expected=expected, actual=actual, ok=check.ok,
                    raw=(check.name, check.expected, check.actual))


# "<kind> <name>[ <what>]": the kind and what are words, the name is the model's own
_NAMED = re.compile(r"^(material|section|set|file) (\S+)(?: (.+))?$")
_SHAPES = re.compile(r"^(QUAD|TRI|BEAM) elements$")
_WRITTEN = re.compile(r"^written \((\d+) bytes\)$")
# the exact comparison with the plan (runtime.part_comparison): short words in the table, the
# whole sentence in the tooltip
_AS_PLANNED = re.compile(r"^(existing )?(nodes|elements|set members|section assignments) "
                         r"match the plan \(exact\)$")
_PLANNED_COUNT = re.compile(
    r"^(\d+) (nodes|elements|set\(s\))(?: at the planned coordinates \(within [^)]*\)"
    r"| with the planned (?:shapes and nodes|members|sections)| as planned)$")
# the tally of the exact comparison (``part_comparison._tally``), then what it compares
_TALLY = re.compile(r"^(\d+) (?:nodes|elements) changed, (\d+) removed(?:, (\d+) new)?"
                    r"(?:;| as planned)")


def _fixed(name: str) -> str:
    return {
        "part exists": tr("part exists"),
        "node count": tr("node count"),
        "element count": tr("element count"),
        "geometry unchanged": tr("geometry unchanged"),
        "elements with a section": tr("elements with a section"),
        "oriented beam elements": tr("oriented beam elements"),
        "hanging nodes": tr("hanging nodes"),
        "property values": tr("property values"),
        "part compared with the plan": tr("compared with the plan"),
        "free nodes the run leaves": tr("free nodes the run leaves"),
    }[name]


def _kind(kind: str) -> str:
    return {"material": tr("material"), "section": tr("section"), "set": tr("set"),
            "file": tr("file")}[kind]


def _what(what: str) -> str:
    return {"E": "E", "ν": "ν", "density": tr("density"), "thickness": tr("thickness"),
            "material": tr("material"), "profile": tr("profile")}.get(
        what, what.replace("profile ", tr("profile") + " "))


def check_name(name: str) -> str:
    if name in _FIXED:
        return _fixed(name)
    if name == REST:
        return tr("rest of the part unchanged")
    if name == BY_VALUES:
        return tr("definitions the calls write")
    planned = _AS_PLANNED.match(name)
    if planned:  # the entities the calls add, change or remove, compared one by one
        existing, kind = planned.groups()
        if existing:  # new ones the plan does not predict one by one: the counts check them
            return {"nodes": tr("existing nodes as planned (new ones: node count)"),
                    "elements": tr("existing elements as planned (new ones: element count)")
                    }[kind]
        return {"nodes": tr("nodes changed, removed, added as planned"),
                "elements": tr("elements changed, removed, added as planned"),
                "set members": tr("set members as planned"),
                "section assignments": tr("sections as planned")}[kind]
    if name.startswith("part matches the plan (sampled"):
        return tr("part as planned (sampled)")
    shapes = _SHAPES.match(name)
    if shapes:
        return tr("{shape} elements").format(shape=shapes.group(1))
    named = _NAMED.match(name)
    if named:
        kind, subject, what = named.groups()
        text = f"{_kind(kind)} {subject}"
        return f"{text} {_what(what)}" if what else text
    return name


def check_value(value: str) -> str:
    """``present``/``missing``/``written`` in words; ``written (1234 bytes)`` is just
    ``written`` (the size stays in the tooltip)."""
    if _WRITTEN.match(value):
        return tr("written")
    tally = _TALLY.match(value)
    if tally:
        changed, removed, new = tally.groups()
        if new is None:
            return tr("{changed} changed, {removed} removed").format(changed=changed,
                                                                     removed=removed)
        return tr("{changed} changed, {removed} removed, {new} new").format(
            changed=changed, removed=removed, new=new)
    counted = _PLANNED_COUNT.match(value)
    if counted:
        count, what = counted.groups()
        return {"nodes": tr("{count} nodes"), "elements": tr("{count} elements"),
                "set(s)": tr("{count} set(s)")}[what].format(count=count)
    return {"present": tr("present"), "missing": tr("missing"), "written": tr("written"),
            "empty": tr("empty"), "not read": tr("not read"), "read back": tr("read back"),
            "counts and names only": tr("counts and names"),
            "counts predicted by the compilers": tr("counts and names")}.get(value, value)
