"""Messages as data (docs/architecture.md "Words"): a phrase is a key plus values, and the
words are made only where a person reads them, in their language and unit system.

A value carries its quantity (:class:`Measure`: a length, a stress, ...), so the unit is
added when the phrase is rendered; a value may be a phrase itself (a selector inside an
operation) or a list of phrases. The packages that make phrases own their catalogues (a
domain next to its actions, the plan's generic words beside the plan) and register them
here. A leaf: this module imports nothing of the product.

Languages: ``record`` is the English the run's files keep (``plan.json``'s text, the CLI,
MCP), byte for byte as before phrases; ``en`` and ``zh_CN`` are the dock's words.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Union

from pydantic import BaseModel, ConfigDict, Field

RECORD = "record"
LANGUAGES: tuple[str, ...] = (RECORD, "en", "zh_CN")
# the languages a person picks (the record is English, kept for the files)
PEOPLE: tuple[str, ...] = ("en", "zh_CN")


class Measure(BaseModel):
    """A number, a point or a list of numbers as said (``(5, 0, 0)``, ``210000``), and the
    quantity whose unit follows it when rendered with a unit system."""

    model_config = ConfigDict(frozen=True)

    said: str
    quantity: str


class Phrase(BaseModel):
    """A key (``part.translate``) and the values its templates name; ``data``: JSON a computed
    entry reads (a spec step, worded by its action)."""

    model_config = ConfigDict(frozen=True)

    key: str
    values: dict[str, Value] = Field(default_factory=dict)
    data: dict[str, Any] = Field(default_factory=dict, exclude_if=lambda data: not data)


Value = Union[Phrase, Measure, list[Phrase], str, int, float]  # noqa: UP007 (a runtime alias)
Phrase.model_rebuild()

# quantity -> unit (``{"length": "mm", "stress": "MPa"}``); ``name``: the system's name
Units = Mapping[str, str]
# one template, or (one, other): the first when the value ``count`` is 1
Template = str | tuple[str, str]
# a phrase worded by code its owner provides (a spec step by its action's own templates)
Computed = Callable[[Phrase, str, Units | None], str]
Entry = Mapping[str, Template] | Computed
Catalogue = Mapping[str, Entry]

# the list separator belongs to the renderer itself: a list is joined before any catalogue is
_CATALOGUES: dict[str, Entry] = {"sep": {RECORD: ", ", "en": ", ", "zh_CN": "，"}}
# ``{name}``, or ``{name|, }``: a list joined with what follows the bar (else ``sep``)
_PLACEHOLDER = re.compile(r"\{(\w+)(?:\|([^{}]*))?\}")


def register(catalogue: Catalogue) -> None:
    """Make ``catalogue``'s keys known to :func:`render` (a key is owned once)."""
    for key, entry in catalogue.items():
        if key in _CATALOGUES and _CATALOGUES[key] is not entry:
            raise ValueError(f"phrase key {key!r} is registered twice")
        _CATALOGUES[key] = entry


def known(key: str) -> bool:
    return key in _CATALOGUES


def missing(language: str, keys: Iterable[str] | None = None) -> list[str]:
    """The registered keys (or ``keys``) with no template in ``language``."""
    found = []
    for key in keys if keys is not None else _CATALOGUES:
        entry = _CATALOGUES.get(key)
        if entry is None or (not callable(entry) and language not in entry):
            found.append(key)
    return sorted(found)


def registered() -> list[str]:
    return sorted(_CATALOGUES)


def render(phrase: Phrase, language: str = RECORD, units: Units | None = None) -> str:
    """``phrase`` in ``language`` (falling back to English, then the record), each measured
    value with its unit from ``units`` (none: bare numbers)."""
    entry = _CATALOGUES.get(phrase.key)
    if entry is None:
        raise KeyError(f"phrase key {phrase.key!r} is in no catalogue")
    if callable(entry):
        return entry(phrase, language, units)
    template = entry.get(language) or entry.get("en") or entry[RECORD]
    if isinstance(template, tuple):
        template = template[0] if phrase.values.get("count") == 1 else template[1]
    return _PLACEHOLDER.sub(lambda m: _value(phrase.values[m[1]], language, units, m[2]),
                            template)


def _value(value: Value, language: str, units: Units | None, joiner: str | None) -> str:
    if isinstance(value, Phrase):
        return render(value, language, units)
    if isinstance(value, Measure):
        unit = units.get(value.quantity, "") if units is not None else ""
        return f"{value.said} {unit}" if unit else value.said
    if isinstance(value, list):
        sep = joiner if joiner is not None else render(Phrase(key="sep"), language)
        return sep.join(render(item, language, units) for item in value)
    return str(value)


def recorded(text: str) -> Phrase | None:
    """The phrase with no values whose record is exactly ``text``, or None:
    how a run written before phrases shows a fixed line of its stored English in words."""
    for key, entry in _CATALOGUES.items():
        if not callable(entry) and entry.get(RECORD) == text and "{" not in text:
            return Phrase(key=key)
    return None


def phrase(key: str, /, **values: Value) -> Phrase:
    """``Phrase(key=key, values=values)``, shorter where phrases are made."""
    return Phrase(key=key, values=values)
