"""Check names and values as the dock shows them (translated; ``result.json`` keeps the raw
English names, and the raw text is each cell's tooltip)."""

from __future__ import annotations

import re

from sam_plugin.ui.i18n import tr

_FIXED = frozenset({"part exists", "node count", "element count", "geometry unchanged",
                    "elements with a section", "oriented beam elements", "hanging nodes",
                    "property values"})
# "<kind> <name>[ <what>]": the kind and what are words, the name is the model's own
_NAMED = re.compile(r"^(material|section|set|file) (\S+)(?: (.+))?$")
_SHAPES = re.compile(r"^(QUAD|TRI|BEAM) elements$")
_WRITTEN = re.compile(r"^written \((\d+) bytes\)$")


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
    return {"present": tr("present"), "missing": tr("missing"), "written": tr("written"),
            "empty": tr("empty"), "not read": tr("not read"),
            "read back": tr("read back")}.get(value, value)
