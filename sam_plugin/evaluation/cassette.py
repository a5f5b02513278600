"""Cassettes: every provider exchange of one task (request body + raw SSE answer), recorded
live and replayed exactly over a loopback server, with no network.

A replayed request must equal the recorded one (JSON-equal); the first difference fails the
task with the path and both values, and the server answers 400 so nothing further happens.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

Kind = Literal["pipeline", "baseline"]
META_NAME = "meta.json"


class Exchange(BaseModel):
    request: dict[str, Any]
    response_sse: str = ""
    error: str | None = None  # the provider error, when the exchange failed


class Cassette(BaseModel):
    task: str
    kind: Kind
    exchanges: list[Exchange] = Field(default_factory=list)
    seconds: float | None = None  # the live run's wall time; a replay reports it

    @staticmethod
    def path(directory: Path, task: str, kind: Kind) -> Path:
        return Path(directory) / f"{task}.{kind}.json"

    @classmethod
    def load(cls, directory: Path, task: str, kind: Kind) -> Cassette | None:
        path = cls.path(directory, task, kind)
        if not path.is_file():
            return None
        return cls.model_validate_json(path.read_text(encoding="utf-8"))

    def save(self, directory: Path) -> Path:
        path = self.path(directory, self.task, self.kind)
        path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(self.model_dump(mode="json"), ensure_ascii=False, indent=1)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(text + "\n", encoding="utf-8")
        tmp.replace(path)
        return path


class CassetteMeta(BaseModel):
    """Who answered: written once per cassette directory, read back to replay exactly."""

    api_model: str
    profile: str
    temperature: float
    base_url: str = ""
    server: str = ""  # e.g. the llama-server --version line
    notes: str = ""


def save_meta(directory: Path, meta: CassetteMeta) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / META_NAME).write_text(meta.model_dump_json(indent=1) + "\n", encoding="utf-8")


def load_meta(directory: Path) -> CassetteMeta:
    path = Path(directory) / META_NAME
    if not path.is_file():
        raise FileNotFoundError(f"--replay: {directory} has no {META_NAME} (not a cassette dir)")
    return CassetteMeta.model_validate_json(path.read_text(encoding="utf-8"))


# -- differences ------------------------------------------------------------------------------


def first_difference(recorded: Any, sent: Any, path: str = "$") -> str | None:
    """Where two JSON values first differ, said with both sides; None when equal."""
    if type(recorded) is not type(sent) and not (
        isinstance(recorded, int | float) and isinstance(sent, int | float)
    ):
        return f"{path}: recorded {_short(recorded)}, sent {_short(sent)}"
    if isinstance(recorded, dict):
        for key in sorted(set(recorded) | set(sent)):
            if key not in sent:
                return f"{path}.{key}: recorded {_short(recorded[key])}, sent nothing"
            if key not in recorded:
                return f"{path}.{key}: not recorded, sent {_short(sent[key])}"
            found = first_difference(recorded[key], sent[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(recorded, list):
        for i, (a, b) in enumerate(zip(recorded, sent, strict=False)):
            found = first_difference(a, b, f"{path}[{i}]")
            if found:
                return found
        if len(recorded) != len(sent):
            return f"{path}: recorded {len(recorded)} items, sent {len(sent)}"
        return None
    if isinstance(recorded, str) and recorded != sent:
        at = next((i for i, (a, b) in enumerate(zip(recorded, sent, strict=False)) if a != b),
                  min(len(recorded), len(sent)))
        lo = max(0, at - 30)
        return (f"{path} (char {at}): recorded {recorded[lo:at + 40]!r}, "
                f"sent {sent[lo:at + 40]!r}")
    if recorded != sent:
        return f"{path}: recorded {_short(recorded)}, sent {_short(sent)}"
    return None


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 80 else text[:77] + "..."


# -- replay -----------------------------------------------------------------------------------


class ReplayResponder:
    """The loopback server's answer function for one cassette (requests in recorded order)."""

    def __init__(self, cassette: Cassette):
        self.cassette = cassette
        self.used = 0
        self.mismatch: str | None = None
        self._lock = threading.Lock()

    def __call__(self, request: Any) -> Any:
        from sam_plugin.demo.loopback import ErrorResponse, StreamResponse, split_sse

        with self._lock:
            index = self.used
            self.used += 1
            exchanges = self.cassette.exchanges
            if self.mismatch is None:
                if index >= len(exchanges):
                    self.mismatch = (f"request #{index + 1} is not in the cassette (it recorded "
                                     f"{len(exchanges)})")
                else:
                    diff = first_difference(exchanges[index].request, request)
                    if diff:
                        self.mismatch = f"request #{index + 1} differs from the recording at {diff}"
            if self.mismatch is not None:
                body = {"error": {"message": f"cassette mismatch: {self.mismatch}",
                                  "type": "cassette_mismatch"}}
                return ErrorResponse(400, json.dumps(body).encode("utf-8"))
            exchange = exchanges[index]
            if exchange.error is not None:
                body = {"error": {"message": exchange.error, "type": "recorded_error"}}
                return ErrorResponse(400, json.dumps(body).encode("utf-8"))
            return StreamResponse(split_sse(exchange.response_sse.encode("utf-8")))

    def unused(self) -> str | None:
        """After the run: recorded requests the replay never made."""
        left = len(self.cassette.exchanges) - self.used
        if self.mismatch is None and left > 0:
            return (f"the run made {self.used} request(s); the cassette recorded "
                    f"{len(self.cassette.exchanges)}")
        return None


# -- metering and recording -------------------------------------------------------------------


class Meter:
    """Provider rounds, tokens and (when recording) the exchanges of one task and kind."""

    def __init__(self) -> None:
        self.rounds = 0
        self.prompt_tokens = 0
        self.completion_tokens = 0
        self.exchanges: list[Exchange] = []

    def add(self, body: dict[str, Any], raw_sse: bytes, usage: dict[str, Any] | None,
            error: str | None = None) -> None:
        self.rounds += 1
        prompt, completion = tokens_of(usage, raw_sse)
        self.prompt_tokens += prompt
        self.completion_tokens += completion
        self.exchanges.append(Exchange(request=json.loads(json.dumps(body)),
                                       response_sse=raw_sse.decode("utf-8", "replace"),
                                       error=error))


class MeteredProvider:
    """A provider that tells the meter about every exchange; otherwise the real one."""

    def __init__(self, inner: Any, meter: Meter):
        self._inner = inner
        self._meter = meter

    def build_request(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        return self._inner.build_request(*args, **kwargs)

    async def stream_chat(self, messages: list[dict[str, Any]],
                          tools: list[dict[str, Any]] | None = None, **kwargs: Any) -> Any:
        from sam_plugin.runtime.provider.errors import ProviderError

        body = self._inner.build_request(messages, tools, tool_choice=kwargs.get("tool_choice"))
        try:
            response = await self._inner.stream_chat(messages, tools, **kwargs)
        except ProviderError as error:
            self._meter.add(body, error.raw_sse or b"", None, error=str(error))
            raise
        self._meter.add(body, response.raw_sse, response.usage)
        return response

    async def aclose(self) -> None:
        await self._inner.aclose()


def metered_factory(meter: Meter) -> Callable[[Any], MeteredProvider]:
    from sam_plugin.runtime.provider.client import ChatProvider

    return lambda settings: MeteredProvider(ChatProvider(settings), meter)


_TIMINGS = re.compile(rb'"timings"\s*:\s*\{[^{}]*\}')


def tokens_of(usage: dict[str, Any] | None, raw_sse: bytes) -> tuple[int, int]:
    """(prompt, completion) tokens: the provider's usage, else llama.cpp's ``timings``."""
    if usage:
        return int(usage.get("prompt_tokens") or 0), int(usage.get("completion_tokens") or 0)
    found = _TIMINGS.findall(raw_sse)
    if found:
        timings = json.loads(found[-1].split(b":", 1)[1])
        prompt = int(timings.get("prompt_n") or 0) + int(timings.get("cache_n") or 0)
        return prompt, int(timings.get("predicted_n") or 0)
    return 0, 0
