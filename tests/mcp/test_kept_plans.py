"""Plans outlive the call and the server that made them (docs/mcp.md "Plans outlive the
server"): a person may decide before any execute_plan waits, a client whose call timed out
loses nothing, ``wait_seconds: 0`` answers at once, and a server started later on the same
workspace executes an approved plan whose part is unchanged, and refuses one whose part
changed."""

from __future__ import annotations

import asyncio
import json

import mcp_types as types
import pytest
from mcp_support import (
    MODEL,
    PART,
    approve_at_terminal,
    approve_when_asked,
    call,
    execute,
    fingerprint,
    journal,
    memory_connect,
    plan,
    plate_workspace,
    stdio_connect,
    translate,
)

from sam_plugin.mcp_server.gate import Gate
from sam_plugin.runtime.host_gateway import HostGateway

RECORDED_ONLY = ("no execute_plan waits for it now: the decision is recorded, and the next "
                 "execute_plan for this plan (the same run_id and plan_sha256) runs it")


def _submitted(runs, run_id: str) -> int:
    return [e["run_id"] for e in journal(runs) if e["state"] == "submitted"].count(run_id)


def test_approve_with_no_execute_plan_waiting_records_and_the_next_one_runs_it(in_memory):
    async def scenario() -> None:
        async with in_memory.connect() as client:
            before = await fingerprint(client)
            planned = await plan(client, translate(5))
            approved = await asyncio.to_thread(approve_at_terminal, in_memory.runs,
                                               planned["run_id"])
            assert approved.returncode == 0, approved.stderr
            assert RECORDED_ONLY in approved.stdout and "runs it now" not in approved.stdout
            failed, status = await call(client, "run_status", {"run_id": planned["run_id"]})
            assert not failed and status["status"] == "approved"
            assert status["next"].startswith("call execute_plan")
            assert await fingerprint(client) == before  # recorded, nothing ran yet
            done = await execute(client, planned, wait=0)
            assert (done["status"], done["decision"]["channel"]) == ("verified", "command")
            assert await fingerprint(client) == done["result"]["after"]["fingerprint"] != before

    asyncio.run(scenario())


def test_wait_seconds_zero_answers_at_once_and_run_status_follows(in_memory):
    async def scenario() -> None:
        async with in_memory.connect() as client:
            before = await fingerprint(client)
            planned = await plan(client, translate(5))
            assert "wait_seconds: 0" in planned["next"]
            assert f"--runs-dir {in_memory.runs}" in planned["next"]
            asked = {"run_id": planned["run_id"], "plan_sha256": planned["plan_sha256"],
                     "wait_seconds": 0}
            failed, first = await call(client, "execute_plan", asked)
            assert not failed and (first["status"], first["wait_seconds"]) == \
                ("waiting_for_approval", 0)
            assert first["next"].startswith("poll run_status with this run_id")
            failed, status = await call(client, "run_status", {"run_id": planned["run_id"]})
            assert (status["status"], status["decision"]) == ("waiting_for_approval", None)
            declined = approve_at_terminal(in_memory.runs, planned["run_id"], decline=True,
                                           terminal=False)
            assert declined.returncode == 0 and "nothing runs" in declined.stdout
            failed, status = await call(client, "run_status", {"run_id": planned["run_id"]})
            assert status["status"] == "declined"
            failed, done = await call(client, "execute_plan", asked)
            assert not failed and done["status"] == "cancelled"
            assert done["message"] == ("Cancelled: declined by a person (command); nothing "
                                       "was executed")
            assert await fingerprint(client) == before

    asyncio.run(scenario())


def test_a_client_timeout_before_the_approval_loses_nothing(stdio):
    """The client gives up on execute_plan before the person answers (its own timeout, far
    shorter than wait_seconds); the person approves; the client calls again and it runs."""
    async def scenario() -> None:
        async with stdio.connect() as client:
            before = await fingerprint(client)
            planned = await plan(client, translate(5))
            asked = {"run_id": planned["run_id"], "plan_sha256": planned["plan_sha256"],
                     "wait_seconds": 600}
            with pytest.raises(Exception, match="[Tt]imed out|[Tt]imeout"):
                await client.call_tool("execute_plan", asked, read_timeout_seconds=1.5)
            approved = await approve_when_asked(stdio.runs, planned["run_id"])
            assert approved.returncode == 0, approved.stderr
            assert RECORDED_ONLY in approved.stdout
            failed, done = await call(client, "execute_plan", asked)
            assert not failed and (done["status"], done["decision"]["channel"]) == \
                ("verified", "command")
            assert await fingerprint(client) == done["result"]["after"]["fingerprint"] != before
            assert _submitted(stdio.runs, planned["run_id"]) == 1

    asyncio.run(scenario())


def test_a_plan_outlives_the_server_that_made_it(stdio):
    """One-shot clients (the Inspector CLI): each call its own server process."""
    async def planned() -> dict:
        async with stdio.connect() as client:
            return await plan(client, translate(5))

    made = asyncio.run(planned())  # its server is gone now
    run_dir = stdio.runs / made["run_id"]
    assert not (run_dir / "result.json").exists()
    approved = approve_at_terminal(stdio.runs, made["run_id"])
    assert approved.returncode == 0, approved.stderr
    assert RECORDED_ONLY in approved.stdout

    async def executed() -> None:
        async with stdio.connect() as client:
            failed, status = await call(client, "run_status", {"run_id": made["run_id"]})
            assert (status["status"], status["held_by_this_server"]) == ("approved", False)
            done = await execute(client, made, wait=0)
            assert (done["status"], done["result"]["save"]["saved"]) == ("verified", True)
            assert await fingerprint(client) == done["result"]["after"]["fingerprint"]

    asyncio.run(executed())
    assert _submitted(stdio.runs, made["run_id"]) == 1
    saved = json.loads(stdio.save.read_text())
    plate = next(p for m in saved["models"] for p in m["parts"] if p["name"] == PART)
    assert min(plate["nodes"]["coordinates"][0::3]) == 5.0  # moved by 5 along X


def test_a_kept_plan_whose_part_changed_is_refused(stdio, tmp_path):
    async def planned() -> dict:
        async with stdio.connect() as client:
            return await plan(client, translate(5))

    made = asyncio.run(planned())
    assert approve_at_terminal(stdio.runs, made["run_id"]).returncode == 0
    changed = plate_workspace(tmp_path / "changed.sam.json", quads=3)  # Plate grew since

    async def refused() -> None:
        async with stdio_connect(changed, stdio.runs)() as client:
            failed, data = await call(client, "execute_plan", {
                "run_id": made["run_id"], "plan_sha256": made["plan_sha256"]})
            assert failed and f"the part {MODEL}/{PART} changed since the plan was made" in \
                data["error"]["message"]
            assert "nothing executed. Plan it again" in data["error"]["message"]
            failed, status = await call(client, "run_status", {"run_id": made["run_id"]})
            assert status["status"] == "cancelled"

    asyncio.run(refused())
    assert _submitted(stdio.runs, made["run_id"]) == 0


def test_a_kept_plan_is_taken_only_when_free_and_sealed(in_memory):
    """A plan another live server holds is not taken over; a kept plan rewritten by hand is
    refused as forged."""
    import sam

    other = Gate(host=HostGateway(sam), runs_dir=in_memory.runs)

    async def scenario() -> str:
        async with in_memory.connect() as client:
            planned = await plan(client, translate(5))
        async with memory_connect(other)() as client:
            failed, data = await call(client, "execute_plan", {
                "run_id": planned["run_id"], "plan_sha256": planned["plan_sha256"],
                "wait_seconds": 0})
            assert failed and "is held by another sam-agent mcp process" in \
                data["error"]["message"]
            in_memory.gate.close()  # its server stops: the plan is free, and kept
            failed, data = await call(client, "execute_plan", {
                "run_id": planned["run_id"], "plan_sha256": "0" * 64, "wait_seconds": 0})
            assert failed and "is not the SHA-256 of run" in data["error"]["message"]
            assert other.waiting(planned["run_id"]) is None  # not even made again
            kept = in_memory.runs / planned["run_id"] / "kept_plan.json"
            record = json.loads(kept.read_text())
            record["calls"] = record["calls"].replace("5", "500")
            kept.write_text(json.dumps(record))
            failed, data = await call(client, "execute_plan", {
                "run_id": planned["run_id"], "plan_sha256": planned["plan_sha256"],
                "wait_seconds": 0})
            assert failed and "kept_plan.json of run" in data["error"]["message"]
            assert "is refused as forged" in data["error"]["message"]
            failed, data = await call(client, "run_status", {"run_id": planned["run_id"]})
            assert failed and "is refused as forged" in data["error"]["message"]
            return str(planned["run_id"])

    try:
        run_id = asyncio.run(scenario())
    finally:
        other.close()
    assert _submitted(in_memory.runs, run_id) == 0


def test_an_open_form_and_a_decision_recorded_before(in_memory):
    """On a 2026-07-28 connection a plan a person approved already is executed without a
    form."""
    asked: list[str] = []

    async def form(context, params) -> types.ElicitResult:
        asked.append(params.message)
        return types.ElicitResult(action="decline")

    async def scenario() -> None:
        async with in_memory.connect(mode="auto", elicitation_callback=form) as client:
            planned = await plan(client, translate(5))
            assert approve_at_terminal(in_memory.runs, planned["run_id"]).returncode == 0
            done = await execute(client, planned)
            assert (done["status"], done["decision"]["channel"]) == ("verified", "command")

    asyncio.run(scenario())
    assert asked == []


def test_a_kept_plan_with_computed_calls_runs_on_the_next_server(stdio):
    """Calls left out are computed from the spec's steps, and computed again the same when
    the kept plan is made again."""
    arguments = translate(5)
    del arguments["calls"]

    async def planned() -> dict:
        async with stdio.connect() as client:
            return await plan(client, arguments)

    made = asyncio.run(planned())
    assert approve_at_terminal(stdio.runs, made["run_id"]).returncode == 0

    async def executed() -> None:
        async with stdio.connect() as client:
            done = await execute(client, made, wait=0)
            assert (done["status"], done["decision"]["channel"]) == ("verified", "command")

    asyncio.run(executed())


def _cli_status(runs, run_id: str) -> str:
    import argparse
    import io

    from sam_plugin.cli.runs import runs_command

    out = io.StringIO()
    runs_command(argparse.Namespace(runs_dir=runs, ack=None, json=True), out=out)
    return next(r["status"] for r in json.loads(out.getvalue()) if r["run_id"] == run_id)


def test_runs_and_run_status_say_a_plan_in_the_same_word(in_memory):
    """``sam-agent runs``, the ``list_runs`` tool and ``run_status``: one vocabulary, never
    ``incomplete`` for a plan that waits or was decided."""
    async def scenario() -> None:
        async with in_memory.connect() as client:
            planned = await plan(client, translate(5))
            run_id = planned["run_id"]

            async def said() -> tuple[str, str, str]:
                _, status = await call(client, "run_status", {"run_id": run_id})
                _, listed = await call(client, "list_runs", {})
                tool = next(r["status"] for r in listed["runs"] if r["run_id"] == run_id)
                return status["status"], tool, _cli_status(in_memory.runs, run_id)

            assert await said() == ("waiting_for_approval",) * 3
            approved = await asyncio.to_thread(approve_at_terminal, in_memory.runs, run_id)
            assert approved.returncode == 0, approved.stderr
            assert await said() == ("approved",) * 3

    asyncio.run(scenario())
