"""An MCP client's tool arguments: their JSON Schemas, and the checks every call meets before
anything runs (docs/mcp.md "Tools").

An agent is held to what a model is held to (docs/architecture.md §4, §7): the whole
arguments within the size budget (``max_argument_bytes``, measured on their JSON), no
non-finite number, nesting bounded, no control character in a name; the request and the
spec's words are filtered as a model's text is (``visible_text``); each call's arguments go
through the collection's own guard (strict JSON, the size budget, the API key) and the
compilers, as a model's do. Every refusal names the field and what is legal there. Which
model is which tool's is declared once, in ``tools.py``.
"""

from __future__ import annotations

import json
import math
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from sam_plugin.compilers import registry
from sam_plugin.compilers.protocol import ModeName
from sam_plugin.errors import ToolArgumentError
from sam_plugin.runtime.text_safety import visible_text

MAX_DEPTH = 64  # deeper than any tool IR object nests
MAX_CALLS = 16
# below the 60 s after which common clients (the Python SDK, the Inspector) give up on a call:
# a longer wait is asked for, or wait_seconds 0 and run_status are polled (docs/mcp.md)
DEFAULT_WAIT_SECONDS = 50.0
MAX_WAIT_SECONDS = 3600.0
RUN_ID = r"^\d{8}T\d{6}Z-[0-9a-f]{6}$"
SHA256 = r"^[0-9a-f]{64}$"
# model and part names as SAM takes them: printable, no control characters, bounded
TargetName = Annotated[str, Field(min_length=1, max_length=80, pattern=r"^[^\x00-\x1f\x7f]+$")]
Mode = ModeName
_STRICT = ConfigDict(extra="forbid", frozen=True)
Args = TypeVar("Args", bound=BaseModel)


def _modes_and_capabilities() -> str:
    """Every registered mode with its capabilities: "part (build, ...), ... or mesh (...)"."""
    named = [f"{mode} ({', '.join(registry.get_module(mode).capabilities)})"
             for mode in registry.MODES]
    return " or ".join([", ".join(named[:-1]), named[-1]] if len(named) > 1 else named)


class ListTargetsArgs(BaseModel):
    model_config = _STRICT


class ObserveArgs(BaseModel):
    model_config = _STRICT

    model: TargetName = Field(description="the model, as list_targets names it")
    part: TargetName = Field(description="the part")
    mode: Mode = Field("part", description="the mode the observation is for")
    query: dict[str, Any] | None = Field(
        None, description='optional L3 detail, at most 200 rows: {"entity": "nodes"|"elements", '
        '"by": "labels"|"set"|"box"|"nearest", ...} (e.g. {"entity": "elements", "by": '
        '"set", "name": "KEEL"})')


class CapabilitiesArgs(BaseModel):
    model_config = _STRICT

    mode: Mode = Field(description=_modes_and_capabilities())


class CallArg(BaseModel):
    model_config = _STRICT

    name: str = Field(min_length=1, max_length=64, description="the tool, e.g. transform_part")
    arguments: dict[str, Any] | str = Field(
        description="its arguments: the JSON object capabilities shows (or that object as "
        "JSON text)")


class PlanChangeArgs(BaseModel):
    model_config = _STRICT

    mode: Mode
    model: TargetName
    part: TargetName = Field(description="the part to change (in part mode a new name builds it)")
    request: str = Field(min_length=1, max_length=20_000,
                         description="what the person asked for, in their words")
    spec: dict[str, Any] = Field(
        description="the spec: {summary, steps:[{capability, action, scope?, values, text}], "
        "expected?}; its JSON Schema per mode is capabilities().spec_schema. Every call must "
        "carry out one of its steps")
    calls: list[CallArg] | None = Field(
        None, min_length=1, max_length=MAX_CALLS,
        description="the tool calls, in the mode's canonical order; leave them out to have "
        "them computed from the spec's steps (the same binding, plan and approval)")

    @field_validator("request")
    @classmethod
    def _visible(cls, value: str) -> str:
        shown = visible_text(value).strip()
        if not shown:
            raise ValueError("empty once control characters are removed; say what to change")
        return shown


class ExecutePlanArgs(BaseModel):
    model_config = _STRICT

    run_id: str = Field(pattern=RUN_ID, description="the run_id plan_change returned")
    plan_sha256: str = Field(pattern=SHA256,
                             description="the plan_sha256 plan_change returned (what executes)")
    wait_seconds: float = Field(DEFAULT_WAIT_SECONDS, ge=0, le=MAX_WAIT_SECONDS,
                                description="how long this call waits for a person's "
                                "decision; unanswered by then, the plan is cancelled. 0 answers "
                                "at once (waiting_for_approval: poll run_status, then call "
                                "execute_plan again); a decision recorded already is acted on "
                                "at once")


class UndoRunArgs(BaseModel):
    model_config = _STRICT

    run_id: str = Field(pattern=RUN_ID, description="a verified run to undo")
    wait_seconds: float = Field(DEFAULT_WAIT_SECONDS, ge=1, le=MAX_WAIT_SECONDS,
                                description="how long a person has to approve the undo")


class RunStatusArgs(BaseModel):
    model_config = _STRICT

    run_id: str = Field(pattern=RUN_ID)


class ListRunsArgs(BaseModel):
    model_config = _STRICT

    limit: int = Field(20, ge=1, le=200, description="newest first, at most this many")


def input_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The JSON Schema (2020-12) a client sees for a tool's arguments ``model``."""
    schema: dict[str, Any] = _untitled(model.model_json_schema())
    return schema


def parse(tool: str, model: type[Args], arguments: Any, *, max_bytes: int) -> Args:
    """``arguments`` checked and typed as ``tool``'s ``model``; :class:`ToolArgumentError`
    names the first problem and what is legal."""
    value = {} if arguments is None else arguments
    check_shape(value, max_bytes=max_bytes)
    try:
        return model.model_validate(value)
    except ValidationError as error:
        raise ToolArgumentError(_first_problem(tool, model, error)) from None


def check_shape(value: Any, *, max_bytes: int) -> None:
    """Size, depth and numbers of the whole arguments, before any field is read."""
    _walk(value, "arguments", 0)
    try:
        size = len(json.dumps(value, ensure_ascii=False, allow_nan=False).encode("utf-8",
                                                                                 "surrogatepass"))
    except (TypeError, ValueError) as error:
        raise ToolArgumentError(f"arguments: not JSON data ({error})") from None
    if size > max_bytes:
        raise ToolArgumentError(
            f"arguments: {size} bytes, over the budget of {max_bytes} bytes "
            "(max_argument_bytes); nothing was read. Describe regular meshes with patches and "
            "lines instead of listing every node")


def _walk(value: Any, path: str, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise ToolArgumentError(f"{path}: nested deeper than {MAX_DEPTH} levels")
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str) or visible_text(key) != key:
                raise ToolArgumentError(f"{path}: the key {key!r} holds a control character")
            _walk(item, f"{path}.{key}", depth + 1)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _walk(item, f"{path}[{index}]", depth + 1)
    elif isinstance(value, float) and not math.isfinite(value):
        raise ToolArgumentError(f"{path}: {value} is not a finite number; JSON numbers must "
                                "be finite")


def _first_problem(tool: str, model: type[BaseModel], error: ValidationError) -> str:
    first = error.errors(include_url=False)[0]
    where = ".".join(str(part) for part in first["loc"]) or "arguments"
    if first["type"] == "extra_forbidden":
        legal = ", ".join(model.model_fields) or "none"
        return f"{where}: not an argument of {tool}; its arguments: {legal}"
    if first["type"] == "missing":
        return f"{where}: required by {tool}"
    message = str(first["msg"]).removeprefix("Value error, ")
    return f"{where}: {message}"


def _untitled(schema: Any) -> Any:
    """Pydantic's ``title`` keys dropped: what the client sees is the schema, not Python."""
    if isinstance(schema, dict):
        return {k: _untitled(v) for k, v in schema.items()
                if not (k == "title" and isinstance(v, str))}
    if isinstance(schema, list):
        return [_untitled(v) for v in schema]
    return schema
