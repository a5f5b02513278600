"""``sam-agent approve RUN_ID [--runs-dir DIR] [--decline]``: a person's decision, typed at a
terminal, on what an MCP client asks to run (docs/mcp.md "Approval").

It shows the plan (or the undo) that waits, and records the decision in the run directory,
where the waiting server reads it (``mcp_server/approval.py``: first decision wins). An
approval is typed at a terminal: with stdin not a terminal (an agent's shell, a script, a
pipe) it is refused; ``--decline`` needs no terminal (declining runs nothing). There is no
flag that approves without asking. Exit 0 recorded, 1 refused, 3 nothing recorded.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from sam_plugin.cli.common import EXIT_FAILED, EXIT_REVIEW, EXIT_VERIFIED, runs_dir_of

if TYPE_CHECKING:
    from sam_plugin.mcp_server.approval import Verdict


def add_parser(commands: Any) -> None:
    approve = commands.add_parser(
        "approve", help="approve (or decline) what an MCP client asks to run",
        description="Show the plan an MCP client asks to execute (or the run it asks to "
        "undo) and record your decision. Approving asks you at this terminal; --decline "
        "cancels it without asking.")
    approve.add_argument("run_id", metavar="RUN_ID")
    approve.add_argument("--runs-dir", type=Path, metavar="DIR")
    approve.add_argument("--decline", action="store_true",
                         help="decline: nothing runs, the plan is cancelled")
    approve.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    return approve_command(args, stdin=sys.stdin, out=sys.stdout, err=sys.stderr)


def approve_command(args: argparse.Namespace, *, stdin: TextIO, out: TextIO, err: TextIO) -> int:
    from sam_plugin.errors import ApprovalRefused
    from sam_plugin.mcp_server import approval

    runs_dir = runs_dir_of(args)
    try:
        request = approval.waiting_request(runs_dir, args.run_id)
        run_dir = approval.run_path(runs_dir, args.run_id)
        text = _what_waits(run_dir, request)
    except ApprovalRefused as refused:
        print(f"sam-agent: approve refused: {refused}", file=err)
        return EXIT_FAILED
    from sam_plugin.runtime.text_safety import visible_text

    print(visible_text(f"{request.summary}\n(asked by {request.client}; waits until "
                       f"{request.deadline})\n"), file=out)
    print(visible_text(text), file=out)
    verdict: Verdict
    if args.decline:
        verdict = "declined"
    else:
        if not _is_terminal(stdin):
            print("sam-agent: approve refused: approving is typed by a person at a terminal, "
                  "and stdin is not one (an agent, a script or a pipe cannot approve); "
                  "--decline works anywhere", file=err)
            return EXIT_FAILED
        word = "Undo this run" if request.kind == "undo" else "Execute this plan"
        print(f"\n{word} in SAM? [y/N] ", end="", file=out, flush=True)
        if stdin.readline().strip().lower() not in ("y", "yes"):
            print("nothing recorded: the request still waits (--decline cancels it)", file=out)
            return EXIT_REVIEW
        verdict = "approved"
    try:
        decision = approval.decide(run_dir, request, verdict, "command", approval.person())
    except ApprovalRefused as refused:
        print(f"sam-agent: approve refused: {refused}", file=err)
        return EXIT_FAILED
    if decision.verdict != verdict or decision.channel != "command":
        print(f"sam-agent: run {args.run_id} was decided already: {decision.verdict} "
              f"({decision.channel}, {decision.by})", file=err)
        return EXIT_FAILED
    then = ("the server runs it now" if verdict == "approved" else "nothing runs")
    print(f"{verdict}: run {args.run_id} (sha256 {request.plan_sha256[:12]}…); {then}. "
          f"Its result: sam-agent runs --runs-dir {runs_dir}", file=out)
    return EXIT_VERIFIED


def _what_waits(run_dir: Path, request: Any) -> str:
    """The plan as the person must see it: plan.json's words, for the very SHA-256 the
    request decides (an undo: its summary)."""
    from sam_plugin.compilers.plan import Plan
    from sam_plugin.errors import ApprovalRefused

    if request.kind == "undo":
        return str(request.summary)
    try:
        plan = Plan.model_validate(json.loads((run_dir / "plan.json").read_text("utf-8")))
    except (OSError, ValueError) as error:
        raise ApprovalRefused(f"the plan of run {request.run_id} cannot be read ({error}); "
                              "nothing is decided") from None
    if plan.script_sha256 != request.plan_sha256:
        raise ApprovalRefused(f"the plan of run {request.run_id} is not the one asked for "
                              "(its SHA-256 differs); nothing is decided")
    return plan.text()


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
