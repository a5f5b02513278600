"""An MCP client through the SDK's own client, in memory and as a real ``sam-agent mcp`` stdio
subprocess: a change goes from request to Verified only after a person approves it, and every
scenario ends with the part's fingerprint checked (docs/mcp.md).

Each scenario works on a part of its own, so that over stdio one server process (its start
costs seconds: the SDK's import) runs them all in one session, as a client's day would; in
memory each runs alone on a fresh gate.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp_support import (
    MODEL,
    PART,
    People,
    Person,
    approve_when_asked,
    build,
    call,
    events,
    execute,
    fingerprint,
    journal,
    memory_connect,
    plan,
    translate,
)

from sam_plugin.compilers.protocol import Target
from sam_plugin.mcp_server.gate import Gate
from sam_plugin.runtime.host_gateway import HostGateway
from sam_plugin.samops import part_transform


@dataclass
class Env:
    client: Client
    runs: Path
    people: People
    era: str
    save: Path | None = None

    def submitted(self, run_id: str) -> int:
        return [e["run_id"] for e in journal(self.runs) if e["state"] == "submitted"].count(
            run_id)


Scenario = Callable[[Env, str], Awaitable[None]]


async def build_plan_approve_verify(env: Env, part: str) -> None:
    person = env.people.at(f"New{part}", Person("execute"))
    others = await fingerprint(env.client, part)
    planned = await plan(env.client, build(f"New{part}"))
    assert "after:  12 nodes, 6 elements" in planned["text"]
    # each call against the spec step it carries out, the spec in the dock's words
    assert "step 1 ✓ build" in planned["text"] and planned["plan"]["steps"][0]["step"] == 1
    assert planned["spec_text"].startswith("Spec: Build a 3 x 2 QUAD plate.")
    assert planned["spec_warnings"] == []
    # in the model's units (none declared: the Settings' mm-N-t-s), as the dock says them
    assert "1. build a mesh of QUAD elements, size 3 x 2 mm, divided 3 x 2" in planned["spec_text"]
    assert "step 1 ✓ build a mesh of QUAD elements, size 3 x 2 mm" in planned["text"]
    # one name for the plan's hash in every result, and in the words
    assert planned["plan"]["plan_sha256"] == planned["plan_sha256"]
    assert "script_sha256" not in json.dumps(planned) and "script sha256" not in planned["text"]
    assert f"plan_sha256: {planned['plan_sha256']}" in planned["text"]
    done = await execute(env.client, planned)
    assert (done["status"], done["decision"]["channel"]) == ("verified", "elicitation")
    assert done["message"].startswith("Verified")
    result = done["result"]
    assert result["source"] == "mcp" and result["submissions"] == 1
    assert await fingerprint(env.client, f"New{part}") == result["after"]["fingerprint"]
    assert await fingerprint(env.client, part) == others
    assert person.asked == 1 and "asks to execute run" in person.seen
    assert "build_part" in person.seen and "Nothing runs unless you say yes" in person.seen
    run_dir = env.runs / planned["run_id"]
    logged = events(env.runs, planned["run_id"])
    assert [e["channel"] for e in logged if e["event"] == "approval_requested"] == \
        ["elicitation", "command"]
    assert [e.get("by") for e in logged if e["event"] == "plan_approved"] == ["elicitation"]
    assert json.loads((run_dir / "client.json").read_text())["client"]
    assert json.loads((run_dir / "spec.json").read_text())["steps"][0]["action"] == "build"
    if env.save is not None:  # --save wrote the verified build
        saved = json.loads(env.save.read_text())
        assert f"New{part}" in [p["name"] for m in saved["models"] for p in m["parts"]]


def declined_by(answer: str) -> Scenario:
    async def declined(env: Env, part: str) -> None:
        env.people.at(part, Person(answer))
        before = await fingerprint(env.client, part)
        planned = await plan(env.client, translate(5, part))
        done = await execute(env.client, planned)
        assert (done["status"], done["decision"]["verdict"]) == ("cancelled", "declined")
        assert done["result"]["submissions"] == 0 and env.submitted(planned["run_id"]) == 0
        assert "plan_declined" in [e["event"] for e in events(env.runs, planned["run_id"])]
        assert await fingerprint(env.client, part) == before

    return declined


async def unanswered(env: Env, part: str) -> None:
    # handshake era: the form stays open past the deadline; 2026-07-28: the answer is late
    late = env.era != "legacy"
    env.people.at(part, Person("late", late_seconds=2.0) if late else Person("never"))
    before = await fingerprint(env.client, part)
    planned = await plan(env.client, translate(5, part))
    done = await execute(env.client, planned, wait=1)
    assert done["status"] == "cancelled" and done["decision"]["verdict"] == "expired"
    # the deadline decides, in the background on 2026-07-28: the late "yes" is too late
    assert done["decision"]["channel"] == "timeout"
    assert "nobody approved it in time" in done["message"]
    assert env.submitted(planned["run_id"]) == 0
    assert await fingerprint(env.client, part) == before


async def forged_sha(env: Env, part: str) -> None:
    before = await fingerprint(env.client, part)
    planned = await plan(env.client, translate(5, part))
    for forged in ("0" * 64, planned["plan_sha256"][::-1]):
        failed, data = await call(env.client, "execute_plan", {
            "run_id": planned["run_id"], "plan_sha256": forged, "wait_seconds": 1})
        assert failed and "is not the SHA-256 of run" in data["error"]["message"]
        assert "nothing executed" in data["error"]["message"]
    failed, data = await call(env.client, "execute_plan", {
        "run_id": planned["run_id"], "plan_sha256": "short"})
    assert failed and data["error"]["layer"] == "arguments"
    assert "plan_sha256" in data["error"]["message"]
    failed, status = await call(env.client, "run_status", {"run_id": planned["run_id"]})
    assert status["status"] == "waiting_for_approval"
    assert env.submitted(planned["run_id"]) == 0
    assert await fingerprint(env.client, part) == before


async def part_changed_since(env: Env, part: str) -> None:
    env.people.at(part, Person("execute"))
    first = await plan(env.client, translate(5, part))
    second = await plan(env.client, translate(7, part))
    assert (await execute(env.client, first))["status"] == "verified"
    moved = await fingerprint(env.client, part)
    done = await execute(env.client, second)
    result = done["result"]
    assert (done["status"], result["error"]["layer"]) == ("failed", "observation")
    assert "modified" in result["error"]["message"]
    assert result["submissions"] == 0 and env.submitted(second["run_id"]) == 0
    assert await fingerprint(env.client, part) == moved  # only the first plan ran


async def undo_needs_the_same_approval(env: Env, part: str) -> None:
    person = env.people.at(part, Person("execute"))
    before = await fingerprint(env.client, part)
    done = await execute(env.client, await plan(env.client, translate(5, part)))
    assert done["status"] == "verified"
    after = await fingerprint(env.client, part)
    person.answer = "decline"
    failed, declined = await call(env.client, "undo_run", {"run_id": done["run_id"]})
    assert not failed and declined["status"] == "cancelled"
    # the form shows the coordinates the undo moves back (5 along X, every node)
    moved = person.seen.split("moved back:\n", 1)[1].splitlines()
    first = moved[0].strip()
    assert first.startswith("node ") and " back to " in first, person.seen
    now, back = (tuple(float(v) for v in side.split("(")[1].rstrip(")").split(", "))
                 for side in first.split(" back to "))
    assert (now[0] - back[0], now[1:]) == (5.0, back[1:])
    assert await fingerprint(env.client, part) == after
    person.answer = "execute"
    failed, undone = await call(env.client, "undo_run", {"run_id": done["run_id"]})
    assert not failed and (undone["status"], undone["result"]["status"]) == ("undone", "undone")
    logged = [e for e in events(env.runs, done["run_id"])]
    assert [e.get("action") for e in logged if e["event"] == "approval_requested"][-1] == "undo"
    assert logged[-1]["event"] == "run_undone"
    assert await fingerprint(env.client, part) == before


async def approved_at_a_terminal(env: Env, part: str) -> None:
    """The form is left open; ``sam-agent approve RUN_ID`` typed at a terminal decides (and a
    decline on the form afterwards changes nothing: the first decision stands). On a
    2026-07-28 connection the client hears the outcome once its form is answered."""
    person = env.people.at(part, Person("never" if env.era == "legacy" else "after"))
    before = await fingerprint(env.client, part)
    planned = await plan(env.client, translate(5, part))
    person.until = lambda: any((env.runs / planned["run_id"]).glob("approval.*.json"))
    executing = asyncio.create_task(execute(env.client, planned, wait=90))
    approved = await approve_when_asked(env.runs, planned["run_id"])
    done = await executing
    assert approved.returncode == 0, approved.stderr
    assert "Execute this plan in SAM? [y/N]" in approved.stdout
    assert "transform_part" in approved.stdout and "approved: run" in approved.stdout
    assert (done["status"], done["decision"]["channel"]) == ("verified", "command")
    now = await fingerprint(env.client, part)
    assert now != before and now == done["result"]["after"]["fingerprint"]


async def hostile_arguments(env: Env, part: str) -> None:
    """Huge, deep, non-finite, duplicated, control characters, an argument that tries to
    approve: each refused naming the field, nothing planned or run."""
    before = await fingerprint(env.client, part)
    good = translate(5, part)

    async def refused(tool: str, arguments: dict[str, Any], *words: str) -> dict[str, Any]:
        failed, data = await call(env.client, tool, arguments)
        assert failed, data
        for word in words:
            assert word in json.dumps(data), (word, data)
        return data

    node = {"id": "N1", "coordinates": [0.5, 0.5, 0.0]}
    huge = {**good, "calls": [{"name": "transform_part", "arguments": {
        "operations": [], "padding": [node] * 120_000}}]}
    await refused("plan_change", huge, "over the budget of 4194304 bytes")
    deep: Any = [0]
    for _ in range(100):
        deep = [deep]
    await refused("plan_change", {**good, "calls": [{"name": "transform_part",
                                                     "arguments": {"operations": deep}}]},
                  "nested deeper than 64 levels")
    await refused("plan_change", {**good, "part": "\x1b[2J" + part}, "part", "String should match")
    await refused("plan_change", {**good, "approved": True},
                  "approved: not an argument of plan_change")
    text = ('{"operations": [{"op": "translate", "vector": [5, 0, 0]}], '
            '"operations": [{"op": "translate", "vector": [500, 0, 0]}]}')
    data = await refused("plan_change", {**good, "calls": [{"name": "transform_part",
                                                            "arguments": text}]},
                         "appears twice")
    assert data["error"]["layer"] == "tool_call" and data["status"] == "rejected"
    nan = '{"operations": [{"op": "translate", "vector": [NaN, 0, 0], "selection": {"by": "all"}}]}'
    await refused("plan_change", {**good, "calls": [{"name": "transform_part",
                                                     "arguments": nan}]}, "finite")
    planned = await plan(env.client, good)
    for extra in ({"approve": True}, {"approved_by": "me"}, {"decision": "approved"}):
        await refused("execute_plan", {"run_id": planned["run_id"],
                                       "plan_sha256": planned["plan_sha256"], **extra},
                      "not an argument of execute_plan; its arguments: run_id, plan_sha256, "
                      "wait_seconds")
    await refused("execute_plan", {"run_id": "../../etc", "plan_sha256": "0" * 64}, "run_id")
    shown = await plan(env.client, {**good, "request": "move\x1b[31m it\x07 along\u202e X"})
    # ESC, BEL and the bidi override are dropped (the text around them stays, as in a model's)
    assert (env.runs / shown["run_id"] / "request.txt").read_text() == "move[31m it along X"
    assert all(e["run_id"] not in (planned["run_id"], shown["run_id"])
               for e in journal(env.runs))
    assert await fingerprint(env.client, part) == before


async def diagnostics_to_repair_from(env: Env, part: str) -> None:
    """A spec that is not one, or calls the spec does not route to: refused with what to fix."""
    before = await fingerprint(env.client, part)
    good = translate(5, part)
    bad_spec = {**good, "spec": {"summary": "x", "steps": [{"capability": "transform",
                                                            "action": "twist", "values": {}}]}}
    failed, data = await call(env.client, "plan_change", bad_spec)
    assert failed and data["error"]["layer"] == "spec"
    assert any("twist" in d and "translate" in d for d in data["diagnostics"]), data
    unrouted = {**good, "calls": [{"name": "audit_part", "arguments": {}}]}
    failed, data = await call(env.client, "plan_change", unrouted)
    assert failed and (data["error"]["layer"], data["status"]) == ("tool_call", "rejected")
    assert "the calls name audit_part; the spec routes to transform_part" in \
        data["error"]["message"]
    wrong = {**good, "calls": [{"name": "transform_part", "arguments": {"operations": [
        {"op": "translate", "vector": [5, 0, 0], "selection": {"by": "set", "name": "NOPE"}}]}}]}
    failed, data = await call(env.client, "plan_change", wrong)
    assert failed and data["error"]["layer"] == "compile" and data["diagnostics"]
    assert "NOPE" in data["error"]["message"]
    # bound to the spec as the dock's calls are: a call that does more than its step says
    farther = {**good, "calls": [{"name": "transform_part", "arguments": {"operations": [
        {"op": "translate", "vector": [6, 0, 0], "selection": {"by": "all"}}]}}]}
    failed, data = await call(env.client, "plan_change", farther)
    assert failed and (data["error"]["layer"], data["status"]) == ("compile", "rejected")
    assert "step 1 says translate all nodes by (5, 0, 0); the call translates all nodes by " \
           "(6, 0, 0)" in data["error"]["message"]
    # routed by the spec's steps: an empty part can only be built
    failed, data = await call(env.client, "plan_change", translate(5, f"Empty{part}"))
    assert failed and data["error"]["layer"] == "design"
    assert f"Empty{part} is missing or empty, so it can only be built" in \
        data["error"]["message"]
    assert await fingerprint(env.client, part) == before


SCENARIOS: dict[str, Scenario] = {
    "build_plan_approve_verify": build_plan_approve_verify,
    "declined": declined_by("decline"),
    "declined_by_no": declined_by("no"),
    "dismissed": declined_by("cancel"),
    "unanswered": unanswered,
    "forged_sha": forged_sha,
    "part_changed_since": part_changed_since,
    "undo": undo_needs_the_same_approval,
    "approved_at_a_terminal": approved_at_a_terminal,
    "hostile_arguments": hostile_arguments,
    "diagnostics": diagnostics_to_repair_from,
}


def _run_all(connect: Any, runs: Path, era: str, names: list[str],
             save: Path | None = None) -> None:
    async def session() -> None:
        people = People()
        async with connect(mode=era, elicitation_callback=people) as client:
            env = Env(client, runs, people, era, save)
            for number, name in enumerate(names, start=1):
                await SCENARIOS[name](env, f"P{number}")

    asyncio.run(session())


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_in_memory_handshake_era(in_memory, name):
    _run_all(in_memory.connect, in_memory.runs, "legacy", [name])


@pytest.mark.parametrize("name", ["build_plan_approve_verify", "unanswered", "declined",
                                  "approved_at_a_terminal"])
def test_in_memory_2026_era(in_memory, name):
    _run_all(in_memory.connect, in_memory.runs, "auto", [name])


def test_over_stdio_every_scenario_in_one_session(stdio):
    _run_all(stdio.connect, stdio.runs, "legacy", list(SCENARIOS), save=stdio.save)


def test_over_stdio_2026_era(stdio):
    _run_all(stdio.connect, stdio.runs, "auto",
             ["build_plan_approve_verify", "unanswered", "declined"], save=stdio.save)


def test_two_clients_on_one_workspace_in_memory(in_memory):
    """One database: the second plan's part moved under it, so it is refused (I3)."""
    async def scenario() -> None:
        people = People()
        people.at(PART, Person("execute"))
        async with in_memory.connect(mode="legacy", elicitation_callback=people) as a, \
                in_memory.connect(elicitation_callback=people) as b:
            plan_a, plan_b = await plan(a, translate(5)), await plan(b, translate(7))
            assert plan_a["run_id"] != plan_b["run_id"]
            assert (await execute(a, plan_a))["status"] == "verified"
            done_b = await execute(b, plan_b)
            assert (done_b["status"], done_b["result"]["error"]["layer"]) == \
                ("failed", "observation")
            assert await fingerprint(b) == await fingerprint(a)
            failed, listed = await call(b, "list_runs", {})
            assert {plan_a["run_id"], plan_b["run_id"]} <= {r["run_id"] for r in listed["runs"]}

    asyncio.run(scenario())


def test_two_clients_on_one_workspace_over_stdio(stdio):
    """Two processes, one workspace file: each verifies in its own database, and the second
    ``--save`` refuses to overwrite what the first saved; run ids stay one submission each."""
    async def scenario() -> tuple[str, str]:
        people = People()
        people.at(PART, Person("execute"))
        async with stdio.connect(mode="legacy", elicitation_callback=people) as a, \
                stdio.connect(mode="legacy", elicitation_callback=people) as b:
            before = await fingerprint(a)
            plan_a, plan_b = await plan(a, translate(5)), await plan(b, translate(7))
            done_a, done_b = await execute(a, plan_a), await execute(b, plan_b)
            assert (done_a["status"], done_a["result"]["save"]["saved"]) == ("verified", True)
            assert (done_b["status"], done_b["result"]["save"]["saved"]) == ("verified", False)
            assert "since the workspace was opened" in done_b["result"]["save"]["message"]
            assert await fingerprint(a) == done_a["result"]["after"]["fingerprint"] != before
            return plan_a["run_id"], plan_b["run_id"]

    first, second = asyncio.run(scenario())
    submitted = [e["run_id"] for e in journal(stdio.runs) if e["state"] == "submitted"]
    assert submitted.count(first) == submitted.count(second) == 1


def test_list_targets_and_the_plan_name_the_target(in_memory):
    async def scenario() -> None:
        async with in_memory.connect() as client:
            failed, data = await call(client, "list_targets", {})
            assert not failed and data["modes"] == ["part", "property", "mesh", "load"]
            assert data["models"][0]["name"] == MODEL
            assert {"name": PART, "nodes": 8, "elements": 2} in data["models"][0]["parts"]
            planned = await plan(client, translate(5))
            assert planned["plan"]["target"] == {"model_name": MODEL, "part_name": PART}
            assert "sam-agent approve" in planned["next"]

    asyncio.run(scenario())


def test_a_spec_that_disagrees_with_the_part_is_said_to_the_agent_and_the_person(in_memory):
    """No Review phase over MCP: the spec's warnings come with the plan, and the plan the
    person reads says every expectation the calls miss."""
    async def scenario() -> None:
        people = People()
        person = people.at(PART, Person("decline"))
        async with in_memory.connect(mode="legacy", elicitation_callback=people) as client:
            before = await fingerprint(client)
            arguments = translate(5, request="move the plate by 5 along X")
            arguments["spec"]["expected"] = {"nodes": 99}
            planned = await plan(client, arguments)
            assert planned["spec_warnings"] == [
                "the spec expects 99 nodes after the run, but its steps change no count and "
                "the part has 8 nodes now"]
            assert "Expected results: 99 nodes" in planned["spec_text"]
            warning = "WARNING: the spec expects 99 nodes; the calls leave 8 nodes"
            assert planned["text"].startswith(warning)
            assert (await execute(client, planned))["status"] == "cancelled"
            assert warning in person.seen
            assert await fingerprint(client) == before

    asyncio.run(scenario())


class FailingMidScript(HostGateway):
    """The in-process gateway; while a script runs, the host fails right after the first
    transform operation has moved the part."""

    def execute(self, script: str, target: Target, output_dir: Path) -> Any:
        original = part_transform.apply_operation

        def moved_then_failed(part: Any, op: Any) -> None:
            original(part, op)
            raise RuntimeError("the host failed in the middle of the transform")

        part_transform.apply_operation = moved_then_failed  # type: ignore[assignment]
        try:
            return super().execute(script, target, output_dir)
        finally:
            part_transform.apply_operation = original  # type: ignore[assignment]


def test_a_failed_execution_is_restored_and_said_so(in_memory):
    """The host fails after the script changed the part: the client reads failed and
    restored, the part is back exactly (its fingerprint), and undo has nothing to undo."""
    import sam

    gate = Gate(host=FailingMidScript(sam), runs_dir=in_memory.runs)

    async def scenario() -> None:
        people = People()
        people.at(PART, Person("execute"))
        async with memory_connect(gate)(mode="legacy", elicitation_callback=people) as client:
            before = await fingerprint(client)
            planned = await plan(client, translate(5))
            done = await execute(client, planned)
            result = done["result"]
            assert (done["status"], result["restored"], result["submissions"]) == \
                ("failed", True, 1)
            assert result["error"]["layer"] == "execution"
            assert "the host failed in the middle of the transform" in done["message"]
            assert done["message"].endswith("the part was restored exactly as it was")
            assert result["after"]["fingerprint"] == before == await fingerprint(client)
            failed, data = await call(client, "undo_run", {"run_id": planned["run_id"]})
            assert failed and "undo refused" in data["error"]["message"]
            assert await fingerprint(client) == before

    try:
        asyncio.run(scenario())
    finally:
        gate.close()
