"""Replay recorded responses through the loopback fake provider (the real HTTP/SSE path).

The responder matches a chat request to a bundled example by the request text inside its
user message: a request without ``tools`` gets the recorded spec (streamed, with reasoning
for DeepSeek-style examples); a request with ``tools`` gets the recorded calls for exactly
the tools offered, in the order offered. An unknown request is refused with an HTTP 400
error (never streamed as if it were a spec), so the run fails at the provider layer with a
message saying that replay only knows the bundled examples and how to go live.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sam_plugin.demo.examples import Example, load_examples
from sam_plugin.demo.loopback import ErrorResponse, FakeProvider, StreamResponse
from sam_plugin.demo.streams import deepseek_stream, openai_stream
from sam_plugin.runtime.provider.choice import (  # noqa: F401 (REPLAY_MODEL re-exported)
    REPLAY_ADVICE,
    REPLAY_MODEL,
)

UNKNOWN_REQUEST_STATUS = 400


def unknown_request_message(examples: Sequence[Example]) -> str:
    """Why replay refused a request, the requests it knows, and how to use a live model."""
    # kept under the provider adapter's 500-character clip
    return (
        "Replay mode (recorded responses, not a live model) has no recorded answer for this "
        f"request: it answers only the {len(examples)} bundled example requests, word for "
        f"word. {REPLAY_ADVICE}"
    )



def _user_text(request: Any) -> str:
    messages = request.get("messages", []) if isinstance(request, dict) else []
    return "\n".join(str(m.get("content") or "") for m in messages if m.get("role") == "user")


def _offered_tools(request: dict[str, Any]) -> list[str]:
    return [t.get("function", {}).get("name", "") for t in request.get("tools") or []]


class ReplayResponder:
    """``responder`` for :class:`FakeProvider`; ``delay`` paces each SSE piece (seconds)."""

    def __init__(self, examples: Sequence[Example] | None = None, delay: float = 0.0) -> None:
        self.examples = list(examples if examples is not None else load_examples())
        self.delay = delay
        self.answered: list[tuple[str, str]] = []  # (example id or "", "design" | "tools")

    def match(self, request: Any) -> Example | None:
        found = self.match_language(request)
        return found[0] if found else None

    def match_language(self, request: Any) -> tuple[Example, str] | None:
        """The example whose request (English or Chinese) the user message holds, and which
        language matched; the longest matching request wins, so that one example's text
        inside another's cannot steal it."""
        text = _user_text(request)
        found = [(len(asked), example, language) for example in self.examples
                 for language, asked in (("en", example.request), ("zh", example.request_zh))
                 if asked and asked in text]
        if not found:
            return None
        _, example, language = max(found, key=lambda item: item[0])
        return example, language

    def __call__(self, request: Any) -> StreamResponse | ErrorResponse:
        matched = self.match_language(request)
        example, language = matched if matched else (None, "en")
        tools = _offered_tools(request) if isinstance(request, dict) else []
        kind = "tools" if tools else "design"
        self.answered.append((example.id if example else "", kind))
        if example is None:
            body = {"error": {"message": unknown_request_message(self.examples),
                              "type": "invalid_request_error", "code": "replay_unknown_request"}}
            return ErrorResponse(UNKNOWN_REQUEST_STATUS, json.dumps(body).encode("utf-8"))
        if tools:
            pieces = openai_stream(tool_calls=example.calls_for(tools), fragment_size=24)
            return StreamResponse([_b(p) for p in pieces], delay=self.delay)
        spec, reasoning = example.recorded(language)
        if example.style == "deepseek":
            pieces = deepseek_stream(content=spec, reasoning=reasoning, fragment_size=6)
        else:
            pieces = openai_stream(content=spec, fragment_size=6)
        return StreamResponse([_b(p) for p in pieces], delay=self.delay)


def _b(piece: str | bytes) -> bytes:
    return piece.encode("utf-8") if isinstance(piece, str) else piece


def start_replay_provider(delay: float = 0.0) -> tuple[FakeProvider, ReplayResponder]:
    """A started loopback provider answering with the recorded responses."""
    responder = ReplayResponder(delay=delay)
    return FakeProvider(responder=responder), responder
