"""What an undo shows: which run it names (its request and start time, not only its id), and
afterwards what was put back, read back and checked (docs/ui.md "Undo").

No widgets here: the dock asks with these words, and the result view fills its tables with
the rows; ``result.json`` keeps the raw summaries and fingerprints.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sam_plugin.runtime.store.run_store import RunDir, RunResult, StateSummary, run_started
from sam_plugin.ui.check_words import CheckRow
from sam_plugin.ui.i18n import tr

REQUEST_SHOWN = 70  # characters of the request a question or a status line quotes
ABSENT_PREFIX = "absent-"  # the fingerprint of a part that did not exist (observation.py)


@dataclass(frozen=True)
class RunWords:
    """A run as the analyst knows it: what was asked, when, on which part."""

    run_id: str
    request: str
    started: str  # local time, ``2026-12-01 14:32:05``
    target: str  # ``Model-1/Plate``

    def short(self) -> str:
        """``the run of 2026-12-01 14:32:05 ("build a 60 x 100 plate …")``."""
        return tr("the run of {started} (“{request}”)").format(
            started=self.started, request=_quoted(self.request))


@dataclass(frozen=True)
class UndoOutcome:
    """An undo that happened: the run, the part as the run left it, as it was before the run,
    and as read back after the undo."""

    run: RunWords
    left_by_run: StateSummary | None
    before_run: StateSummary | None
    read_back: StateSummary | None
    exists_now: bool


def run_words(runs_dir: Path, run_id: str) -> RunWords:
    from sam_plugin.ui.history_view import local_time, run_target

    run = RunDir(runs_dir, run_id)
    try:
        request = run.file("request.txt").read_text(encoding="utf-8").strip()
    except OSError:
        request = ""
    try:
        started = local_time(run_started(run_id))
    except ValueError:
        started = run_id
    return RunWords(run_id=run_id, request=" ".join(request.split()), started=started,
                    target=run_target(run))


def undo_question(words: RunWords, before_run: StateSummary | None) -> str:
    """The confirmation the dock asks before an undo."""
    text = tr("Undo {run} on {target}?").format(run=words.short(), target=words.target)
    if before_run is not None:
        if existed(before_run):
            text += "\n\n" + tr("The part goes back to {nodes} nodes and {elements} elements, "
                                "as it was before that run; what the run changed is lost.").format(
                nodes=before_run.node_count, elements=before_run.element_count)
        else:
            text += "\n\n" + tr("The part did not exist before that run: it is removed.")
    return text


def existed(state: StateSummary | None) -> bool:
    return state is not None and not str(state.fingerprint or "").startswith(ABSENT_PREFIX)


def undo_outcome(words: RunWords, run_before_undo: RunResult | None, undone: RunResult,
                 exists_now: bool) -> UndoOutcome:
    left = run_before_undo.after if run_before_undo is not None else None
    return UndoOutcome(run=words, left_by_run=left, before_run=undone.before,
                       read_back=undone.after, exists_now=exists_now)


def undo_headline(outcome: UndoOutcome) -> str:
    return tr("Undone: {run} on {target}. The part was put back as it was before that run, "
              "then read back and checked:").format(run=outcome.run.short(),
                                                    target=outcome.run.target)


def undo_status(outcome: UndoOutcome) -> str:
    return tr("Undone — {target} is back as it was before the run of {started}; read back "
              "and checked").format(target=outcome.run.target, started=outcome.run.started)


def undo_checks(outcome: UndoOutcome) -> list[CheckRow]:
    """The part read back after the undo against the part before the run, row by row."""
    before, now = outcome.before_run, outcome.read_back
    if before is None or now is None:
        return []
    rows = [_row(tr("part exists"), _presence(existed(before)), _presence(outcome.exists_now),
                 existed(before) == outcome.exists_now)]
    rows.append(_count_row(tr("nodes as before the run"), before.node_count, now.node_count))
    rows.append(_count_row(tr("elements as before the run"), before.element_count,
                           now.element_count))
    for shape in sorted(set(before.shape_counts) | set(now.shape_counts)):
        was, is_now = before.shape_counts.get(shape, 0), now.shape_counts.get(shape, 0)
        if was or is_now:
            rows.append(_count_row(tr("{shape} elements").format(shape=shape), was, is_now))
    rows.append(_row(tr("sets as before the run"), _names(before.sets), _names(now.sets),
                     sorted(before.sets) == sorted(now.sets)))
    same = bool(before.fingerprint) and before.fingerprint == now.fingerprint
    rows.append(CheckRow(
        name=tr("part identical to before the run"), expected=tr("identical"),
        actual=tr("identical") if same else tr("different"), ok=same,
        raw=(tr("fingerprint of the whole part (coordinates, connectivity, sets, sections)"),
             str(before.fingerprint or ""), str(now.fingerprint or ""))))
    return rows


def _row(name: str, expected: str, actual: str, ok: bool) -> CheckRow:
    return CheckRow(name=name, expected=expected, actual=actual, ok=ok,
                    raw=(name, expected, actual))


def _count_row(name: str, expected: int, actual: int) -> CheckRow:
    return _row(name, str(expected), str(actual), expected == actual)


def _presence(present: bool) -> str:
    return tr("present") if present else tr("missing")


def _names(names: list[str]) -> str:
    return ", ".join(sorted(names)) if names else tr("none")


def _quoted(request: str) -> str:
    if len(request) <= REQUEST_SHOWN:
        return request
    cut = request[:REQUEST_SHOWN].rsplit(" ", 1)[0]
    return cut + " …"
