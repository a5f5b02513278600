"""SSE stream builders shaped like real provider captures.

The demo's replay streams its recorded answers with them; the tests and benches build every
provider's shape with them.

Each builder returns ``list[str]``: one SSE event (or comment) per piece, ending with
``data: [DONE]``. ``tool_calls`` is a list of ``(name, arguments)`` with arguments as JSON
text (a dict is dumped). ``rechunk`` re-splits pieces anywhere (inside a line, a ``\\r\\n``,
a UTF-8 sequence once encoded) to exercise the decoder.

- OpenAI: ``chatcmpl-`` ids, a role chunk, a first tool delta with id, type, name and empty
  arguments, argument fragments that split JSON tokens, a finish chunk, a usage chunk with
  empty ``choices``.
- DeepSeek: UUID ids, ``: keep-alive`` comments while queued, ``reasoning_content`` deltas
  (``content: null`` beside them), ``usage`` on the finish chunk.
- Ollama: the whole call in one delta, ``finish_reason: "stop"`` although a call was sent.
- llama.cpp: ``id`` and ``name`` repeated on every tool delta, usage and timings on the
  finish chunk.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from typing import Any

ToolCallSpec = tuple[str, "str | dict[str, Any]"]

_CREATED = 1_764_400_000


def sse_data(payload: Any, eol: str = "\n") -> str:
    """One ``data:`` event; ``payload`` is JSON-encoded unless it is already a string."""
    text = payload if isinstance(payload, str) else json.dumps(payload, separators=(",", ":"))
    return f"data: {text}{eol}{eol}"


def sse_comment(text: str = "keep-alive", eol: str = "\n") -> str:
    return f": {text}{eol}{eol}"


def sse_done(eol: str = "\n") -> str:
    return f"data: [DONE]{eol}{eol}"


def fragments(text: str, size: int) -> list[str]:
    if size < 1:
        raise ValueError(f"fragment_size must be >= 1, got {size}")
    return [text[i : i + size] for i in range(0, len(text), size)]


def rechunk(pieces: Sequence[str | bytes], size: int) -> list[bytes]:
    """The same bytes re-split every ``size`` bytes, ignoring event boundaries."""
    data = b"".join(p.encode("utf-8") if isinstance(p, str) else p for p in pieces)
    return [data[i : i + size] for i in range(0, len(data), size)]


def _arguments_text(arguments: str | dict[str, Any]) -> str:
    return arguments if isinstance(arguments, str) else json.dumps(arguments)


def _usage(prompt: int = 120, completion: int = 48) -> dict[str, int]:
    return {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
    }


class _Chunker:
    """Builds ``chat.completion.chunk`` events that share id, model and extras."""

    def __init__(self, stream_id: str, model: str, eol: str, **extra: Any) -> None:
        self.stream_id = stream_id
        self.model = model
        self.eol = eol
        self.extra = extra

    def event(
        self,
        delta: dict[str, Any] | None,
        finish_reason: str | None = None,
        *,
        usage: dict[str, Any] | None = None,
        with_logprobs: bool = True,
        **top: Any,
    ) -> str:
        chunk: dict[str, Any] = {
            "id": self.stream_id,
            "object": "chat.completion.chunk",
            "created": _CREATED,
            "model": self.model,
            **self.extra,
        }
        if delta is None:
            chunk["choices"] = []
        else:
            choice: dict[str, Any] = {"index": 0, "delta": delta}
            if with_logprobs:
                choice["logprobs"] = None
            choice["finish_reason"] = finish_reason
            chunk["choices"] = [choice]
        if usage is not None:
            chunk["usage"] = usage
        chunk.update(top)
        return sse_data(chunk, self.eol)


def openai_stream(
    content: str = "",
    tool_calls: Sequence[ToolCallSpec] = (),
    *,
    fragment_size: int = 7,
    include_usage: bool = True,
    model: str = "gpt-4o-mini-2024-07-18",
    stream_id: str = "chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT",
    eol: str = "\n",
) -> list[str]:
    chunker = _Chunker(stream_id, model, eol, system_fingerprint="fp_0ba0d124f1")
    pieces: list[str] = []
    first: dict[str, Any] = {
        "role": "assistant",
        "content": None if tool_calls and not content else "",
    }
    if content or not tool_calls:
        first["refusal"] = None
        pieces.append(chunker.event(first))
    for text in fragments(content, fragment_size):
        pieces.append(chunker.event({"content": text}))
    for index, (name, arguments) in enumerate(tool_calls):
        call_id = f"call_{index:02d}DdmZFplOQzDtYv8FT2W9Qk"
        head = {
            "index": index,
            "id": call_id,
            "type": "function",
            "function": {"name": name, "arguments": ""},
        }
        if index == 0 and not content:
            pieces.append(chunker.event({**first, "tool_calls": [head], "refusal": None}))
        else:
            pieces.append(chunker.event({"tool_calls": [head]}))
        for text in fragments(_arguments_text(arguments), fragment_size):
            pieces.append(
                chunker.event({"tool_calls": [{"index": index, "function": {"arguments": text}}]})
            )
    pieces.append(chunker.event({}, "tool_calls" if tool_calls else "stop"))
    if include_usage:
        pieces.append(chunker.event(None, usage=_usage()))
    pieces.append(sse_done(eol))
    return pieces


def deepseek_stream(
    content: str = "",
    tool_calls: Sequence[ToolCallSpec] = (),
    *,
    reasoning: str = "",
    fragment_size: int = 5,
    keepalives: int = 2,
    model: str | None = None,
    stream_id: str | None = None,
    eol: str = "\n",
) -> list[str]:
    thinking = bool(reasoning)
    model = model or ("deepseek-reasoner" if thinking else "deepseek-chat")
    stream_id = stream_id or str(uuid.uuid5(uuid.NAMESPACE_URL, f"deepseek:{content}:{reasoning}"))
    chunker = _Chunker(
        stream_id, model, eol, system_fingerprint="fp_ffc7281d48_prod0820_fp8_kvcache"
    )
    pieces = [sse_comment("keep-alive", eol) for _ in range(keepalives)]
    if thinking:
        pieces.append(
            chunker.event({"role": "assistant", "content": None, "reasoning_content": ""})
        )
        for text in fragments(reasoning, fragment_size):
            pieces.append(chunker.event({"content": None, "reasoning_content": text}))
    else:
        pieces.append(chunker.event({"role": "assistant", "content": ""}))
    for text in fragments(content, fragment_size):
        delta: dict[str, Any] = {"content": text}
        if thinking:
            delta["reasoning_content"] = None
        pieces.append(chunker.event(delta))
    for index, (name, arguments) in enumerate(tool_calls):
        call_id = f"call_{index}_{uuid.uuid5(uuid.NAMESPACE_URL, f'{stream_id}:{index}')}"
        head = {
            "index": index,
            "id": call_id,
            "type": "function",
            "function": {"name": name, "arguments": ""},
        }
        pieces.append(chunker.event({"tool_calls": [head]}))
        for text in fragments(_arguments_text(arguments), fragment_size):
            pieces.append(
                chunker.event({"tool_calls": [{"index": index, "function": {"arguments": text}}]})
            )
    usage = {
        **_usage(),
        "prompt_tokens_details": {"cached_tokens": 64},
        "prompt_cache_hit_tokens": 64,
        "prompt_cache_miss_tokens": 56,
    }
    if thinking:
        usage["completion_tokens_details"] = {"reasoning_tokens": 30}
    pieces.append(
        chunker.event({"content": ""}, "tool_calls" if tool_calls else "stop", usage=usage)
    )
    pieces.append(sse_done(eol))
    return pieces


def ollama_stream(
    content: str = "",
    tool_calls: Sequence[ToolCallSpec] = (),
    *,
    fragment_size: int = 4,
    arguments_as_object: bool = False,
    finish_reason: str = "stop",
    include_usage: bool = False,
    model: str = "qwen2.5:7b",
    eol: str = "\n",
) -> list[str]:
    chunker = _Chunker("chatcmpl-421", model, eol, system_fingerprint="fp_ollama")
    pieces: list[str] = []
    for text in fragments(content, fragment_size):
        pieces.append(chunker.event({"role": "assistant", "content": text}, with_logprobs=False))
    if tool_calls:
        calls = []
        for index, (name, arguments) in enumerate(tool_calls):
            value: Any = (
                json.loads(_arguments_text(arguments))
                if arguments_as_object
                else _arguments_text(arguments)
            )
            calls.append(
                {
                    "id": f"call_{index}a1b2c3d",
                    "index": index,
                    "type": "function",
                    "function": {"name": name, "arguments": value},
                }
            )
        pieces.append(
            chunker.event(
                {"role": "assistant", "content": "", "tool_calls": calls}, with_logprobs=False
            )
        )
    pieces.append(
        chunker.event({"role": "assistant", "content": ""}, finish_reason, with_logprobs=False)
    )
    if include_usage:
        pieces.append(chunker.event(None, usage=_usage()))
    pieces.append(sse_done(eol))
    return pieces


def llamacpp_stream(
    content: str = "",
    tool_calls: Sequence[ToolCallSpec] = (),
    *,
    reasoning: str = "",
    fragment_size: int = 6,
    model: str = "gpt-3.5-turbo",
    eol: str = "\n",
) -> list[str]:
    chunker = _Chunker(
        "chatcmpl-Xq2VnZ4cL1mVhS8b0u7GkYwT3pRaE9fD", model, eol, system_fingerprint="b5040-1a2b3c4d"
    )
    pieces: list[str] = []
    for text in fragments(reasoning, fragment_size):
        pieces.append(chunker.event({"reasoning_content": text}, with_logprobs=False))
    for text in fragments(content, fragment_size):
        pieces.append(chunker.event({"content": text}, with_logprobs=False))
    for index, (name, arguments) in enumerate(tool_calls):
        call_id = f"Ab3xK9mPq2ZtW7rYcD5vL8nH1sFgJ{index}"
        for text in fragments(_arguments_text(arguments), fragment_size) or [""]:
            pieces.append(
                chunker.event(
                    {
                        "tool_calls": [
                            {
                                "index": index,
                                "id": call_id,
                                "type": "function",
                                "function": {"name": name, "arguments": text},
                            }
                        ]
                    },
                    with_logprobs=False,
                )
            )
    pieces.append(
        chunker.event(
            {},
            "tool_calls" if tool_calls else "stop",
            usage=_usage(),
            with_logprobs=False,
            timings={"prompt_n": 120, "predicted_n": 48, "predicted_per_second": 41.7},
        )
    )
    pieces.append(sse_done(eol))
    return pieces
