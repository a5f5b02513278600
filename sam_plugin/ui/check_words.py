"""Check names and values as the dock shows them: each check's phrases rendered in the dock's
language (docs/architecture.md "Messages as data"); ``result.json`` keeps the English, and
the recorded text is each cell's tooltip. A value with no phrase (a number, a range, a list
of differences) is shown as recorded, with its unit. A check with no phrases at all (a run
directory written before them) shows its recorded English as it is: nothing is read back."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sam_plugin.compilers.check_phrases import NOTES
from sam_plugin.compilers.plan import every_domain_words
from sam_plugin.compilers.units import UnitSystem, measured
from sam_plugin.ui.plan_text import language
from sam_plugin.words.phrase import Phrase, render


@dataclass(frozen=True)
class CheckRow:
    """One row of the checks table: the words shown, and the raw values for the tooltip."""

    name: str
    expected: str
    actual: str
    ok: bool
    raw: tuple[str, str, str] = ("", "", "")
    compared: bool = True  # False: a note, not a comparison (no expected value, no OK)


def check_row(check: Any, units: UnitSystem | None = None) -> CheckRow:
    """A check of ``result.json`` as the table shows it: its name and values in words (a
    number with its unit), a fingerprint said as "as before the run" or "changed"."""
    name: Phrase | None = getattr(check, "name_phrase", None)
    if name is None:
        return recorded_check_row(check, units)
    every_domain_words()
    shown = language()
    raw = (check.name, check.expected, check.actual)
    quantity = getattr(check, "quantity", None)

    def value(said: Phrase | None, recorded: str) -> str:
        if said is not None:
            return render(said, shown)
        return measured(recorded, quantity, units) if quantity is not None else recorded

    expected = value(check.expected_phrase, check.expected)
    actual = value(check.actual_phrase, check.actual)
    if name.key in NOTES and check.ok:  # a note, not a comparison: no expected value
        return CheckRow(name=render(name, shown), expected="—", actual=actual, ok=True,
                        raw=raw, compared=False)
    return CheckRow(name=render(name, shown), expected=expected, actual=actual, ok=check.ok,
                    raw=raw)


def recorded_check_row(check: Any, units: UnitSystem | None = None) -> CheckRow:
    """A check written before check phrases, as it was recorded: its English as it is (a
    part's fingerprint too), a value with a ``quantity`` with its unit (that is data)."""
    quantity = getattr(check, "quantity", None)
    expected, actual = check.expected, check.actual
    if quantity is not None:
        expected, actual = measured(expected, quantity, units), measured(actual, quantity, units)
    return CheckRow(name=check.name, expected=expected, actual=actual, ok=check.ok,
                    raw=(check.name, check.expected, check.actual))
