"""Argument checks shared by the offline SAM's API calls (the host's own error texts)."""

from __future__ import annotations

import math
from numbers import Real
from typing import Any


def reject_keywords(extra: dict[str, Any]) -> None:
    """SAM's reaction to an unknown keyword: ``TypeError: keyword error on <keyword>``."""
    if extra:
        raise TypeError(f"keyword error on {next(iter(extra))}")


def check_name(value: Any, what: str) -> str:
    """A repository key: a non-empty string without leading or trailing blanks."""
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a string; got {type(value).__name__}")
    if not value or value != value.strip():
        raise ValueError(f"{what} must be a non-empty name without surrounding blanks; "
                         f"got {value!r}")
    return value


def finite(value: Any, what: str) -> float:
    """A finite real number (``bool`` is not a number here)."""
    if isinstance(value, bool) or not isinstance(value, Real):
        raise TypeError(f"{what} must be a number; got {type(value).__name__}")
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"{what} must be finite; got {number!r}")
    return number


def positive(value: Any, what: str) -> float:
    number = finite(value, what)
    if number <= 0.0:
        raise ValueError(f"{what} must be greater than 0; got {number!r}")
    return number


def vec3(value: Any, what: str) -> tuple[float, float, float]:
    """Three finite numbers as a tuple of floats; the fast path is a tuple of floats."""
    try:
        x, y, z = value
    except (TypeError, ValueError):
        raise TypeError(f"{what} must be a sequence of 3 numbers; got {value!r}") from None
    if type(x) is float and type(y) is float and type(z) is float:
        # inf - inf and nan - nan are nan, which never equals 0.0
        if x - x == 0.0 and y - y == 0.0 and z - z == 0.0:
            return (x, y, z)
    return (finite(x, f"{what}[0]"), finite(y, f"{what}[1]"), finite(z, f"{what}[2]"))


def label_value(value: Any, what: str) -> int:
    """A host label: a positive integer."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be a positive integer; got {value!r}")
    if value < 1:
        raise ValueError(f"{what} must be a positive integer; got {value}")
    return value


def describe_labels(labels: Any, noun: str) -> str:
    """``existing node labels: 1..16 (16 nodes)`` or ``no nodes exist``."""
    labels = list(labels)
    if not labels:
        return f"no {noun}s exist"
    return f"existing {noun} labels: {min(labels)}..{max(labels)} ({len(labels)} {noun}s)"
