"""Data crossing the provider boundary: reconstructed tool calls, the response, the listener.

``sam_plugin.runtime.provider.client`` re-exports these names; import them from there.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict


class ToolCall(BaseModel):
    """One reconstructed function call. ``arguments`` is always JSON text (an object the
    provider delivered as a dict is ``json.dumps``'ed); it is not validated here."""

    model_config = ConfigDict(frozen=True)

    index: int
    id: str
    name: str
    arguments: str


class ChatResponse(BaseModel):
    """A complete streamed answer: choice 0 only, ``raw_sse`` exactly as received."""

    model_config = ConfigDict(frozen=True)

    content: str
    reasoning: str
    tool_calls: list[ToolCall]
    finish_reason: str | None
    usage: dict[str, Any] | None
    raw_sse: bytes


class StreamListener:
    """Observability hooks; every method is a no-op. Subclass what you need, or pass None.

    Order: ``on_raw`` for every body chunk as it arrives; ``on_content``/``on_reasoning`` per
    delta; at the end of a complete stream ``on_tool_call`` once per call in index order,
    then ``on_usage`` once when the provider reported usage. ``on_retry`` means the stream
    broke and is being requested again from scratch: discard what was shown so far;
    ``on_connect_retry`` that nothing was received yet and the request is tried again.
    """

    def on_content(self, text: str) -> None:
        pass

    def on_reasoning(self, text: str) -> None:
        pass

    def on_raw(self, data: bytes) -> None:
        pass

    def on_tool_call(self, call: ToolCall) -> None:
        pass

    def on_usage(self, usage: dict[str, Any]) -> None:
        pass

    def on_retry(self, error: Exception) -> None:
        pass

    def on_connect_retry(self, error: Exception, attempt: int, attempts: int, host: str) -> None:
        """The call failed before any body (no answer, 429, 5xx) and try ``attempt`` of
        ``attempts`` to ``host`` follows after a wait."""


class RequestOptions(BaseModel):
    """What a request asks of the server beyond its messages and tools: a tool choice, a
    response format (a JSON Schema the answer's content is held to) and an output bound.
    None leaves the field out of the request (docs/architecture.md §6 "Requests")."""

    model_config = ConfigDict(frozen=True)

    tool_choice: Any = None
    response_format: dict[str, Any] | None = None
    max_tokens: int | None = None
