"""SSE decoding + tool-call reassembly: our adapter vs the openai package, same chunks.

A stream carrying 1 MB of tool arguments in 7-byte fragments (OpenAI capture shape: role
chunk, first tool delta with id/type/name, argument fragments, finish chunk, usage chunk,
[DONE]), cut into 64 KiB network reads. Every side decodes the same reads and reassembles:

- ours: ``sam_plugin.runtime.provider.sse.SSEDecoder`` + ``provider_stream.StreamAccumulator``;
- plain httpx-sse: ``httpx_sse.EventSource(response).iter_sse()`` + ``json.loads`` + a dict
  of argument pieces per tool-call index, joined at the end (what a Python user writes);
- openai: ``openai._streaming.SSEDecoder.iter_bytes`` -> ``ChatCompletionChunk`` (built the
  way ``openai.Stream`` builds it) -> ``ChatCompletionStreamState.handle_chunk``.

The openai side is quadratic in the arguments' size (it re-parses the partial JSON on every
fragment: 14 s CPU at 0.5 MB, 32 s at 1 MB, ~16 min at 5 MB), so the default size is 1 MB,
where all sides finish within two minutes on this machine.

Also printed, for the record: httpx-sse's own decoders on the same reads (the reason
``sse.py`` does its own framing is in its module docstring).

Usage: python bench/sse_reassembly.py [--mb 1] [--fragment 7] [--read-size 65536]
Times are CPU seconds of this process (the ratios use them: other jobs on a shared machine
do not skew them); wall seconds are printed beside them. Lines before the last:
``ratio_vs_plain=<ours/plain httpx-sse>`` (information); last line:
``ratio=<ours/openai> goal<=1.0``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sam_plugin.demo.streams import openai_stream  # noqa: E402
from sam_plugin.runtime.provider.sse import SSEDecoder  # noqa: E402
from sam_plugin.runtime.provider.stream import StreamAccumulator  # noqa: E402


def make_arguments(size: int) -> str:
    """JSON text of about ``size`` bytes shaped like a big build_part call."""
    node = '{"id": "n%d", "coordinates": [%d.5, %d.25, 0.0]}'
    parts: list[str] = []
    total = 0
    i = 0
    while total < size:
        item = node % (i, i % 1000, i // 1000)
        parts.append(item)
        total += len(item) + 2
        i += 1
    return '{"nodes": [' + ", ".join(parts) + '], "elements": []}'


def make_reads(arguments: str, fragment: int, read_size: int) -> list[bytes]:
    pieces = openai_stream(tool_calls=[("build_part", arguments)], fragment_size=fragment)
    body = "".join(pieces).encode()
    return [body[i : i + read_size] for i in range(0, len(body), read_size)]


def run_ours(reads: list[bytes]) -> str:
    decoder = SSEDecoder()
    accumulator = StreamAccumulator()
    for read in reads:
        for event in decoder.feed(read):
            accumulator.handle(event)
    assert accumulator.done
    return accumulator.result(b"").tool_calls[0].arguments


def run_openai(reads: list[bytes]) -> str:
    from openai._models import construct_type
    from openai._streaming import SSEDecoder as OpenAIDecoder
    from openai.lib.streaming.chat import ChatCompletionStreamState
    from openai.types.chat import ChatCompletionChunk

    state: ChatCompletionStreamState = ChatCompletionStreamState()
    for sse in OpenAIDecoder().iter_bytes(iter(reads)):
        if sse.data.startswith("[DONE]"):
            break
        chunk = construct_type(type_=ChatCompletionChunk, value=sse.json())
        state.handle_chunk(chunk)  # type: ignore[arg-type]
    completion = state.get_final_completion()
    return completion.choices[0].message.tool_calls[0].function.arguments  # type: ignore[index,union-attr]


def run_plain_httpx_sse(reads: list[bytes]) -> str:
    """The reassembly a Python user writes on top of httpx-sse's public API."""
    import httpx
    from httpx_sse import EventSource

    response = httpx.Response(200, headers={"content-type": "text/event-stream"},
                              content=iter(reads))
    calls: dict[int, dict[str, Any]] = {}
    for sse in EventSource(response).iter_sse():
        if sse.data == "[DONE]":
            break
        chunk = json.loads(sse.data)
        for choice in chunk.get("choices") or []:
            for delta in (choice.get("delta") or {}).get("tool_calls") or []:
                call = calls.setdefault(delta["index"], {"id": "", "name": "", "pieces": []})
                call["id"] = delta.get("id") or call["id"]
                function = delta.get("function") or {}
                call["name"] = function.get("name") or call["name"]
                if function.get("arguments"):
                    call["pieces"].append(function["arguments"])
    return "".join(calls[0]["pieces"])


def run_httpx_sse(reads: list[bytes]) -> int:
    import codecs

    from httpx_sse._decoders import SSEDecoder as HxDecoder
    from httpx_sse._decoders import SSELineDecoder

    text_decoder = codecs.getincrementaldecoder("utf-8")()
    lines = SSELineDecoder()
    decoder = HxDecoder()
    events = 0
    for read in reads:
        for line in lines.decode(text_decoder.decode(read)):
            if decoder.decode(line) is not None:
                events += 1
    return events


def run_our_decoder_only(reads: list[bytes]) -> int:
    decoder = SSEDecoder()
    return sum(len(decoder.feed(read)) for read in reads)


def timed(label: str, fn, reads: list[bytes]):  # noqa: ANN001, ANN201
    """Runs ``fn``; returns its CPU seconds (fair on a shared machine) and its result."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn(reads)
    cpu = time.process_time() - cpu
    wall = time.perf_counter() - wall
    print(f"{label:<34} cpu {cpu:9.3f} s   wall {wall:9.3f} s", flush=True)
    return cpu, result


def main() -> None:
    try:
        import openai  # noqa: F401 - only to say plainly what is missing
    except ImportError:
        sys.exit("bench/sse_reassembly.py compares with the openai package, which the bench "
                 "extra installs: pip install -e '.[bench]'")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    smoke = os.environ.get("BENCH_SMOKE") == "1"  # CI: a tenth of the arguments
    parser.add_argument("--mb", type=float, default=0.1 if smoke else 1.0,
                        help="MB of tool arguments")
    parser.add_argument("--fragment", type=int, default=7, help="bytes per argument fragment")
    parser.add_argument("--read-size", type=int, default=65536, help="bytes per network read")
    args = parser.parse_args()

    arguments = make_arguments(int(args.mb * 1_000_000))
    reads = make_reads(arguments, args.fragment, args.read_size)
    body_size = sum(len(r) for r in reads)
    print(
        f"arguments {len(arguments) / 1e6:.2f} MB in {args.fragment}-byte fragments; "
        f"SSE body {body_size / 1e6:.1f} MB in {len(reads)} reads of {args.read_size} B",
        flush=True,
    )
    json.loads(arguments)

    _, hx_events = timed("httpx-sse decoders (framing only)", run_httpx_sse, reads)
    _, our_events = timed("our SSEDecoder (framing only)", run_our_decoder_only, reads)
    assert hx_events == our_events, (hx_events, our_events)
    ours, our_args = timed("ours: decode + reassemble", run_ours, reads)
    plain, plain_args = timed("plain httpx-sse + dict", run_plain_httpx_sse, reads)
    theirs, their_args = timed("openai: decode + stream state", run_openai, reads)
    assert our_args == arguments, "our reassembly differs from the input"
    assert plain_args == arguments, "plain httpx-sse reassembly differs from the input"
    assert their_args == arguments, "openai reassembly differs from the input"
    print(f"ratio_vs_plain={ours / plain:.3f} (information)")
    print(f"ratio={ours / theirs:.3f} goal<=1.0")


if __name__ == "__main__":
    main()
