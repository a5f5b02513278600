"""``capabilities`` and ``observe``: what an agent reads before it plans. Every example the
server hands out plans as it stands (so none goes stale), and the reads change nothing."""

from __future__ import annotations

import asyncio

import pytest
from mcp_support import MODEL, PART, call, fingerprint

from sam_plugin.compilers import registry
from sam_plugin.compilers.spec import spec_json_schema


def _with_a_section() -> None:
    import sam

    model = sam.mdb.models[MODEL]
    model.Material(name="Steel").Elastic(table=((210000.0, 0.3),))
    model.HomogeneousShellSection(name="Shell1", material="Steel", thickness=1.0)
    # the step the Load examples start from (compilers/load/mcp_examples.py)
    model.StaticStep(name="Load-1", previous="Initial")


@pytest.mark.parametrize("mode", registry.MODES)
def test_every_example_plans_as_it_stands(in_memory, mode):
    _with_a_section()

    async def scenario() -> None:
        async with in_memory.connect() as client:
            failed, found = await call(client, "capabilities", {"mode": mode})
            assert not failed and found["mode"] == mode
            module = registry.get_module(mode)
            assert found["order"] == list(module.capabilities)
            assert found["spec_schema"] == spec_json_schema(mode)
            before = await fingerprint(client)
            for tool in found["tools"]:
                assert tool["input_schema"]["type"] == "object" and tool["description"]
                example = tool["example"]
                part = f"New{tool['name']}" if tool["capability"] == "build" else PART
                failed, planned = await call(client, "plan_change", {
                    "mode": mode, "model": MODEL, "part": part,
                    "request": example["step"]["text"],
                    "spec": {"summary": example["step"]["text"], "steps": [example["step"]]},
                    "calls": [{"name": tool["name"], "arguments": example["arguments"]}]})
                assert not failed, (tool["name"], planned)
                assert planned["status"] == "waiting_for_approval"
            assert await fingerprint(client) == before  # planning changes nothing

    asyncio.run(scenario())


def test_observe_is_bounded_and_answers_queries(in_memory):
    async def scenario() -> None:
        async with in_memory.connect() as client:
            failed, seen = await call(client, "observe", {"model": MODEL, "part": PART})
            assert not failed
            assert seen["part"]["element_count"] == 2 and seen["regions"]["elements"] == 2
            failed, queried = await call(client, "observe", {
                "model": MODEL, "part": PART,
                "query": {"entity": "elements", "by": "labels", "labels": [1]}})
            assert not failed and queried["query"]["total"] == 1
            failed, bad = await call(client, "observe", {
                "model": MODEL, "part": PART,
                "query": {"entity": "elements", "by": "labels", "labels": [99]}})
            assert failed and "99" in bad["error"]["message"]
            failed, bad = await call(client, "capabilities", {"mode": "contact"})
            assert failed and "'part', 'property', 'mesh' or 'load'" in bad["error"]["message"]

    asyncio.run(scenario())
