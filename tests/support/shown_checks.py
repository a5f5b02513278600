"""The dock's words for a check as the fixtures record them (``tests/fixtures/checks``): what
the dock said of a check when it still read the English of checks written before phrases;
a check made from phrases must say the same."""

from __future__ import annotations

import json
from pathlib import Path

from sam_plugin.ui.check_words import CheckRow

FIXTURES = Path(__file__).parents[1] / "fixtures" / "checks"
# by the English a check records and its ok (json of [name, expected, actual, ok])
SHOWN: dict[str, list[object]] = json.loads(
    (FIXTURES / "check_cases_shown.json").read_text("utf-8"))["shown"]


def shown_row(shown: list[object], raw: tuple[str, str, str]) -> CheckRow:
    """A row as a fixture records it: name, expected, actual, ok, compared."""
    name, expected, actual, ok, compared = shown
    assert isinstance(name, str) and isinstance(expected, str) and isinstance(actual, str)
    return CheckRow(name=name, expected=expected, actual=actual, ok=bool(ok), raw=raw,
                    compared=bool(compared))


def shown_for(english: tuple[str, str, str], ok: bool) -> CheckRow:
    """The row recorded for a check by its English and its ok."""
    return shown_row(SHOWN[json.dumps([*english, ok], ensure_ascii=False)], english)
