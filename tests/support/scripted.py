"""A whole run through the controller on the stub SAM with scripted answers (the spec, then
the tool call), for tests that need the real gateway, compilers and verifier."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from pydantic import SecretStr

from sam_plugin.compilers.protocol import Target
from sam_plugin.runtime.config.policy import RunPolicy
from sam_plugin.runtime.config.settings import ProviderSettings
from sam_plugin.runtime.host_gateway import HostGateway
from sam_plugin.runtime.provider.types import ChatResponse, ToolCall
from sam_plugin.runtime.run.controller import RunController
from tests.support.pipeline import quad_grid

TARGET = Target(model_name="Model-1", part_name="Plate")


class Provider:
    """The spec first, then one tool call (when the calls are the model's)."""

    def __init__(self, spec: str, tool: str, arguments: dict[str, Any]) -> None:
        self.answers = [
            ChatResponse(content=spec, reasoning="", tool_calls=[], finish_reason="stop",
                         usage=None, raw_sse=b"data: [DONE]\n\n"),
            ChatResponse(content="", reasoning="", finish_reason="tool_calls", usage=None,
                         raw_sse=b"data: [DONE]\n\n", tool_calls=[ToolCall(
                             index=0, id="c0", name=tool, arguments=json.dumps(arguments))])]

    def factory(self, _settings: ProviderSettings) -> Provider:
        return self

    async def aclose(self) -> None:
        """Nothing to close."""

    async def stream_chat(self, messages: Any, tools: Any = None, listener: Any = None,
                          options: Any = None) -> Any:
        return self.answers.pop(0)


def plate(sam: Any, n: int) -> Any:
    """Part Plate: an n x n QUAD plate (labels row by row), set S1 of its first two elements,
    Steel and a shell section Skin."""
    model = sam.mdb.models["Model-1"]
    part = model.Part(name="Plate")
    quad_grid(part, n, n)
    part.Set(name="Corner", nodes=part.nodes[:1])
    part.Set(name="S1", elements=part.elements.sequenceFromLabels([1, 2]))
    model.Material(name="Steel").Elastic(table=((210000.0, 0.3),))
    model.HomogeneousShellSection(name="Skin", material="Steel", thickness=2.0)
    return part


def controller(sam: Any, tmp_path: Path, spec: str, tool: str, arguments: dict[str, Any],
               gateway: HostGateway | None = None) -> RunController:
    return RunController(
        runs_dir=tmp_path / "runs", policy=RunPolicy(plan_wait="never"),
        host=gateway or HostGateway(sam),
        settings=ProviderSettings(base_url="http://127.0.0.1:9/v1", api_key=SecretStr("sk-x"),
                                  model="m", profile="openai"),
        provider_factory=Provider(spec, tool, arguments).factory)


def submitted(sam: Any, tmp_path: Path, mode: str, request: str, spec: str, tool: str,
              arguments: dict[str, Any], gateway: HostGateway | None = None
              ) -> RunController:
    """A controller with the spec waiting at Review."""
    run = controller(sam, tmp_path, spec, tool, arguments, gateway)
    asyncio.run(run.submit(request, mode, TARGET))
    assert run.phase == "review", run.result
    return run
