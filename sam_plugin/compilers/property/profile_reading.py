"""The beam profile a request's words name (docs/architecture.md §4 "One repair before
Review"), read with the words of ``profile_words.py``: "a solid round bar, 12 mm in
diameter" names a circle, "给梁定义一个矩形截面" a rectangle, "a beam section 20 by 40" a
beam section of no shape the words say. A request that also names a shell (a plate, quads)
is said so, for it may ask for a shell section beside the beam."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from sam_plugin.compilers.property.profile_words import (
    BEAM_WORDS,
    CAPITAL_WORDS,
    NOT_A_PROFILE_WORDS,
    PROFILE_WORDS,
    ROUND_DIMENSION_WORDS,
    SHELL_WORDS,
)
from sam_plugin.compilers.spec.request_words import fold


def _pattern(words: Iterable[str]) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{w})" for w in words), re.IGNORECASE)


_SHAPES = {shape: _pattern(words) for shape, words in PROFILE_WORDS.items()}
_BEAM = _pattern(BEAM_WORDS)
_ROUND = _pattern(ROUND_DIMENSION_WORDS)
_NOT_A_PROFILE = _pattern(NOT_A_PROFILE_WORDS)
_SHELL = _pattern(SHELL_WORDS)
# a name the analyst gives (ROD, RECT_B, IPE200): capitals of two letters or more
_NAME = re.compile(r"(?<![A-Za-z0-9_-])(?=[A-Z0-9_]*[A-Z][A-Z0-9_]*[A-Z])[A-Z][A-Z0-9_]*"
                   r"(?![A-Za-z0-9_-])")


@dataclass(frozen=True)
class NamedProfile:
    """The request's words that name a beam profile (``words``, as the request says them,
    in its order) and the profile shape they name (``None``: a beam section of no shape the
    words say)."""

    words: tuple[str, ...]
    shape: str | None


def named_profile(request: str) -> NamedProfile | None:
    """The beam profile ``request`` names, or None: the shape its first profile words name
    ("round bar": circle), else a round dimension's ("diameter 12": circle, where it names
    no hole, disc or other round thing), else a beam section of no shape."""
    text = _without_names(fold(request))
    shaped = _found([(m, shape) for shape, pattern in _SHAPES.items()
                     for m in pattern.finditer(text)])
    if shaped:
        return NamedProfile(tuple(dict.fromkeys(m.group(0) for m, _ in shaped)), shaped[0][1])
    beam = _found([(m, None) for m in _BEAM.finditer(text)])
    round_ = [] if _NOT_A_PROFILE.search(text) else _found(
        [(m, "circle") for m in _ROUND.finditer(text)])
    said = sorted([*beam, *round_], key=lambda found: found[0].start())
    if not said:
        return None
    return NamedProfile(tuple(dict.fromkeys(m.group(0) for m, _ in said)),
                        "circle" if round_ else None)


def names_a_shell(request: str) -> bool:
    """Whether ``request`` names a shell, a plate or its elements."""
    return _SHELL.search(fold(request)) is not None


def _found(matches: list[tuple[re.Match[str], str | None]]
           ) -> list[tuple[re.Match[str], str | None]]:
    """The matches in the request's order, each only where no earlier (or longer one at the
    same place) covers it: "round bar" is one phrase, not a circle's and a bar's."""
    kept: list[tuple[re.Match[str], str | None]] = []
    for match, shape in sorted(matches, key=lambda f: (f[0].start(), -len(f[0].group(0)))):
        if not kept or match.start() >= kept[-1][0].end():
            kept.append((match, shape))
    return kept


def _without_names(text: str) -> str:
    """``text`` with the analyst's names (tokens in capitals) blanked out, the capital
    words that are words kept: a section called ROD names no rod."""
    return _NAME.sub(lambda m: m.group(0) if m.group(0) in CAPITAL_WORDS
                     else " " * len(m.group(0)), text)
