"""What the analyst types into a field of the spec form, read as the JSON value it stands for,
and a value written back as text (docs/ui.md "Editing the spec").

No Qt here, and no checking: a text is read as literally as its kind allows (``5`` a number,
``1-5, 9`` the labels 1 to 5 and 9, ``(0, 0, 0); (60, 0, 0)`` two points), and what is not a
number where one belongs is kept as the string typed, so that the spec reader
(``compilers/spec/reading.py``) says what is wrong with it in its own words
(``'abc' is not of type 'number'``). Only a text no JSON value can stand for (a JSON field that
does not parse, a label range too long to list) is said here, as an :class:`Unreadable`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from sam_plugin.compilers.spec.values import label_words, number_words

# the kinds typed into one line of text (or a small box for the JSON ones); the others are
# chosen (bool, choice, choices) or made of fields (vector, record)
TEXT_KINDS: Final = frozenset({"number", "integer", "name", "names", "labels", "numbers",
                               "integers", "points", "records", "count_or_records"})
JSON_KINDS: Final = frozenset({"records", "count_or_records"})
MAX_RANGE_LABELS = 1_000_000  # a range is listed label by label: beyond this, say so


class _Absent:
    """Nothing typed: the key is left out of the spec."""

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT: Final = _Absent()


@dataclass(frozen=True)
class Unreadable:
    """A text no JSON value stands for: ``code`` says which (``json``, ``range``, ``points``),
    ``detail`` the particulars; the form says it in the UI's language."""

    code: str
    detail: str = ""


@dataclass(frozen=True)
class Reading:
    """A field's text read: its value (``ABSENT`` when empty), or why it cannot be read (the
    value is then the text itself, so the spec still holds what was typed)."""

    value: Any
    unreadable: Unreadable | None = None


_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_RANGE = re.compile(r"(\d+)\s*[-–]\s*(\d+)")
_SEPARATORS = re.compile(r"[,;\s]+")
_POINT = re.compile(r"\(([^()]*)\)")


def number_of(token: str) -> Any:
    """``5`` -> 5, ``2.5e3`` -> 2500.0; anything else is kept as the string typed."""
    token = token.strip()
    if not _NUMBER.fullmatch(token):
        return token
    if any(c in token for c in ".eE"):
        return float(token)
    return int(token)


def _tokens(text: str) -> list[str]:
    inner = text.strip()
    if inner.startswith("[") and inner.endswith("]"):
        inner = inner[1:-1]
    return [t for t in _SEPARATORS.split(inner) if t]


def read_text(kind: str, text: str) -> Reading:
    """The value a field of ``kind`` holds when ``text`` is typed in it."""
    if not text.strip():
        return Reading(ABSENT)
    if kind in ("number", "integer"):
        return Reading(number_of(text))
    if kind == "name":
        return Reading(text.strip())
    if kind == "names":
        return Reading([t.strip() for t in text.split(",") if t.strip()])
    if kind in ("numbers", "integers"):
        return Reading([number_of(t) for t in _tokens(text.replace("×", " ").replace(" x ", " "))])
    if kind == "labels":
        return _labels(text)
    if kind == "points":
        return _points(text)
    return _json(text)


def _labels(text: str) -> Reading:
    """``1-5, 9`` -> [1, 2, 3, 4, 5, 9]; a token that is no label stays as typed."""
    found: list[Any] = []
    for token in _tokens(re.sub(r"\s*[-–]\s*", "-", text)):
        span = _RANGE.fullmatch(token)
        if span is None:
            found.append(number_of(token))
            continue
        low, high = int(span.group(1)), int(span.group(2))
        if high - low + 1 > MAX_RANGE_LABELS:
            return Reading(text, Unreadable("range", token))
        found.extend(range(low, high + 1) if low <= high else [token])
    return Reading(found)


def _points(text: str) -> Reading:
    """``(0, 0, 0); (60, 0, 0)`` or the JSON ``[[0, 0, 0], [60, 0, 0]]``."""
    if text.strip().startswith("["):
        return _json(text)
    groups = _POINT.findall(text)
    rest = _POINT.sub("", text)
    if not groups or rest.strip(" ;,\n\t"):
        return Reading(text, Unreadable("points"))
    return Reading([[number_of(t) for t in _tokens(group)] for group in groups])


def _reject_constant(token: str) -> Any:
    raise ValueError(f"{token} is not a finite number")


def _json(text: str) -> Reading:
    try:
        return Reading(json.loads(text, parse_constant=_reject_constant))
    except ValueError as error:
        return Reading(text, Unreadable("json", str(error)))


def read_vector(texts: Sequence[str]) -> Reading:
    """The three fields of a vector: ``ABSENT`` when all are empty; an empty one is kept as
    ``""`` so that the reader names it."""
    if not any(t.strip() for t in texts):
        return Reading(ABSENT)
    return Reading([number_of(t) for t in texts])


# -- back to text -----------------------------------------------------------------------------


def _number_text(value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return number_words(value)


def field_text(kind: str, value: Any) -> str:
    """``value`` as the field of ``kind`` shows it (what :func:`read_text` reads back). A
    string where the kind wants a number or a list is what was typed: shown as it is."""
    if value is ABSENT or value is None:
        return ""
    if isinstance(value, str) and kind != "count_or_records":
        return value
    if kind in ("number", "integer"):
        return _number_text(value)
    if not isinstance(value, list):
        return json.dumps(value, ensure_ascii=False)
    if kind == "names":
        return ", ".join(str(v) for v in value)
    if kind in ("numbers", "integers"):
        return ", ".join(_number_text(v) for v in value)
    if kind == "labels":
        if all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            return label_words(value)
        return ", ".join(_number_text(v) for v in value)
    if kind == "points":
        return _points_text(value)
    return _json_lines(value)


def _points_text(value: list[Any]) -> str:
    if value and not isinstance(value[0], list):  # one point, not a list of them
        value = [value]
    if all(isinstance(p, list) for p in value):
        return "; ".join("(" + ", ".join(_number_text(x) for x in p) + ")" for p in value)
    return json.dumps(value, ensure_ascii=False)


def _json_lines(value: list[Any]) -> str:
    """A list as JSON, one item a line (patches, elements by their corners)."""
    if not value:
        return "[]"
    return "[" + ",\n ".join(json.dumps(item, ensure_ascii=False) for item in value) + "]"


def vector_texts(value: Any) -> tuple[str, str, str]:
    """A vector's three fields."""
    if value is ABSENT or value is None:
        return "", "", ""
    if not isinstance(value, list):
        return _number_text(value), "", ""
    shown = [_number_text(x) for x in value[:3]] + ["", "", ""]
    return shown[0], shown[1], shown[2]
