"""``sam-agent rerun RUN_ID --part P [--part Q ...] [--model M] --workspace W.sam.json
[--save OUT.sam.json] [--runs-dir DIR] [--yes] [--yes-with-warnings] [--stop-on-failure] [--json]``.

Applies a verified run's calls to other parts with no model at all (docs/architecture.md §6):
per part a fresh observation, the saved calls compiled against it, its plan and its own
approval (or ``--yes`` for every plan without warnings), one execution, verification; a
failure restores that part and the rerun goes on (``--stop-on-failure`` stops it). Plans,
questions and progress go to stderr; the summary (or ``--json``) to stdout. Exit 0 when every
part verified, 1 otherwise, 2 on usage. ``--save`` writes the database once at the end when
any part verified (failed parts were put back).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from sam_plugin.cli.common import (
    EXIT_FAILED,
    EXIT_VERIFIED,
    check_save_path,
    import_sam,
    names,
    open_workspace,
    runs_dir_of,
    save_database,
    warn_recovered_runs,
)
from sam_plugin.compilers.protocol import Target
from sam_plugin.errors import UsageError

if TYPE_CHECKING:
    from sam_plugin.runtime.events import RunEvent
    from sam_plugin.runtime.rerun.outcome import RerunSummary
    from sam_plugin.runtime.rerun.session import TargetPlan
    from sam_plugin.runtime.rerun.source import RerunSource
    from sam_plugin.runtime.store.workspace_save import OpenedWorkspace


def add_parser(commands: Any) -> None:
    rerun = commands.add_parser(
        "rerun",
        help="apply a verified run's calls to other parts, without the model",
        description="Run the calls of the verified run RUN_ID again on each --part in turn: "
        "a fresh observation, the calls compiled against the part, its plan and approval, one "
        "execution and verification. No request is sent to any model.",
    )
    rerun.add_argument("run_id", metavar="RUN_ID")
    rerun.add_argument("--part", required=True, action="append", dest="parts", metavar="P",
                       help="a part to apply the run to (repeat for more, in order)")
    rerun.add_argument("--model", metavar="M", help="the parts' model (default: the run's)")
    rerun.add_argument("--workspace", required=True, type=Path, metavar="W.sam.json")
    rerun.add_argument("--save", type=Path, metavar="OUT.sam.json",
                       help="write the database here at the end, when any part verified")
    rerun.add_argument("--runs-dir", type=Path, metavar="DIR")
    rerun.add_argument("--yes", action="store_true",
                       help="approve every plan without warnings without asking (a plan with "
                       "warnings is skipped)")
    rerun.add_argument("--yes-with-warnings", action="store_true",
                       help="as --yes, and approve plans with warnings too (read them first)")
    rerun.add_argument("--stop-on-failure", action="store_true",
                       help="skip the remaining parts after a part that did not verify")
    rerun.add_argument("--json", action="store_true", help="print the summary as JSON")
    rerun.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    return asyncio.run(rerun_command(args))


async def rerun_command(args: argparse.Namespace, *, stdin: TextIO | None = None,
                        out: TextIO | None = None, err: TextIO | None = None) -> int:
    from sam_plugin.errors import RerunRefused
    from sam_plugin.runtime.rerun.source import load_source

    stdin, out, err = stdin or sys.stdin, out or sys.stdout, err or sys.stderr
    args.yes = args.yes or args.yes_with_warnings  # as `run`: it is --yes and more
    save_path = check_save_path(args.save) if args.save else None
    runs_dir = runs_dir_of(args)
    try:
        source = load_source(runs_dir, args.run_id)
    except RerunRefused as refused:
        raise UsageError(str(refused)) from None
    sam = import_sam(err)
    opened = open_workspace(sam, args.workspace, save_path)
    targets = _targets(sam, args, source)
    return await _rerun(args, source, targets, sam, opened, runs_dir, save_path,
                        stdin=stdin, out=out, err=err)


def _targets(sam: Any, args: argparse.Namespace, source: RerunSource) -> list[Target]:
    """Every ``--part`` of the model, checked before anything runs (the target rule of
    ``runtime/run/target_check.py``)."""
    from sam_plugin.compilers.registry import get_module
    from sam_plugin.runtime.run.target_check import parts_by_model, target_problem

    model = args.model or source.target.model_name
    module = get_module(source.mode)
    parts = parts_by_model(sam.mdb)
    targets: list[Target] = []
    for part in args.parts:
        target = Target(model_name=model, part_name=part)
        if target in targets:
            raise UsageError(f"--part: {part!r} is named twice")
        if target == source.target:
            raise UsageError(f"--part: {part!r} is the part run {source.run_id} changed; name "
                             "the other parts to apply it to")
        problem = target_problem(parts, target, module)
        if problem is not None and problem.missing == "model":
            raise UsageError(f"--model: no model {model!r} in {args.workspace}; models there: "
                             f"{names(problem.models)}")
        if problem is not None:
            raise UsageError(f"--part: no part {part!r} in model {model!r} (parts: "
                             f"{names(problem.parts)}); {module.title} mode changes an "
                             "existing part")
        if part not in parts[model] and source.changed_existing_part:
            raise UsageError(f"--part: no part {part!r} in model {model!r} (parts: "
                             f"{names(parts[model])}); run {source.run_id} changed an existing "
                             "part, so its rerun needs one (only a build makes a new part)")
        targets.append(target)
    return targets


async def _rerun(args: argparse.Namespace, source: RerunSource, targets: list[Target],
                 sam: Any, opened: OpenedWorkspace, runs_dir: Path, save_path: Path | None, *,
                 stdin: TextIO, out: TextIO, err: TextIO) -> int:
    from sam_plugin.runtime.host_gateway import HostGateway
    from sam_plugin.runtime.rerun.session import RerunSession, rerun_controller

    host = HostGateway(sam)
    controller = rerun_controller(runs_dir=runs_dir, host=host, policy=_policy())
    warn_recovered_runs(controller.recovered_runs, err)
    _say_what(source, targets, args, err)
    controller.subscribe(_Progress(err))
    session = RerunSession(controller, source, targets, stop_on_failure=args.stop_on_failure,
                           progress=lambda i, t, done: _progress(i, len(targets), t, done, err))
    approver = _Approver(args, stdin, err, controller.approval_requested)
    # whatever the scripts print goes to stderr: stdout carries only the summary
    with contextlib.redirect_stdout(err):
        summary = await session.run(approver)
    saved = _save(host, save_path, opened, summary, runs_dir, controller.scrubber, err)
    _print_summary(summary, args, runs_dir, save_path, out)
    if saved is False:
        return EXIT_FAILED
    return EXIT_VERIFIED if summary.all_verified else EXIT_FAILED


def _policy() -> Any:
    """The saved run policy (the undo budget); the plans' wait is this command's own."""
    from pydantic import ValidationError

    from sam_plugin.runtime.config.store import SettingsStore

    try:
        return SettingsStore().policy()
    except ValidationError as error:
        first = error.errors()[0]
        raise UsageError(f"saved setting {'.'.join(str(p) for p in first['loc'])}: "
                         f"{first['msg']}") from None


def _say_what(source: RerunSource, targets: list[Target], args: argparse.Namespace,
              err: TextIO) -> None:
    """What will run, once, before the first part: the one summary ``--yes`` approves."""
    parts = ", ".join(t.part_name for t in targets)
    print(f"sam-agent: rerun of run {source.run_id} ({source.mode}, "
          f"{source.target.model_name}/{source.target.part_name}): its {len(source.calls)} "
          f"call(s) {', '.join(source.tools)}; no model is asked", file=err)
    print(f"  request: {source.request}", file=err)
    print(f"  on {len(targets)} part(s) of {targets[0].model_name}, in order: {parts}",
          file=err)
    if args.yes:
        print("  approval: --yes approves every plan without warnings"
              + (" and, with --yes-with-warnings, those with warnings too" if
                 args.yes_with_warnings else "; a plan with warnings is skipped "
                 "(--yes-with-warnings approves it)"), file=err)


def _progress(index: int, total: int, target: Target, done: Any, err: TextIO) -> None:
    if done is None:
        print(f"\n[{index}/{total}] {target.model_name}/{target.part_name}", file=err)
    else:
        print(f"  → {done.words()}", file=err)


class _Progress:
    """The runs' phases, one line each, on stderr."""

    def __init__(self, err: TextIO) -> None:
        self.err = err

    def __call__(self, event: RunEvent) -> None:
        from sam_plugin.runtime.event_types import PhaseChanged

        if isinstance(event, PhaseChanged) and event.phase not in (
                "plan", "complete", "failed", "cancelled"):
            print(f"  [{event.phase}] {event.label}", file=self.err)


class _Approver:
    """Each plan shown; asked unless ``--yes``; ``a`` answers yes to the rest (those without
    warnings)."""

    def __init__(self, args: argparse.Namespace, stdin: TextIO, err: TextIO,
                 approval_requested: Callable[[str], None]) -> None:
        self.approval_requested = approval_requested  # logged when a person is asked
        self.yes = bool(args.yes)
        self.with_warnings = bool(args.yes_with_warnings)
        self.stdin, self.err = stdin, err
        self.all = False

    async def __call__(self, waiting: TargetPlan) -> bool | str:
        where = f"{waiting.target.model_name}/{waiting.target.part_name}"
        print(f"--- plan for {where} (part {waiting.index} of {waiting.total}, run "
              f"{waiting.run_id}; compiled, not executed) ---", file=self.err)
        print(waiting.plan.text(), file=self.err)
        for words in waiting.expected_words():
            print(f"expected: {words}", file=self.err)
        print("---", file=self.err)
        warned = bool(waiting.plan.warnings)
        if self.yes and warned and not self.with_warnings:
            return ("the plan has warnings; --yes approves only plans without warnings "
                    "(--yes-with-warnings approves them too)")
        if self.yes or (self.all and not warned):
            print("  approved (" + ("--yes" if self.yes else "a: all") + ")", file=self.err)
            return True
        self.approval_requested("cli")
        print(f"Execute this plan on {where}? [y/N/a] (a: this and every later plan without "
              "warnings) ", end="", file=self.err)
        self.err.flush()
        answer = self.stdin.readline().strip().lower()
        if not _is_terminal(self.stdin):  # a piped answer is not echoed: show it
            print(answer or "(no answer)", file=self.err)
        if answer in ("a", "all"):
            self.all = True
            return True
        return answer in ("y", "yes")


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _save(host: Any, save_path: Path | None, opened: OpenedWorkspace, summary: RerunSummary,
          runs_dir: Path, scrubber: Any, err: TextIO) -> bool | None:
    """The database after the rerun, once, when any part verified; each verified part's
    ``result.json`` records it. None when nothing was to be saved."""
    from sam_plugin.runtime.store.run_store import RunDir

    verified = [t for t in summary.targets if t.outcome == "verified" and t.run_id]
    if save_path is None or not verified:
        return None
    outcome = save_database(host, save_path, opened, err)
    for target in verified:
        run = RunDir(runs_dir, str(target.run_id), scrubber)
        result = run.read_result()
        if result is not None:
            run.write_result(result.model_copy(update={"save": outcome}))
    return outcome.saved


def _print_summary(summary: RerunSummary, args: argparse.Namespace, runs_dir: Path,
                   save_path: Path | None, out: TextIO) -> None:
    if args.json:
        out.write(json.dumps({**summary.as_json(), "runs_dir": str(runs_dir)}, indent=2,
                             ensure_ascii=False) + "\n")
        return
    from sam_plugin.cli.run import undo_hint
    from sam_plugin.runtime.store.run_store import RunDir

    print(summary.headline()[0].upper() + summary.headline()[1:], file=out)
    for target in summary.targets:
        print(f"  {target.words()}", file=out)
        result = RunDir(runs_dir, target.run_id).read_result() if target.run_id else None
        hint = undo_hint(result, runs_dir, args.workspace) if result is not None else None
        if hint and hint.startswith("undo:"):  # the run's undo, on the file --save wrote
            print(f"    {hint}", file=out)
    if any(t.outcome == "verified" for t in summary.targets):
        if save_path is None:
            print("  --save: not given; the verified changes are only in this process's "
                  "database and are lost when it exits", file=out)
        if any(t.outcome == "verified" and not t.undoable for t in summary.targets):
            print("  some verified parts can no longer be undone: undo keeps the snapshots of "
                  "the last runs only (SAM_AGENT_UNDO_RUNS, SAM_AGENT_UNDO_BUDGET_MB)", file=out)
    elif save_path is not None:
        print(f"  --save: {save_path} was not written (no part verified)", file=out)
