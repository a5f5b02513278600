"""The second signal measured on a suite with no model (docs/architecture.md §4 "The design,
asked in parts"): which refusal tasks the request's own words refuse by their category, and
which edit tasks they would wrongly refuse.

    python -m sam_plugin.evaluation.words_signal eval/suite eval/suite-words
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sam_plugin.compilers.spec.out_of_mode import refused_by_words
from sam_plugin.evaluation.task import Task, load_suite


@dataclass
class SignalCounts:
    """One suite: refusal tasks by what the words did, and the edits they would refuse."""

    suite: str
    refusals: int = 0
    edits: int = 0
    by_category: list[str] = field(default_factory=list)
    other_category: list[str] = field(default_factory=list)  # "task: expected -> said"
    missed: list[str] = field(default_factory=list)
    false_refusals: list[str] = field(default_factory=list)  # "task: category (words)"

    def line(self) -> str:
        return (f"{self.suite}: refusals caught by their category "
                f"{len(self.by_category)}/{self.refusals} (another category "
                f"{len(self.other_category)}, missed {len(self.missed)}); edits wrongly "
                f"refused {len(self.false_refusals)}/{self.edits}")


def count(suite: Path, tasks: Sequence[Task] | None = None) -> SignalCounts:
    """The signal over every task of ``suite``."""
    counts = SignalCounts(suite=str(suite))
    for task in tasks if tasks is not None else load_suite(suite):
        asked = refused_by_words(task.request, task.mode)
        if task.expect == "nothing_runs" and task.category is None:
            continue  # refused by the mode's own rules, not by category
        if task.expect == "nothing_runs":
            counts.refusals += 1
            if asked is None:
                counts.missed.append(task.name)
            elif asked.category == task.category:
                counts.by_category.append(task.name)
            else:
                counts.other_category.append(f"{task.name}: {task.category} -> "
                                             f"{asked.category}")
        else:
            counts.edits += 1
            if asked is not None:
                counts.false_refusals.append(f"{task.name}: {asked.category} "
                                             f"(“{asked.words}”)")
    return counts


def main(argv: Sequence[str]) -> int:
    """Print each suite's counts and every task not caught; exit 1 on a false refusal."""
    wrong = 0
    for suite in argv or ("eval/suite", "eval/suite-words"):
        counts = count(Path(suite))
        print(counts.line())
        for said in (*counts.other_category, *counts.missed):
            print(f"  not by its category: {said}")
        for said in counts.false_refusals:
            print(f"  WRONGLY REFUSED: {said}")
        wrong += len(counts.false_refusals)
    return 1 if wrong else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
