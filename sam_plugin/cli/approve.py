"""``sam-agent approve RUN_ID [--runs-dir DIR] [--decline]``: a person's decision, typed at a
terminal, on what an MCP client asks to run (docs/mcp.md "Approval").

It shows the plan (or the undo) that waits, in the words the server rendered and sealed from
what will execute (never ``plan.json``: the run directory's files are checked against the
sealed plan, and a disagreement is refused), and records the decision, sealed, in the run
directory (``mcp_server/approval.py``: first decision wins). An execute_plan that waits runs
it at once; with none waiting, the decision is recorded and the next execute_plan for that
plan runs it, and the words say which. An approval is typed at a terminal: with stdin not a
terminal (a script, a pipe) it is refused; ``--decline`` needs no terminal. This keeps scripts
from approving, not an agent that runs commands as you: such an agent can drive a terminal
too (docs/mcp.md "Trust boundary"). Exit 0 recorded, 1 refused, 3 nothing recorded.
"""

from __future__ import annotations

import argparse
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
    from sam_plugin.runtime.text_safety import visible_text

    runs_dir = runs_dir_of(args)
    try:
        request = approval.waiting_request(
            runs_dir, args.run_id, lambda line: print(f"sam-agent: {line}", file=err))
        run_dir = approval.run_path(runs_dir, args.run_id)
        _check(run_dir, request)
    except ApprovalRefused as refused:
        print(f"sam-agent: approve refused: {refused}", file=err)
        return EXIT_FAILED
    if not args.decline and not _is_terminal(stdin):  # refused before any plan is shown
        print("sam-agent: approve refused: approving is typed by a person at a terminal, "
              "and stdin is not one (a script or a pipe cannot approve); --decline works "
              "anywhere", file=err)
        return EXIT_FAILED
    print(visible_text(f"{request.summary}\n(asked by {request.client}; waits until "
                       f"{request.deadline})\n"), file=out)
    print(visible_text(request.text), file=out)
    verdict: Verdict
    if args.decline:
        verdict = "declined"
    else:
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
    print(f"{verdict}: run {args.run_id} (plan_sha256 {request.plan_sha256[:12]}…); "
          f"{_then(run_dir, request, verdict)}. Its result: sam-agent runs --runs-dir "
          f"{runs_dir}", file=out)
    return EXIT_VERIFIED


def _check(run_dir: Path, request: Any) -> None:
    """What the person is about to read is what will run, and this channel may decide:
    the plan kept (sealed) is the request's, and the run directory's files agree with it;
    ``ApprovalRefused`` says where they do not."""
    from sam_plugin.errors import ApprovalRefused
    from sam_plugin.mcp_server import kept_plan

    if "command" not in request.channels:
        ways = {"elicitation": "the client's form", "dock": "the SAM dock"}
        allowed = " or ".join(ways[c] for c in request.channels if c in ways) or "nowhere"
        raise ApprovalRefused(
            f"decisions typed at a terminal are turned off for run {request.run_id} (the "
            f"server's --approval, or Settings: approval channels); decide on {allowed}")
    if request.kind == "undo":
        return
    kept = kept_plan.read_kept(run_dir)
    if kept is None or kept.plan_sha256 != request.plan_sha256:
        raise ApprovalRefused(f"no plan is kept for run {request.run_id} with the SHA-256 the "
                              "request names; nothing is decided")
    problem = kept_plan.disagreement(run_dir, kept)
    if problem is None and request.text != kept_plan.approval_text(kept):
        problem = "the request's words are not the words of the plan kept"
    if problem is not None:
        raise ApprovalRefused(f"run {request.run_id}: {problem}; the run directory was changed "
                              "since the server wrote it, so what would be shown is not what "
                              "would run. Nothing is decided (plan it again)")


def _then(run_dir: Path, request: Any, verdict: str) -> str:
    """What happens now, in words: the waiting call acts at once, or the next one will."""
    from sam_plugin.mcp_server import approval

    if verdict != "approved":
        return "nothing runs"
    if request.kind == "undo":
        return "the undo_run that waits for it undoes the run now"
    if approval.waits_now(run_dir, request):
        return "the execute_plan that waits for it runs it now"
    return ("no execute_plan waits for it now: the decision is recorded, and the next "
            "execute_plan for this plan (the same run_id and plan_sha256) runs it")


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
