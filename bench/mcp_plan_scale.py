"""``plan_change`` over MCP on the seed's 188,356-node hull versus the dock's own compile and
plan of the same change, same run.

The hull is the 434 x 434 QUAD grid of ``bench/observe_scale.py`` (188,356 nodes, 187,489
QUADs, sets KEEL and STERN) in the offline SAM. The change translates the whole hull by
(5, 0, 0): one ``transform_part`` call whose plan's shadow run moves every node.

- The dock's side is what the dock does from Submit to its Plan, with a model that answers
  at once (an in-process chat model: no network, no tokens): ``submit`` (observing L0-L2,
  the design answer, routing) then ``confirm`` (the call collected, the compile chain, the
  script, the plan and its shadow run), stopping at the Plan.
- The MCP side is an agent's ``plan_change`` through the SDK's own client, in memory
  (JSON-RPC framing, the argument checks, the spec read as data, ``plan_calls``: observing,
  routing, the same compile chain and plan builder, the plan as structured content).

Both run in this process, alternating, best of ``ROUNDS``; CPU time (the machine is shared;
the client and the server of the in-memory session run in this process, so their CPU is
counted). Last line: ``ratio=<mcp / dock> goal<=2``.

    .venv/bin/python bench/mcp_plan_scale.py      # stubs/ is put on sys.path here
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for entry in (ROOT / "stubs", ROOT):
    if str(entry) not in sys.path:
        sys.path.insert(0, str(entry))

import sam  # noqa: E402
from mcp import Client  # noqa: E402
from sam.database import Mdb  # noqa: E402

from sam_plugin.compilers.protocol import Target  # noqa: E402
from sam_plugin.mcp_server.gate import Gate  # noqa: E402
from sam_plugin.mcp_server.server import build_server  # noqa: E402
from sam_plugin.runtime.config.policy import RunPolicy  # noqa: E402
from sam_plugin.runtime.config.settings import ProviderSettings  # noqa: E402
from sam_plugin.runtime.host_gateway import HostGateway  # noqa: E402
from sam_plugin.runtime.provider.types import ChatResponse, ToolCall  # noqa: E402
from sam_plugin.runtime.run.controller import RunController  # noqa: E402
from sam_plugin.runtime.run.phases import Phase  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from observe_scale import N, build  # noqa: E402

GOAL = 2.0
SMOKE = os.environ.get("BENCH_SMOKE") == "1"  # CI: the smallest size, fewest repeats
ROUNDS = 1 if SMOKE else 2
TARGET = Target(model_name="Model-1", part_name="Hull")
REQUEST = "move the hull 5 along X"
ALL = {"by": "all"}
ARGUMENTS = {"operations": [{"op": "translate", "vector": [5.0, 0.0, 0.0], "selection": ALL}]}
SPEC = {"summary": "Translate the hull by (5, 0, 0).",
        "steps": [{"capability": "transform", "action": "translate", "scope": ALL,
                   "values": {"vector": [5, 0, 0]}, "text": "Move every node 5 along X."}]}
SPEC_ANSWER = json.dumps(SPEC)  # the dock's design answer: the same spec, as the model's JSON


class AtOnce:
    """A chat model that answers at once: the spec, then the one call (the dock's side)."""

    def __init__(self) -> None:
        self.turn = 0

    def factory(self, settings: Any) -> AtOnce:
        return self

    async def aclose(self) -> None:
        return None

    async def stream_chat(self, messages: Any, tools: Any = None, *, listener: Any = None,
                          options: Any = None) -> ChatResponse:
        self.turn += 1
        if tools is None:
            return ChatResponse(content=SPEC_ANSWER, reasoning="", tool_calls=[],
                                finish_reason="stop", usage=None, raw_sse=b"data: [DONE]\n\n")
        call = ToolCall(index=0, id="call_1", name="transform_part",
                        arguments=json.dumps(ARGUMENTS))
        return ChatResponse(content="", reasoning="", tool_calls=[call],
                            finish_reason="tool_calls", usage=None, raw_sse=b"data: [DONE]\n\n")


async def dock_side(host: HostGateway, runs: Path) -> Any:
    model = AtOnce()
    settings = ProviderSettings(base_url="http://127.0.0.1:9/v1", model="bench", api_key="k")
    controller = RunController(runs_dir=runs, settings=settings, host=host,
                               provider_factory=model.factory,
                               policy=RunPolicy(plan_wait="always", repair_rounds=0))
    assert await controller.submit(REQUEST, "part", TARGET) == Phase.REVIEW
    await controller.confirm("part", TARGET)
    assert controller.phase == Phase.PLAN and controller.plan is not None
    plan = controller.plan
    controller.decline_plan()
    return plan


async def mcp_side(client: Client) -> Any:
    arguments = {"mode": "part", "model": TARGET.model_name, "part": TARGET.part_name,
                 "request": REQUEST, "spec": SPEC,
                 "calls": [{"name": "transform_part", "arguments": ARGUMENTS}]}
    result = await client.call_tool("plan_change", arguments)
    assert not result.is_error, result.structured_content
    return result.structured_content


async def _timed(action: Any) -> tuple[float, Any]:
    gc.collect()
    start = time.process_time()
    value = await action()
    return time.process_time() - start, value


async def measure() -> None:
    sam.mdb = Mdb()
    build(sam.mdb)
    host = HostGateway(sam)
    runs = Path(tempfile.mkdtemp(prefix="mcp-bench-"))
    gate = Gate(host=host, runs_dir=runs / "mcp")
    best = {"dock": float("inf"), "mcp": float("inf")}
    try:
        async with Client(build_server(gate)) as client:
            for _ in range(ROUNDS):
                seconds, dock_plan = await _timed(lambda: dock_side(host, runs / "dock"))
                best["dock"] = min(best["dock"], seconds)
                seconds, planned = await _timed(lambda: mcp_side(client))
                best["mcp"] = min(best["mcp"], seconds)
                # the same plan, said the same way (the run ids aside)
                assert planned["plan"]["plan_sha256"] == planned["plan_sha256"]
                assert planned["plan"]["after"] == dock_plan.model_dump(mode="json")["after"]
    finally:
        gate.close()
    print(f"part: {N * N} nodes, {(N - 1) ** 2} QUADs; plan: {dock_plan.summary()}")
    print(f"dock, submit + confirm to the Plan: {best['dock']:.2f} s CPU")
    print(f"MCP plan_change, in memory: {best['mcp']:.2f} s CPU")
    print(f"ratio={best['mcp'] / best['dock']:.2f} goal<={GOAL:g}")


def main() -> None:
    asyncio.run(measure())


if __name__ == "__main__":
    main()
