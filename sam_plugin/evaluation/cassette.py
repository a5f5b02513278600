"""Cassettes: every provider exchange of one task (request body + raw SSE answer), recorded
live and replayed exactly over a loopback server, with no network.

A replayed request must equal the recorded one (JSON-equal); the first difference fails the
task with the path and both values, and the server answers 400 so nothing further happens.
When that request also shows the model something else than the recorded one did (its
fingerprint, :func:`shown_fingerprint`: the system prompts, the tool schemas and every request
parameter the profile sets), the cassette is *stale*, not a mismatch: the prompts changed
since the recording, and the task is re-recorded (``--record DIR --only-stale``).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from sam_plugin.evaluation.machine_load import MachineLoad

Kind = Literal["pipeline", "baseline"]
META_NAME = "meta.json"


CUT_BY_TIMEOUT = "cut: the task ran over its time bound (--task-timeout)"
FINGERPRINT_VERSION = "shown-v2"
# Request keys that are not what the model is shown: the conversation (its system messages
# count, see shown_fingerprint) and the transport.
_NOT_SHOWN = frozenset({"messages", "stream"})


class Exchange(BaseModel):
    request: dict[str, Any]
    response_sse: str = ""
    error: str | None = None  # the provider error, when the exchange failed
    # shown_fingerprint(request) when recorded; cassettes from before it have none, and
    # their fingerprint is computed from the recorded request (which is exactly what was sent)
    fingerprint: str | None = None

    def shown(self) -> str:
        if self.fingerprint and self.fingerprint.startswith(FINGERPRINT_VERSION + ":"):
            return self.fingerprint
        return shown_fingerprint(self.request)


class Cassette(BaseModel):
    task: str
    kind: Kind
    exchanges: list[Exchange] = Field(default_factory=list)
    seconds: float | None = None  # the live run's wall time; a replay reports it
    # the live run was ended at this bound (--task-timeout): its last exchange is the request
    # in flight then, and a replay reports the task as that timeout
    timeout: float | None = None

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
    # what the probe found (runtime/provider/probe.py); a replay reports it as the server
    server_kind: str = ""
    server_version: str = ""
    constrained: bool = True  # False: recorded with --unconstrained (constrained_calls off)
    # where the tool calls came from (--calls): computed from the spec, or the model's rounds
    # (what every recording before computed calls used)
    calls: Literal["spec", "model"] = "model"
    # how the spec was asked (--design): the actions, then each action's values, or the whole
    # spec in one request (what every recording before the parts protocol used)
    design: Literal["parts", "whole"] = "whole"
    notes: str = ""
    load: MachineLoad | None = None  # the machine's load while these cassettes were recorded


def save_meta(directory: Path, meta: CassetteMeta) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / META_NAME).write_text(meta.model_dump_json(indent=1) + "\n", encoding="utf-8")


def load_meta(directory: Path) -> CassetteMeta:
    path = Path(directory) / META_NAME
    if not path.is_file():
        raise FileNotFoundError(f"--replay: {directory} has no {META_NAME} (not a cassette dir)")
    return CassetteMeta.model_validate_json(path.read_text(encoding="utf-8"))


# -- what the model is shown ------------------------------------------------------------------


def shown_part(request: dict[str, Any]) -> dict[str, Any]:
    """What a request shows the model beyond what the run itself answered: the system
    prompts, the first user turn (the mode, target, observation and request, as the code
    renders them from the task's workspace), the tool schemas and every parameter the profile
    sets (``tools``, ``tool_choice``, ``response_format``, ``max_tokens``, ``temperature``,
    the model name, ...). A change there is the code showing the model something else: the
    recording is stale, re-recorded with ``--only-stale``. The later turns (the model's
    answers, the spec, repair diagnostics) follow from the recorded answers: a change there
    with the same prompts is a mismatch."""
    messages = request.get("messages")
    turns = [m for m in messages if isinstance(m, dict)] if isinstance(messages, list) else []
    system = [m.get("content") for m in turns if m.get("role") == "system"]
    first_user = next((m.get("content") for m in turns if m.get("role") == "user"), None)
    return {"system": system, "first_user": first_user,
            **{key: value for key, value in request.items() if key not in _NOT_SHOWN}}


def shown_fingerprint(request: dict[str, Any]) -> str:
    text = json.dumps(shown_part(request), sort_keys=True, ensure_ascii=False,
                      separators=(",", ":"))
    return f"{FINGERPRINT_VERSION}:{hashlib.sha256(text.encode('utf-8')).hexdigest()[:16]}"


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
        self.stale: str | None = None  # the prompts changed since the recording
        self._lock = threading.Lock()

    def __call__(self, request: Any) -> Any:
        from sam_plugin.demo.loopback import ErrorResponse, StreamResponse, split_sse

        with self._lock:
            index = self.used
            self.used += 1
            exchanges = self.cassette.exchanges
            if self.mismatch is None and self.stale is None:
                self._compare(index, request)
            if self.stale is not None:
                body = {"error": {"message": f"cassette stale: {self.stale}",
                                  "type": "cassette_stale"}}
                return ErrorResponse(400, json.dumps(body).encode("utf-8"))
            if self.mismatch is not None:
                body = {"error": {"message": f"cassette mismatch: {self.mismatch}",
                                  "type": "cassette_mismatch"}}
                return ErrorResponse(400, json.dumps(body).encode("utf-8"))
            if index >= len(exchanges):
                body = {"error": {"message": "the recording ended here, at its task timeout",
                                  "type": "cassette_timeout"}}
                return ErrorResponse(400, json.dumps(body).encode("utf-8"))
            exchange = exchanges[index]
            if exchange.error is not None:
                body = {"error": {"message": exchange.error, "type": "recorded_error"}}
                return ErrorResponse(400, json.dumps(body).encode("utf-8"))
            return StreamResponse(split_sse(exchange.response_sse.encode("utf-8")))

    def _compare(self, index: int, request: Any) -> None:
        exchanges = self.cassette.exchanges
        if index >= len(exchanges) and self.cassette.timeout is not None:
            return  # the recording was ended here by its time bound (answered as an error)
        if index >= len(exchanges):
            self.mismatch = (f"request #{index + 1} is not in the cassette (it recorded "
                             f"{len(exchanges)})")
            return
        recorded = exchanges[index]
        diff = first_difference(recorded.request, request)
        if not diff:
            return
        if isinstance(request, dict) and recorded.shown() != shown_fingerprint(request):
            where = first_difference(shown_part(recorded.request), shown_part(request))
            self.stale = (f"request #{index + 1} shows the model other prompts than the "
                          f"recording ({where or 'fingerprint'})")
        else:
            self.mismatch = f"request #{index + 1} differs from the recording at {diff}"

    def unused(self) -> str | None:
        """After the run: recorded requests the replay never made."""
        left = len(self.cassette.exchanges) - self.used
        if self.mismatch is None and self.stale is None and left > 0:
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
        request = json.loads(json.dumps(body))
        self.exchanges.append(Exchange(request=request,
                                       response_sse=raw_sse.decode("utf-8", "replace"),
                                       error=error, fingerprint=shown_fingerprint(request)))


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

        body = self._inner.build_request(messages, tools, tool_choice=kwargs.get("tool_choice"),
                                         options=kwargs.get("options"))
        try:
            response = await self._inner.stream_chat(messages, tools, **kwargs)
        except ProviderError as error:
            self._meter.add(body, error.raw_sse or b"", None, error=str(error))
            raise
        except asyncio.CancelledError:  # the task's time bound: what it asked is kept
            self._meter.add(body, b"", None, error=CUT_BY_TIMEOUT)
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
