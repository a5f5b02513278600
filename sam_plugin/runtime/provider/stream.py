"""Turns decoded SSE events of a chat-completions stream into one :class:`ChatResponse`.

Choice 0 only. ``content`` and ``reasoning_content`` (or vLLM's newer ``reasoning``) are kept
apart; usage is taken from whichever chunk carries it (DeepSeek: the finish chunk; OpenAI: a
final chunk with empty ``choices``). ``finish_reason: "stop"`` does not drop tool calls that
were sent. An ``event: error``, an ``{"error": ...}`` payload or ``"object": "error"`` raises.
"""

from __future__ import annotations

import json
import re
from typing import Any

from sam_plugin.errors import ProviderError
from sam_plugin.runtime.provider.assembly import ToolCallAssembler
from sam_plugin.runtime.provider.errors import error_from_stream_payload
from sam_plugin.runtime.provider.sse import SSEEvent
from sam_plugin.runtime.provider.types import ChatResponse, StreamListener
from sam_plugin.runtime.store.scrubber import Scrubber

_DONE = "[DONE]"
_SNIPPET_CHARS = 200
_IGNORED_EVENT_TYPES_OK = ("", "message")
_SURROGATE = re.compile("[\ud800-\udfff]")


class StreamAccumulator:
    """Accumulates one response; :attr:`done` turns true at ``data: [DONE]``."""

    def __init__(
        self, listener: StreamListener | None = None, *, scrubber: Scrubber | None = None
    ) -> None:
        self._listener = listener or StreamListener()
        self._scrubber = scrubber or Scrubber("")
        self._secret = self._scrubber  # error_from_stream_payload scrubs with it
        # deltas reach the listener scrubbed, a key split over two deltas too
        self._shown_content = self._scrubber.stream()
        self._shown_reasoning = self._scrubber.stream()
        self._scrubbing = self._scrubber.active
        self._content: list[str] = []
        self._reasoning: list[str] = []
        self._calls = ToolCallAssembler()
        self._events = 0
        # characters of content, reasoning and tool-call arguments so far: what the idle
        # timeout counts as progress (an empty delta is an event, not progress)
        self.progress = 0
        self.finish_reason: str | None = None
        self.usage: dict[str, Any] | None = None
        self.done = False

    @property
    def events_seen(self) -> int:
        return self._events

    def handle(self, event: SSEEvent) -> None:
        self._events += 1
        if event.event == "error":
            raise error_from_stream_payload(_loads_or_text(event.data), secret=self._secret)
        if event.event not in _IGNORED_EVENT_TYPES_OK:
            return  # e.g. "ping": not part of the completion
        data = event.data
        if data[:1] != "{":  # the common case is a JSON object: skip the strip() copies
            stripped = data.strip()
            if stripped == _DONE:
                self.done = True
                return
            if not stripped:
                return
        try:
            chunk = json.loads(data)
        except ValueError:
            raise ProviderError(
                "protocol",
                f"malformed JSON in SSE event #{self._events}: {data[:_SNIPPET_CHARS]!r}",
            ) from None
        self.handle_chunk(chunk)

    def handle_chunk(self, chunk: Any) -> None:
        if not isinstance(chunk, dict):
            raise ProviderError(
                "protocol",
                f"SSE event #{self._events} is not a JSON object: {str(chunk)[:_SNIPPET_CHARS]!r}",
            )
        if chunk.get("error") or chunk.get("object") == "error":
            raise error_from_stream_payload(chunk, secret=self._secret)
        usage = chunk.get("usage")
        if isinstance(usage, dict) and usage:
            self.usage = usage
        choices = chunk.get("choices")
        if not choices:
            return
        if not isinstance(choices, list):
            raise ProviderError("protocol", "chunk.choices must be a list")
        for choice in choices:
            if isinstance(choice, dict) and choice.get("index", 0) == 0:
                self._handle_choice(choice)

    def handle_completion(self, body: Any) -> None:
        """A whole non-streamed completion (a server that ignored ``stream: true``)."""
        if not isinstance(body, dict):
            raise ProviderError("protocol", "the JSON response is not an object")
        if body.get("error") or body.get("object") == "error":
            raise error_from_stream_payload(body, secret=self._secret)
        for choice in body.get("choices") or []:
            if isinstance(choice, dict) and "message" in choice:
                message = choice.get("message") or {}
                calls = message.get("tool_calls") or []
                for position, call in enumerate(calls):
                    if isinstance(call, dict) and "index" not in call:
                        call["index"] = position
                self._handle_choice({**choice, "delta": {**message, "tool_calls": calls}})
                break
        usage = body.get("usage")
        if isinstance(usage, dict) and usage:
            self.usage = usage
        self.done = True

    def _handle_choice(self, choice: dict[str, Any]) -> None:
        delta = choice.get("delta")
        if isinstance(delta, dict):
            content = delta.get("content")
            if content:
                if not isinstance(content, str):
                    raise ProviderError(
                        "protocol", f"delta.content must be a string, got {type(content).__name__}"
                    )
                self._content.append(content)
                self.progress += len(content)
                shown = self._shown_content.feed(content) if self._scrubbing else content
                if shown:
                    self._listener.on_content(shown)
            reasoning = delta.get("reasoning_content") or delta.get("reasoning")
            if reasoning and isinstance(reasoning, str):
                self._reasoning.append(reasoning)
                self.progress += len(reasoning)
                shown = self._shown_reasoning.feed(reasoning) if self._scrubbing else reasoning
                if shown:
                    self._listener.on_reasoning(shown)
            tool_calls = delta.get("tool_calls")
            if tool_calls:
                self._calls.add(tool_calls)
                self.progress += _argument_chars(tool_calls)
        finish = choice.get("finish_reason")
        if finish:
            self.finish_reason = str(finish)

    def result(self, raw_sse: bytes) -> ChatResponse:
        """The response; fires ``on_tool_call`` per call and ``on_usage`` once.

        Content and reasoning are scrubbed; tool-call arguments are kept as received, so the
        tool-call layer can see a key in them and refuse the call."""
        for rest, hook in ((self._shown_content.flush(), self._listener.on_content),
                           (self._shown_reasoning.flush(), self._listener.on_reasoning)):
            if rest:
                hook(rest)
        calls = [
            call.model_copy(update={"arguments": repaired})
            if (repaired := _paired_surrogates(call.arguments)) is not call.arguments
            else call
            for call in self._calls.finish()
        ]
        response = ChatResponse(
            content=self._scrubber.text(_paired_surrogates("".join(self._content))),
            reasoning=self._scrubber.text(_paired_surrogates("".join(self._reasoning))),
            tool_calls=calls,
            finish_reason=self.finish_reason,
            usage=self.usage,
            raw_sse=raw_sse,
        )
        for call in calls:
            self._listener.on_tool_call(call)
        if self.usage is not None:
            self._listener.on_usage(self.usage)
        return response


def _argument_chars(tool_calls: Any) -> int:
    """Characters of tool-call arguments in one delta (whatever else it holds)."""
    if not isinstance(tool_calls, list):
        return 0
    count = 0
    for call in tool_calls:
        function = call.get("function") if isinstance(call, dict) else None
        arguments = function.get("arguments") if isinstance(function, dict) else None
        if isinstance(arguments, str):
            count += len(arguments)
    return count


def _paired_surrogates(text: str) -> str:
    """``text`` with surrogate halves joined into characters; a lone half becomes U+FFFD.

    A character outside the BMP sent as a ``\\ud83d\\ude00`` escape pair can be split
    across two chunks; each chunk decodes to a lone surrogate, which cannot be written as
    UTF-8. Returns ``text`` itself (the same object) when it holds no surrogate.
    """
    if _SURROGATE.search(text) is None:
        return text
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def _loads_or_text(data: str) -> Any:
    try:
        return json.loads(data)
    except ValueError:
        return data
