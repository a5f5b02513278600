"""``sam-agent runs [--runs-dir DIR] [--ack RUN_ID] [--json]``: the history, and
acknowledging an unknown outcome (docs/architecture.md §6)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, TextIO

from sam_plugin.cli.common import EXIT_VERIFIED, runs_dir_of
from sam_plugin.errors import UsageError


def add_parser(commands: Any) -> None:
    runs = commands.add_parser(
        "runs", help="list the runs of a runs directory; acknowledge an unknown outcome",
        description="Runs newest first. A run whose outcome is unknown (submitted, then the "
        "process stopped) stays unknown and is never resubmitted; --ack records that you "
        "have checked the part.",
    )
    runs.add_argument("--runs-dir", type=Path, metavar="DIR")
    runs.add_argument("--ack", metavar="RUN_ID", help="acknowledge an unknown outcome")
    runs.add_argument("--json", action="store_true", help="print the list as JSON")
    runs.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    return runs_command(args, out=sys.stdout)


def runs_command(args: argparse.Namespace, *, out: TextIO) -> int:
    from sam_plugin.errors import NotUnknown
    from sam_plugin.runtime.store.run_history import acknowledge_unknown_run, list_runs
    from sam_plugin.runtime.text_safety import visible_json

    runs_dir = runs_dir_of(args)
    if args.ack:
        try:
            fresh = acknowledge_unknown_run(runs_dir, args.ack)
        except NotUnknown as refused:
            raise UsageError(f"--ack: {refused}") from None
        print(f"acknowledged: run {args.ack} (its outcome stays unknown; it is never "
              "resubmitted)" + ("" if fresh else "; it was acknowledged already"), file=out)
        return EXIT_VERIFIED
    summaries = [_with_plan_state(runs_dir, s) for s in list_runs(runs_dir)]
    if args.json:
        out.write(visible_json([s.model_dump(mode="json") for s in summaries]) + "\n")
        return EXIT_VERIFIED
    if not summaries:
        print(f"no runs in {runs_dir}", file=out)
    else:
        print_table(summaries, out)
    return EXIT_VERIFIED


def _with_plan_state(runs_dir: Path, summary: Any) -> Any:
    """A run whose agent's plan waits says where it stands, in the words ``run_status``
    uses (``waiting_for_approval``, ``approved``, ``declined``, ``expired``), not
    ``incomplete``."""
    if summary.status != "incomplete":
        return summary
    from sam_plugin.mcp_server.plan_state import plan_state

    state = plan_state(runs_dir / summary.run_id)
    return summary.model_copy(update={"status": state}) if state else summary


COLUMNS = ("run", "status", "mode", "model", "part", "request")
REQUEST_WIDTH = 60


def print_table(summaries: list[Any], out: TextIO) -> None:
    """Runs newest first under a header; an unknown run not yet acknowledged says how to."""
    rows = [COLUMNS]
    for summary in summaries:
        text = summary.request.strip().splitlines()[0] if summary.request.strip() else ""
        if len(text) > REQUEST_WIDTH:
            text = text[:REQUEST_WIDTH - 1] + "…"
        if summary.source == "rerun" and summary.source_run:
            text += f" (rerun of {summary.source_run})"
        if summary.status == "unknown" and not summary.acknowledged:
            text += f" (unacknowledged: sam-agent runs --ack {summary.run_id})"
        rows.append((summary.run_id, summary.status, summary.module or "-",
                     summary.model or "-", summary.part or "-", text))
    widths = [max(len(row[i]) for row in rows) for i in range(len(COLUMNS) - 1)]
    for row in rows:
        cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=False)]
        print("  ".join([*cells, row[-1]]).rstrip(), file=out)
