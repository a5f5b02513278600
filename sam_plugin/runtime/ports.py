"""The controller's two ports: the host it executes in and the chat model it asks.

Typed as ``Protocol``s (as pydantic-ai types its ``Model``), beside the compilers'
``DomainModule``: ``HostGateway`` and ``ChatProvider`` implement them, and so do the tests'
fakes, without inheriting from anything.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from sam_plugin.compilers.evidence import Readback
from sam_plugin.compilers.protocol import Target
from sam_plugin.runtime.provider.types import ChatResponse, RequestOptions, StreamListener


class Receipt(Protocol):
    """What the host says about one execution (``host_gateway.ExecutionReceipt``)."""

    @property
    def status(self) -> str: ...  # "PASS" or "FAIL"

    @property
    def traceback(self) -> str | None: ...

    @property
    def nothing_changed(self) -> bool: ...  # it failed before its first mutation


class Host(Protocol):
    """The door into SAM (``host_gateway.HostGateway``)."""

    @property
    def mdb(self) -> Any: ...

    def model(self, name: str) -> Any | None: ...

    def part(self, target: Target) -> Any | None: ...

    def readback(
        self, target: Target, *, with_fingerprint: bool = True, hanging_nodes: bool = False
    ) -> Readback: ...

    def execute(self, script: str, target: Target, output_dir: Path) -> Receipt: ...


class ChatModel(Protocol):
    """An OpenAI-compatible streaming chat endpoint (``provider.ChatProvider``)."""

    async def stream_chat(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None = None,
        *,
        listener: StreamListener | None = None,
        options: RequestOptions | None = None,  # tool choice, response format, max_tokens
    ) -> ChatResponse: ...

    async def aclose(self) -> None: ...
