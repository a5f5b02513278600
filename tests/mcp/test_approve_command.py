"""``sam-agent approve RUN_ID [--decline]``: a person at a terminal decides; a pipe, a script
or an agent's shell cannot approve, and nothing is decided twice (docs/mcp.md "Approval")."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

from mcp_support import approve_at_terminal, call, execute, fingerprint, plan, translate

from sam_plugin.mcp_server import approval


async def _waiting(served, session):
    """Plan, ask for its execution (no elicitation: only the terminal can answer), and hand
    the run to ``session(run_id)`` while the server waits."""
    async with served.connect() as client:
        before = await fingerprint(client)
        planned = await plan(client, translate(5))
        executing = asyncio.create_task(execute(client, planned, wait=60))
        request = served.runs / planned["run_id"] / "approval_request.json"
        while not request.exists():
            await asyncio.sleep(0.05)
        await asyncio.to_thread(session, planned["run_id"])
        done = await executing
        return done, before, await fingerprint(client)


def test_approving_from_a_pipe_is_refused_and_declining_works_anywhere(in_memory):
    def session(run_id: str) -> None:
        piped = approve_at_terminal(in_memory.runs, run_id, "y\n", terminal=False)
        assert piped.returncode == 1
        assert "approving is typed by a person at a terminal, and stdin is not one" in \
            piped.stderr
        assert piped.stdout == ""  # refused: the plan is not shown as if it were asked about
        assert not list((in_memory.runs / run_id).glob("approval.*.json"))
        declined = approve_at_terminal(in_memory.runs, run_id, decline=True, terminal=False)
        assert declined.returncode == 0, declined.stderr
        assert "declined: run" in declined.stdout and "nothing runs" in declined.stdout

    done, before, after = asyncio.run(_waiting(in_memory, session))
    assert (done["status"], done["decision"]["verdict"]) == ("cancelled", "declined")
    assert done["decision"]["channel"] == "command" and "@" in done["decision"]["by"]
    assert after == before


def test_no_at_the_terminal_records_nothing_and_the_first_decision_stands(in_memory):
    def session(run_id: str) -> None:
        said_no = approve_at_terminal(in_memory.runs, run_id, "n\n")
        assert said_no.returncode == 3 and "nothing recorded" in said_no.stdout
        yes = approve_at_terminal(in_memory.runs, run_id, "y\n")
        assert yes.returncode == 0, yes.stderr
        again = approve_at_terminal(in_memory.runs, run_id, decline=True, terminal=False)
        assert again.returncode == 1 and "was decided already: approved" in again.stderr

    done, before, after = asyncio.run(_waiting(in_memory, session))
    assert done["status"] == "verified" and after != before


def test_approve_refuses_what_does_not_wait(in_memory, tmp_path):
    runs = in_memory.runs
    bad = approve_at_terminal(runs, "../etc", decline=True, terminal=False)
    assert bad.returncode == 1 and "is not a run id" in bad.stderr
    missing = approve_at_terminal(runs, "20261201T000000Z-abcdef", decline=True, terminal=False)
    assert missing.returncode == 1 and "no run 20261201T000000Z-abcdef" in missing.stderr
    plain = runs / "20261201T000000Z-0000bb"
    plain.mkdir(parents=True)
    nothing = approve_at_terminal(runs, plain.name, decline=True, terminal=False)
    assert nothing.returncode == 1 and "has nothing waiting for approval" in nothing.stderr

    async def planned_then_declined() -> str:
        async with in_memory.connect() as client:
            planned = await plan(client, translate(5))
            declined = approve_at_terminal(runs, planned["run_id"], decline=True,
                                           terminal=False)
            assert declined.returncode == 0, declined.stderr
            assert (await execute(client, planned))["status"] == "cancelled"
            return str(planned["run_id"])

    run_id = asyncio.run(planned_then_declined())
    again = approve_at_terminal(runs, run_id, decline=True, terminal=False)
    assert again.returncode == 1 and "was decided already: declined" in again.stderr
    # an undo whose server is gone (nobody waits for it): nothing can run
    orphan = runs / "20261201T000000Z-0000aa"
    orphan.mkdir()
    approval.write_request(orphan, approval.new_request(
        "undo", orphan.name, "0" * 64, "undo a run", "undo a run", ("command",), "a client", 60))
    gone = approve_at_terminal(runs, orphan.name, decline=True, terminal=False)
    assert gone.returncode == 1 and "is no longer waiting" in gone.stderr


def test_decisions_are_complete_and_the_first_one_stands(tmp_path: Path):
    run_dir = tmp_path / "20261201T000000Z-abcdef"
    run_dir.mkdir()

    def asked(wait: float = 60) -> approval.ApprovalRequest:
        return approval.new_request("execute", run_dir.name, "a" * 64, "x", "x",
                                    ("command", "elicitation"), "c", wait)

    request = asked()
    first = approval.decide(run_dir, request, "declined", "command", "one")
    second = approval.decide(run_dir, request, "approved", "elicitation", "two")
    assert first == second and second.verdict == "declined"
    assert not second.approves(request)
    assert [p.name for p in run_dir.iterdir()] == [request.decision_name]  # no temp left
    stored = json.loads((run_dir / request.decision_name).read_text())
    assert stored["verdict"] == "declined" and len(stored["seal"]) == 64
    # a decision answers its own request only, and never after the deadline
    assert approval.read_decision(run_dir, asked()) is None
    late = asked(0)
    assert approval.decide(run_dir, late, "approved", "command", "p").verdict == "expired"


def test_no_tool_and_no_flag_approves(in_memory):
    async def scenario() -> None:
        async with in_memory.connect() as client:
            listed = await client.list_tools()
            names = {tool.name for tool in listed.tools}
            assert names == {"list_targets", "observe", "capabilities", "plan_change",
                             "execute_plan", "undo_run", "run_status", "list_runs"}
            arguments = {tool.name: set(tool.input_schema.get("properties", {}))
                         for tool in listed.tools}
            assert arguments["execute_plan"] == {"run_id", "plan_sha256", "wait_seconds"}
            assert arguments["undo_run"] == {"run_id", "wait_seconds"}
            every = set().union(*arguments.values())
            assert not every & {"approve", "approved", "decision", "confirm", "yes", "token"}
            assert all(tool.input_schema.get("additionalProperties") is False
                       for tool in listed.tools)
            failed, _ = await call(client, "approve", {"run_id": "x"})
            assert failed

    asyncio.run(scenario())
    help_text = subprocess.run([sys.executable, "-m", "sam_plugin.cli", "approve", "--help"],
                               capture_output=True, text=True).stdout
    assert "--decline" in help_text and "--yes" not in help_text
