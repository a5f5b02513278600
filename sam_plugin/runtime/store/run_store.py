"""Run ids, run directories and their artifacts, ``result.json`` and the run history.

A run id sorts by time as text (``20261129T193000Z-ab12cd``); its directory
``<runs-dir>/<run_id>/`` holds every artifact of docs/architecture.md §7.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import secrets
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    ValidationError,
    model_serializer,
)

from sam_plugin.compilers.evidence import SHAPES, Check, Readback, ShapeName
from sam_plugin.compilers.protocol import Target
from sam_plugin.compilers.spec.refusal_category import RefusalCategory
from sam_plugin.errors import ErrorLayer as ErrorLayer
from sam_plugin.errors import ProviderFailure
from sam_plugin.runtime.store import private
from sam_plugin.runtime.store.file_lock import FileLock, is_locked, try_lock
from sam_plugin.runtime.store.readable_json import readable_json
from sam_plugin.runtime.store.scrubber import Scrubber
from sam_plugin.words.phrase import Phrase

log = logging.getLogger(__name__)

RUN_ID_PATTERN = re.compile(r"^\d{8}T\d{6}Z-[0-9a-f]{6}$")
JOURNAL_NAME = "submissions.jsonl"
LOCK_NAME = "run.lock"  # held (an OS lock) by the process that owns the run
# JSON files up to this size are laid out for reading (readable_json.py); a bigger one (a
# plan's preview of a whole-part move: 5,000 outlines) is written compact
INDENTED_UP_TO = 256 * 1024

# who started a run (docs/architecture.md §7): the dock, the CLI, an MCP client, a rerun of
# another run (``source_run``), the evaluation harness
RunSource = Literal["dock", "cli", "mcp", "rerun", "eval"]
RunStatus = Literal["verified", "failed", "rejected", "cancelled", "unknown", "undone"]


def new_run_id(now: datetime | None = None, token: str | None = None) -> str:
    """A run id that sorts by creation time: UTC timestamp plus six random hex digits."""
    moment = (now or datetime.now(UTC)).astimezone(UTC)
    token = token if token is not None else secrets.token_hex(3)
    run_id = f"{moment:%Y%m%dT%H%M%SZ}-{token}"
    if not RUN_ID_PATTERN.match(run_id):
        raise ValueError(f"token: six lowercase hex digits expected, got {token!r}")
    return run_id


def run_started(run_id: str) -> str:
    """The ISO time encoded in a run id."""
    moment = datetime.strptime(run_id[:16], "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC)
    return moment.isoformat().replace("+00:00", "Z")


class StateSummary(BaseModel):
    """``before``/``after`` in ``result.json``; a mode whose observation has lines of its own
    (``DomainModule.observation_lines``: the model's repositories its domain changes) adds
    them, as extra keys."""

    model_config = ConfigDict(extra="allow")

    node_count: int
    element_count: int
    shape_counts: dict[ShapeName, int]
    sets: list[str]
    # the target fingerprint (geometry, labels, sets, definitions); None when not read
    fingerprint: str | None = None

    @classmethod
    def from_readback(cls, readback: Readback,
                      domain: Mapping[str, Any] | None = None) -> StateSummary:
        from sam_plugin.runtime.observe.observation import target_fingerprint

        return cls(
            node_count=readback.node_count,
            element_count=readback.element_count,
            shape_counts={s: readback.shape_counts.get(s, 0) for s in SHAPES},
            sets=list(readback.sets),
            fingerprint=target_fingerprint(readback) if readback.fingerprint else None,
            **{key: value for key, value in (domain or {}).items() if key not in cls.model_fields},
        )


PartOutcome = Literal["unchanged", "restored", "may_be_changed"]


class ErrorRecord(BaseModel):
    """``result.json``'s ``error``: the layer that stopped the run and what it said (a record,
    not an exception: those live in ``sam_plugin.errors``)."""

    layer: ErrorLayer
    message: str
    # what became of the part (an additive field, carried as data so that no view has to
    # search the message for words): "unchanged" (nothing ran, or the script stopped before
    # its first change), "restored" (put back and proved), "may_be_changed"; None when unknown
    part: PartOutcome | None = None
    # a design refusal's category (docs/architecture.md §4 "The design, asked in parts"):
    # what the mode does not do; written only for a refusal (an additive key)
    category: RefusalCategory | None = None
    # a failed provider call as data (its kind, what the transport said, the host, and its
    # part of ``message`` as recorded): the front ends say it from the kind, never by reading
    # the message; written only when a provider call ended the run (an additive key)
    provider: ProviderFailure | None = None
    # ``message`` as data (docs/architecture.md "Messages as data"): a phrase whose English
    # is the message, ``run.said`` for English with no phrase yet; the front ends render it
    # and never read the message. Written by every run since (an additive key); a run
    # written before shows its stored message
    phrase: Phrase | None = None

    @model_serializer(mode="wrap")
    def _without_absent_category(self, handler: SerializerFunctionWrapHandler
                                 ) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        for optional in ("category", "provider", "phrase"):
            if data.get(optional) is None:
                data.pop(optional, None)
        return data


class ProviderUsage(BaseModel):
    """Who answered a run and what it cost (``result.json`` ``provider``, an additive field).

    Tokens are ``None`` when the endpoint did not report usage; ``seconds`` is the time spent
    waiting for the provider (streams included), not the analyst's reading time."""

    name: str  # "Replay", or the provider profile (deepseek, openai, ollama, ...)
    model: str
    calls: int = 0
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    seconds: float = 0.0


class SaveOutcome(BaseModel):
    """Where ``--save`` wrote the database, or why it did not (the run stays verified)."""

    path: str
    saved: bool
    message: str | None = None


class KeptSnapshot(BaseModel):
    """How the undo snapshot of a verified run was kept: its bytes, each archive member's
    bytes, and the HMAC that binds them (with the run, its target and its before-counts) under
    the user's secret (``snapshot_seal``). An undo checks all of it before loading a byte."""

    bytes: int
    members: dict[str, int]
    seal: str


class ServerField(BaseModel):
    """``result.json``'s ``server``: what the probe found at the provider's URL."""

    kind: str
    version: str = ""


class RunResult(BaseModel):
    """``result.json`` (docs/architecture.md §7).

    ``unknown`` marks a run whose execution outcome was lost.
    """

    run_id: str
    status: RunStatus
    phase: str
    module: str
    target: Target
    source: RunSource | None = None  # None: written before runs said who started them
    source_run: str | None = None  # the run a rerun repeats
    tools: list[str] = Field(default_factory=list)
    submissions: int = 0
    script_sha256: str | None = None
    repairs: int = 0  # repair rounds used (docs/architecture.md §1)
    before: StateSummary | None = None
    after: StateSummary | None = None
    checks: list[Check] = Field(default_factory=list)
    error: ErrorRecord | None = None
    # a failed run put back exactly (after.fingerprint == before's)
    restored: bool = False
    # what the host lacks for snapshot/restore (None: it has everything)
    restore_unavailable: str | None = None
    # a verified run whose snapshot is kept in its run directory can be undone
    undoable: bool = False
    undo_note: str | None = None
    undo_snapshot: KeptSnapshot | None = None
    provider: ProviderUsage | None = None
    spec_versions: int = 1  # 1 + the revisions asked for ("Ask for changes")
    save: SaveOutcome | None = None  # CLI --save only
    # which server answered and the profile the run used (runtime/provider/probe.py)
    server: ServerField | None = None
    profile: str | None = None


class RunDir:
    """One run's directory (0700); every write is complete-or-absent (temp file + rename),
    0600, and goes through the run's :class:`Scrubber` as a value before it is serialised,
    so no artifact ever holds the API key. Files the host wrote into the directory (the
    audit reports, read back from SAM) are scrubbed the same way by :meth:`seal`."""

    def __init__(self, runs_dir: Path, run_id: str, scrubber: Scrubber | None = None):
        self.run_id = run_id
        self.path = Path(runs_dir) / run_id
        self.scrubber = scrubber or Scrubber("")
        self._lock: FileLock | None = None
        self._written: dict[str, str] = {}  # name -> SHA-256 of the bytes this object wrote
        self._exact: dict[str, bytes] = {}  # the files written byte for byte, as written

    def lock(self) -> RunDir:
        """Hold the run's OS lock while this process owns it (released by :meth:`unlock`, or
        by the OS when the process exits or crashes)."""
        if self._lock is None:
            self._lock = try_lock(self.file(LOCK_NAME))
            if self._lock is None:
                raise RuntimeError(f"run {self.run_id} is held by another live process")
        return self

    def unlock(self) -> None:
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    @property
    def owned_elsewhere(self) -> bool:
        """Whether another live process (or another RunDir of this one) holds the run."""
        return self._lock is None and is_locked(self.file(LOCK_NAME))

    def create(self) -> RunDir:
        private.make_dir(self.path)
        return self

    def file(self, name: str) -> Path:
        return self.path / name

    def write_bytes(self, name: str, data: bytes) -> Path:
        """Raw bytes (a provider body as received): runs of the key, escaped ones too, go."""
        return self._write(name, self.scrubber.bytes(data))

    def write_text(self, name: str, text: str) -> Path:
        return self._write(name, self.scrubber.text(text).encode("utf-8"))

    def write_exact(self, name: str, text: str) -> Path:
        """``text`` byte for byte (the script that executes, whose hash the plan holds); text
        holding the key is refused here, never rewritten (the caller refuses it first)."""
        if self.scrubber.contains(text):
            raise ValueError(f"{name}: the text holds the API key; it is not written")
        data = text.encode("utf-8")
        self._exact[name] = data
        return self._write(name, data)

    def _write(self, name: str, data: bytes) -> Path:
        self._written[name] = hashlib.sha256(data).hexdigest()
        return private.write_file(self.file(name), data)

    def written_sha256(self, name: str) -> str | None:
        """The SHA-256 of what this object last wrote as ``name`` (None: it wrote none)."""
        return self._written.get(name)

    def write_json(self, name: str, payload: Any) -> Path:
        if isinstance(payload, BaseModel):
            payload = payload.model_dump(mode="json")
        value = self.scrubber.value(payload)
        text = json.dumps(value, ensure_ascii=False)
        if len(text) <= INDENTED_UP_TO:
            text = readable_json(value)
        return self._write(name, (text + "\n").encode("utf-8"))

    def write_result(self, result: RunResult) -> Path:
        self.seal()
        return self.write_json("result.json", result)

    def seal(self) -> None:
        """Files written into the run directory by anyone else (the host's audit reports, the
        values read back from SAM, the dock's script output) scrubbed as values and made
        0600. The snapshot (``snapshot.npz``) is only made 0600: it must restore the part
        exactly, so it keeps the analyst's own names as they are (docs/architecture.md §7).
        A file written byte for byte (the script) that was replaced since is written again
        as it was: the directory keeps the bytes that ran, whose SHA-256 the plan holds."""
        self._keep_exact()
        try:
            entries = list(self.path.iterdir())
        except OSError:
            return
        for path in entries:
            name = path.name
            if name in self._written or name == LOCK_NAME or name.endswith(".tmp") or \
                    not path.is_file() or private.is_private(path):
                continue
            if path.suffix == ".npz":
                os.chmod(path, private.FILE_MODE)
                continue
            self._adopt(name, path.read_bytes())

    def _keep_exact(self) -> None:
        for name, data in self._exact.items():
            try:
                kept = self.file(name).read_bytes() == data
            except OSError:
                kept = False
            if not kept:
                log.warning("run %s: %s was replaced after it was written; it is written "
                            "again as this run composed it", self.run_id, name)
                private.write_file(self.file(name), data)

    def _adopt(self, name: str, data: bytes) -> None:
        if name.endswith(".json"):
            try:
                self.write_json(name, json.loads(data))
                return
            except ValueError:
                pass  # not JSON after all: scrubbed as bytes
        if name.endswith(".jsonl"):
            lines = [self._line(line) for line in data.splitlines(keepends=True)]
            self._write(name, b"".join(lines))
            return
        self.write_bytes(name, data)

    def _line(self, line: bytes) -> bytes:
        try:
            value = json.loads(line)
        except ValueError:
            return self.scrubber.bytes(line)
        return json.dumps(self.scrubber.value(value), ensure_ascii=False).encode() + b"\n"

    def read_result(self) -> RunResult | None:
        path = self.file("result.json")
        if not path.exists():
            return None
        try:
            return RunResult.model_validate_json(path.read_text(encoding="utf-8"))
        except ValidationError as error:  # one line, as every reader says it
            raise ValueError(f"it is not a run's result: {_first_problem(error)}") from None


def _first_problem(error: ValidationError) -> str:
    """The first thing wrong with a ``result.json``, in one line."""
    problems = error.errors(include_url=False)
    first = problems[0]
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    message = " ".join(str(first["msg"]).split())
    if first["type"] == "json_invalid":
        return "invalid JSON, " + message.removeprefix("Invalid JSON: ") + more
    where = ".".join(str(part) for part in first["loc"]) or "the result"
    return f"{where}: {message}{more}"


def tool_response_name(round_number: int) -> str:
    """``provider_tool_response.sse`` for round 1, ``provider_tool_response.<n>.sse`` after."""
    if round_number <= 1:
        return "provider_tool_response.sse"
    return f"provider_tool_response.{round_number}.sse"
