"""``sam-agent eval SUITE [...]``: a task suite end to end, scored and reported
(docs/architecture.md §6); the work is ``sam_plugin.evaluation.command``, imported only
when the command runs."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from sam_plugin.cli.common import repair_count


def add_parser(commands: Any) -> None:
    evaluate = commands.add_parser(
        "eval",
        help="run a task suite end to end and report (sam-agent eval --help)",
        description="Run a task suite end to end (spec confirmed, plan approved) and score "
        "each task on the final model. Live: --base-url/--api-model (or SAM_AGENT_* "
        "variables); offline: --replay CASSETTES.",
    )
    evaluate.add_argument("suite", type=Path, metavar="SUITE", help="directory of task files")
    evaluate.add_argument("--base-url", metavar="URL")
    evaluate.add_argument("--api-model", metavar="NAME")
    evaluate.add_argument("--replay", type=Path, metavar="CASSETTES",
                          help="replay recorded exchanges over loopback, no network")
    evaluate.add_argument("--record", type=Path, metavar="CASSETTES",
                          help="keep every provider exchange as a cassette here")
    evaluate.add_argument("--only-stale", action="store_true",
                          help="with --record: keep every cassette that still replays, and "
                          "record only the tasks whose cassette is missing, stale (recorded on "
                          "other prompts) or mismatching; resumes an interrupted recording")
    evaluate.add_argument("--fail-on-mismatch", action="store_true",
                          help="with --replay: exit 1 when a cassette mismatches (stale "
                          "cassettes do not count)")
    evaluate.add_argument("--repairs", type=repair_count, metavar="N",
                          help="repair rounds (default: the controller's)")
    evaluate.add_argument("--only", metavar="NAME,...", default="",
                          help="run only these tasks, in this order (comma separated)")
    evaluate.add_argument("--json", action="store_true", help="print report.json on stdout")
    evaluate.add_argument("--min-success", type=float, default=0.0, metavar="R",
                          help="exit 0 only when the success rate is at least R (0..1)")
    evaluate.add_argument("--baseline", choices=["free-python"],
                          help="also ask the model for free SAM Python and score it alike")
    evaluate.add_argument("--trust-cassette", action="store_true",
                          help="with --baseline: run its scripts even where this machine "
                          "gives no kernel box (Landlock and seccomp) for them, with the "
                          "language check alone; only for answers you have read")
    evaluate.add_argument("--no-pipeline", action="store_true",
                          help="with --baseline: run the free-Python baseline only (the "
                          "pipeline is reported as skipped)")
    evaluate.add_argument("--unconstrained", action="store_true",
                          help="live: never hold tool calls to their schema (the setting "
                          "constrained_calls=false), to measure what constraints do; kept in "
                          "meta.json, so that a replay asks the same")
    evaluate.add_argument("--calls", choices=["spec", "model"],
                          help="live: the tool calls computed from the confirmed spec "
                          "(default) or filled by the model in collection rounds; kept in "
                          "meta.json, so that a replay asks the same")
    evaluate.add_argument("--design", choices=["parts", "whole"],
                          help="live: the whole spec in one request (default; "
                          "SAM_AGENT_DESIGN), or in parts, the actions then each action's "
                          "values; kept in meta.json, so that a replay asks the same")
    evaluate.add_argument("--out", type=Path, default=Path("eval-report"), metavar="DIR",
                          help="report.json, report.md, outcomes.png and run dirs (default "
                          "./eval-report)")
    evaluate.add_argument("--script-timeout", type=float, default=120.0, metavar="S",
                          help="seconds a free-Python script may run")
    evaluate.add_argument("--task-timeout", type=float, metavar="S",
                          help="live: seconds each run of a task (the pipeline, the baseline) "
                          "may take; one over it fails at layer 'timeout', its exchanges so "
                          "far are recorded, and the suite goes on (default: no bound)")
    evaluate.set_defaults(handler=handle, error_prefix="sam-agent eval")


def handle(args: argparse.Namespace) -> int:
    import asyncio

    from sam_plugin.evaluation import command

    return asyncio.run(command.run(args))
