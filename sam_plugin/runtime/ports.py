"""The controller's ports: the host it executes in and the chat model it asks.

Typed as ``Protocol``s (as pydantic-ai types its ``Model``), beside the compilers'
``DomainModule``: ``HostGateway`` and ``ChatProvider`` implement them, and so do the tests'
fakes, without inheriting from anything. What only some implementations can do is a
protocol of its own, asked with ``isinstance``: a host that keeps the script's snapshot
(``SnapshotHost``: restore and undo), a chat model that keeps the bytes it received
(``RecordingChatModel``: evidence of a call that failed).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal, Protocol, runtime_checkable

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

    @property
    def stage(self) -> Literal["refused", "preflight", "mutation", "postflight"] | None:
        """The last stage the script announced; "refused": the guard refused it unrun."""
        ...

    @property
    def snapshot(self) -> Literal["taken", "unavailable", "none"] | None:
        """The script's snapshot; None: this host takes part in no snapshots at all."""
        ...

    @property
    def missing(self) -> Sequence[str]: ...  # the host calls a snapshot needs and lacks

    @property
    def restored(self) -> bool | None:
        """After a failure past the snapshot: whether the script's own restore put the part
        back (None: it did not try)."""
        ...

    @property
    def restore_error(self) -> str | None: ...

    @property
    def restore_left(self) -> Sequence[str]: ...  # what still differs after that restore


class RestoreOutcome(Protocol):
    """A restore the host did (``host_gateway.RestoreOutcome``)."""

    @property
    def restored(self) -> bool: ...

    @property
    def error(self) -> str | None: ...

    @property
    def left(self) -> Sequence[str]: ...


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


@runtime_checkable
class SnapshotHost(Protocol):
    """A host that keeps the last script's snapshot (plain data, outside the model tree):
    it can put the part back, and keep the snapshot for an undo (docs/architecture.md §5)."""

    @property
    def has_snapshot(self) -> bool: ...

    def restore(self, target: Target) -> RestoreOutcome: ...

    def keep_snapshot(self, path: Path, after: str = "") -> int: ...  # bytes written

    def snapshot_from_read(self, target: Target, fingerprint: str) -> bool: ...

    def forget_snapshot(self) -> None: ...

    def undo(self, target: Target, path: Path,  # from a kept snapshot; ValueError: refused
             limits: Any = None) -> RestoreOutcome: ...


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


@runtime_checkable
class RecordingChatModel(Protocol):
    """A chat model that keeps every byte of its last response as it arrived."""

    @property
    def received_sse(self) -> bytes: ...
