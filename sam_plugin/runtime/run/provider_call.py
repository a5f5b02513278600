"""A run's provider calls: one at a time, as the task Cancel can stop, every byte received
kept as evidence, the cost counted (docs/architecture.md §1, §7).

Only the design stream feeds ``design_delta`` (the spec view); collection rounds forward
reasoning only, so text a model writes next to its tool calls never poses as the spec.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from sam_plugin.errors import ProviderError
from sam_plugin.runtime.config.settings import ProviderSettings
from sam_plugin.runtime.event_types import DesignDelta, ProviderRetry, ReasoningDelta
from sam_plugin.runtime.events import Emit
from sam_plugin.runtime.ports import ChatModel, RecordingChatModel
from sam_plugin.runtime.provider.types import ChatResponse, RequestOptions, StreamListener
from sam_plugin.runtime.store.run_store import RunDir
from sam_plugin.runtime.store.usage import UsageMeter
from sam_plugin.runtime.text_safety import visible_text

_T = TypeVar("_T")


def chat_provider(settings: ProviderSettings) -> ChatModel:
    """The default chat model: the OpenAI-compatible streaming client."""
    from sam_plugin.runtime.provider.client import ChatProvider

    return ChatProvider(settings)


class _Relay(StreamListener):
    """Forwards streamed text to the run's listeners (the spec only from the design)."""

    def __init__(self, emit: Emit, *, spec: bool):
        self._emit = emit
        self._spec = spec

    def on_content(self, text: str) -> None:
        if self._spec:
            self._emit(DesignDelta(text=visible_text(text)))

    def on_reasoning(self, text: str) -> None:
        self._emit(ReasoningDelta(text=visible_text(text)))

    def on_retry(self, error: Exception) -> None:
        # the provider restarts the stream: views must drop what they showed so far
        if self._spec:
            self._emit(DesignDelta(text="", reset=True))

    def on_connect_retry(self, error: Exception, attempt: int, attempts: int, host: str) -> None:
        # nothing answered yet: views say which try follows (``provider_retry``, §8)
        failure = error.failure if isinstance(error, ProviderError) else None
        self._emit(ProviderRetry(attempt=attempt, of=attempts, host=host, reason=str(error),
                                 failure=failure))


class ProviderCall:
    """The provider calls of one run (``context.ProviderCalls``)."""

    def __init__(self, factory: Callable[[ProviderSettings], ChatModel],
                 settings: ProviderSettings, run_dir: RunDir, usage: UsageMeter,
                 emit: Emit) -> None:
        self._factory = factory
        self._settings = settings
        self._dir = run_dir
        self._usage = usage
        self._emit = emit
        self._task: asyncio.Future[Any] | None = None
        self.cancel_requested = False

    async def stream(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None,
                     *, spec: bool, sse: str, options: RequestOptions) -> ChatResponse:
        """One provider call; its body goes to the run's ``sse`` file however the call ends
        (success, provider error, timeout or cancel): every byte received is evidence."""
        used: list[ChatModel] = []
        listener = _Relay(self._emit, spec=spec)

        def work(provider: ChatModel) -> Awaitable[ChatResponse]:
            used.append(provider)
            return provider.stream_chat(messages, tools=tools, listener=listener,
                                        options=options)

        def received() -> bytes:
            recording = used[0] if used else None
            return bytes(recording.received_sse) if isinstance(
                recording, RecordingChatModel) else b""

        try:
            response = await self.task(work)
        except ProviderError as error:
            self._dir.write_bytes(sse, error.raw_sse or received())
            raise
        except BaseException:
            self._dir.write_bytes(sse, received())
            raise
        self._dir.write_bytes(sse, response.raw_sse)
        return response

    async def task(self, work: Callable[[ChatModel], Awaitable[_T]]) -> _T:
        """Run ``work(provider)`` as the task Cancel can stop; the provider is always closed,
        and a cancel that arrived meanwhile is honoured."""
        provider = self._factory(self._settings)
        task = asyncio.ensure_future(work(provider))
        self._task = task
        started = time.perf_counter()
        try:
            await task
        finally:
            self._task = None
            done = task.done() and not task.cancelled() and task.exception() is None
            self._usage.add(task.result() if done else None, time.perf_counter() - started)
            await provider.aclose()
        self.honour_cancel()
        return task.result()

    def cancel(self) -> None:
        """Cancel asked for: the open call stops now, a later step at its start."""
        self.cancel_requested = True
        if self._task is not None and not self._task.done():
            self._task.cancel()

    async def cancel_and_settle(self, settled: Callable[[], bool], seconds: float) -> None:
        """Cancel, then let the awaiting call close its stream and write the result, for up to
        ``seconds`` (polled: an asyncio.Event would bind to one loop, and a controller may
        outlive it)."""
        self.cancel()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while not settled() and loop.time() < deadline:
            await asyncio.sleep(0.005)

    def honour_cancel(self) -> None:
        """A cancel that arrived while no stream was open (between rounds, while a stream was
        closing) takes effect here: at the next step, and always before execution."""
        if self.cancel_requested:
            raise asyncio.CancelledError
