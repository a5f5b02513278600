"""Small fakes for controller tests: a host, a domain module, a scripted provider, a composer.

The real pieces (stub SAM, Part module, loopback provider) are exercised end to end in
tests/cli; these fakes make each invariant test precise and fast.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import SecretStr

from sam_plugin.compilers.evidence import Prediction, Range, Readback
from sam_plugin.compilers.protocol import CompileContext, Diagnostic, Fragment, Route, Target
from sam_plugin.compilers.spec.vocabulary import CallOperation
from sam_plugin.errors import CompileError, RouteRefused
from sam_plugin.runtime.config.policy import RunPolicy
from sam_plugin.runtime.config.settings import ProviderSettings
from sam_plugin.runtime.provider.types import ChatResponse, ToolCall
from sam_plugin.runtime.run.controller import RunController
from sam_plugin.samops.readback import find_part, read_part
from tests.support.fake_vocabulary import (  # noqa: F401 - re-exported for the tests here
    FAKE_VOCABULARY,
    fake_calls_from_steps,
    fake_operations,
    fake_spec,
    fake_step,
)

API_KEY = "sk-test-SECRET-4711"
TARGET = Target(model_name="Model-1", part_name="Plate")


def settings(**overrides: Any) -> ProviderSettings:
    values: dict[str, Any] = {
        "base_url": "http://127.0.0.1:9/v1",
        "api_key": SecretStr(API_KEY),
        "model": "fake-model",
        "profile": "openai",
    }
    values.update(overrides)
    return ProviderSettings(**values)


def policy(**overrides: Any) -> RunPolicy:
    values: dict[str, Any] = {
        # these tests drive confirm → result; the plan gate has its own tests (test_plan_gate)
        "plan_wait": "never",
        # the invariant tests check a rejection returns to Review at once; repair rounds
        # have their own tests (test_repair.py)
        "repair_rounds": 0,
    }
    values.update(overrides)
    return RunPolicy(**values)


# -- host ---------------------------------------------------------------------------------


class Repo(dict):
    """Enough of SAM's repository for readback (``keys()``, ``[name]``, ``in``)."""


@dataclass
class Node:
    label: int
    coordinates: tuple[float, float, float]


@dataclass
class Element:
    label: int
    type: str
    connectivity: tuple[int, ...]


@dataclass
class Part:
    name: str
    nodes: list[Node] = field(default_factory=list)
    elements: list[Element] = field(default_factory=list)
    sets: Repo = field(default_factory=Repo)
    sectionAssignments: list[Any] = field(default_factory=list)  # noqa: N815 - host name
    beamOrientations: list[Any] = field(default_factory=list)  # noqa: N815 - host name

    def add_quad(self) -> None:
        base = len(self.nodes)
        for i in range(4):
            self.nodes.append(Node(base + i + 1, (float(i % 2), float(i // 2), 0.0)))
        self.elements.append(
            Element(len(self.elements) + 1, "QUAD", tuple(range(base + 1, base + 5)))
        )


@dataclass
class Model:
    name: str
    parts: Repo = field(default_factory=Repo)
    materials: Repo = field(default_factory=Repo)
    sections: Repo = field(default_factory=Repo)
    profiles: Repo = field(default_factory=Repo)


@dataclass
class Mdb:
    models: Repo


class Crash(BaseException):
    """Stands for the process dying in the middle of an execution."""


class FakeHost:
    """A host gateway over in-memory objects; scripts are plain Python over ``part``."""

    def __init__(self, quads: int = 0, journal: Path | None = None):
        model = Model("Model-1")
        self.mdb = Mdb(models=Repo({"Model-1": model}))
        if quads:
            part = Part("Plate")
            for _ in range(quads):
                part.add_quad()
            model.parts["Plate"] = part
        self.executions: list[str] = []
        self.journal_at_execution: list[str] = []
        self.journal = journal
        self.fail_next: str | None = None
        self.crash_next = False
        self.lie = False  # report PASS without running the script

    def model(self, name: str) -> Any:
        return self.mdb.models.get(name)

    def part(self, target: Target) -> Any:
        return find_part(self.model(target.model_name), target.part_name)

    def readback(
        self, target: Target, *, with_fingerprint: bool = True, hanging_nodes: bool = False
    ) -> Readback:
        return Readback.from_record(read_part(self.model(target.model_name), target.part_name))

    def execute(self, script: str, target: Target, output_dir: Path) -> Any:
        self.executions.append(script)
        if self.journal is not None:
            self.journal_at_execution.append(self.journal.read_text(encoding="utf-8"))
        if self.crash_next:
            raise Crash()
        if self.fail_next:
            return _Receipt("FAIL", self.fail_next)
        if self.lie:
            return _Receipt("PASS", None)
        model = self.model(target.model_name)
        if target.part_name not in model.parts:
            model.parts[target.part_name] = Part(target.part_name)
        namespace = {"part": model.parts[target.part_name], "output_dir": Path(output_dir)}
        exec(script, namespace)  # noqa: S102 - test scripts only
        return _Receipt("PASS", None)


@dataclass
class _Receipt:
    """The host's receipt (runtime/ports.py ``Receipt``) of a host that keeps no snapshots."""

    status: str
    traceback: str | None
    nothing_changed: bool = False
    stage: str | None = None
    snapshot: str | None = None
    missing: tuple[str, ...] = ()
    restored: bool | None = None
    restore_error: str | None = None
    restore_left: tuple[str, ...] = ()


def fake_compose(
    fragments: Sequence[Fragment], run_id: str, target: Target
) -> tuple[str, str, str]:
    import hashlib

    text = "\n".join(f.mutation for f in fragments) + "\n"
    sha = hashlib.sha256(text.encode()).hexdigest()
    return text, sha, hashlib.sha256(f"{sha}\n{run_id}".encode()).hexdigest()


# -- domain module --------------------------------------------------------------------------


class FakePartModule:
    """build/edit → transform → repair → audit, with trivially checkable arguments."""

    mode = "part"
    title = "Part"
    creates_target = True
    capabilities = ("build", "transform", "repair", "audit")
    tool_names: Mapping[str, str] = {
        "build": "build_part",
        "transform": "transform_part",
        "repair": "repair_part",
        "audit": "audit_part",
    }

    vocabulary = FAKE_VOCABULARY

    def __init__(self) -> None:
        self.compiled: list[str] = []

    def design_prompt(self, language: str = "en") -> str:
        return "DESIGN PROMPT: answer with the spec as one JSON object."

    def collection_prompt(self, language: str = "en") -> str:
        return "COLLECTION PROMPT: call the offered tools."

    def describe(self, fragments: Any, ctx: Any) -> Any:
        from sam_plugin.compilers.plan import generic_detail

        return generic_detail(fragments, ctx)

    def record_values(self, run_dir: Any, model: Any) -> None:
        """No values to read back: the plan's checks say it all."""

    def value_checks(self, run_dir: Any, model: Any) -> list:
        return []

    # the contribution points a domain without them gives (compilers/table_module.py)
    mcp_examples: Mapping[str, Any] = {}
    snapshot_covers: tuple[str, ...] = ()

    def observation_lines(self, model: Any) -> dict[str, Any]:
        return {}

    def request_contradictions(self, spec: Any, request: str) -> list:
        return []

    def route(self, spec_text: str, target_is_empty: bool) -> Route:
        match = re.search(r"Planned Part capabilities:\s*(.+)", spec_text)
        if match:
            wanted = {c.strip() for c in match.group(1).split(",")}
            caps = [c for c in self.capabilities if c in wanted]
            method = "capability_line"
        elif target_is_empty:
            caps, method = ["build"], "empty_target"
        else:
            raise RouteRefused(
                "no Part capability found in the spec; ask for build, transform, repair or audit"
            )
        return Route(method=method, capabilities=caps, tools=[self.tool_names[c] for c in caps])

    def route_steps(self, capabilities: Sequence[str], target_is_empty: bool) -> Route:
        if target_is_empty:
            caps = ["build", *[c for c in capabilities if c == "audit"]]
            return Route(method="empty_target", capabilities=caps,
                         tools=[self.tool_names[c] for c in caps])
        caps = [c for c in self.capabilities if c in capabilities]
        return Route(method="steps", capabilities=caps, tools=[self.tool_names[c] for c in caps])

    def operations(self, fragment: Fragment) -> list[CallOperation]:
        return fake_operations(fragment)

    def calls_from_steps(self, spec: Any, tools: Sequence[str]) -> list[Any]:
        return fake_calls_from_steps(spec, tools)

    def part_at(self, fragment: Fragment, index: int, ctx: CompileContext) -> Any:
        return ctx.part

    def design_examples(self) -> tuple[tuple[str, str], ...]:
        return ()

    def request_counts(self, request: str) -> tuple[Any, ...]:
        return ()

    def tool_definitions(self, tool_names: Sequence[str], strict: bool = False) -> list[dict]:
        return [
            {
                "type": "function",
                "function": {"name": name, "parameters": {"type": "object"}, "strict": strict},
            }
            for name in tool_names
        ]

    def compile(
        self, tool: str, arguments: str | Mapping[str, Any], ctx: CompileContext
    ) -> Fragment:
        args = json.loads(arguments) if isinstance(arguments, str) else dict(arguments)
        if "bad" in args:
            raise CompileError(tool, [Diagnostic(path="bad", message="remove it; legal: quads")])
        self.compiled.append(tool)
        state = ctx.state
        if tool == "build_part":
            quads = int(args.get("quads", 1))
            mutation = f"for _ in range({quads}):\n    part.add_quad()"
            evidence = state.model_copy(
                update={
                    "node_count": state.node_count.plus(4 * quads),
                    "element_count": state.element_count.plus(quads),
                    "shape_counts": {
                        **state.shape_counts,
                        "QUAD": state.shape_counts["QUAD"].plus(quads),
                    },
                    "geometry_unchanged": False,
                }
            )
        elif tool == "transform_part":
            dx = float(args.get("dx", 1.0))
            mutation = (
                "for _n in part.nodes:\n"
                f"    _n.coordinates = (_n.coordinates[0] + {dx!r},) + tuple(_n.coordinates[1:])"
            )
            evidence = state.model_copy(update={"geometry_unchanged": False})
        elif tool == "repair_part":
            mutation = "pass  # repair: nothing to merge"
            evidence = state
        elif tool == "audit_part":
            mutation = (
                "(output_dir / 'part_audit.json').write_text('{\"nodes\": %d}' % len(part.nodes))"
            )
            evidence = state.model_copy(update={"files": [*state.files, "part_audit.json"]})
        else:
            raise CompileError(tool, [Diagnostic(path="", message="unknown tool")])
        return Fragment(tool=tool, mutation=mutation, normalized=args, evidence=evidence)


# -- provider ---------------------------------------------------------------------------------


HANG = "hang"


def design(spec: str, *, tool_calls: Sequence[tuple[str, str]] = ()) -> ChatResponse:
    return ChatResponse(
        content=spec,
        reasoning="",
        tool_calls=_calls(tool_calls),
        finish_reason="stop",
        usage=None,
        raw_sse=f"data: {json.dumps({'content': spec})}\n\ndata: [DONE]\n\n".encode(),
    )


def calls(*pairs: tuple[str, str] | tuple[str, dict]) -> ChatResponse:
    normalized = [(n, a if isinstance(a, str) else json.dumps(a)) for n, a in pairs]
    return ChatResponse(
        content="",
        reasoning="",
        tool_calls=_calls(normalized),
        finish_reason="tool_calls",
        usage=None,
        raw_sse=b'data: {"tool_calls": true}\n\ndata: [DONE]\n\n',
    )


def _calls(pairs: Sequence[tuple[str, str]]) -> list[ToolCall]:
    return [
        ToolCall(index=i, id=f"call_{i}", name=n, arguments=a) for i, (n, a) in enumerate(pairs)
    ]


@dataclass
class Request:
    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]] | None
    options: Any = None  # RequestOptions: tool choice, response format, max_tokens


class ScriptedProvider:
    """Answers ``stream_chat`` with queued responses; records every request."""

    def __init__(self, *responses: Any):
        self.queue: deque[Any] = deque(responses)
        self.requests: list[Request] = []
        self.before_answer: Callable[[int], None] | None = None

    def factory(self, _settings: ProviderSettings) -> ScriptedProvider:
        return self

    async def aclose(self) -> None:
        """Nothing to close (the controller closes its provider after every stream)."""

    async def stream_chat(self, messages, tools=None, listener=None,
                          options=None) -> ChatResponse:
        self.requests.append(Request(messages=messages, tools=tools, options=options))
        if self.before_answer is not None:
            self.before_answer(len(self.requests))
        item = self.queue.popleft()
        if item == HANG:
            await asyncio.sleep(3600)
        if isinstance(item, BaseException):
            raise item
        if listener is not None and item.content:
            for start in range(0, len(item.content), 7):
                listener.on_content(item.content[start : start + 7])
        return item

    @property
    def offered(self) -> list[list[str]]:
        """Tool names offered per request (None for a tool-less request)."""
        return [
            None if r.tools is None else [t["function"]["name"] for t in r.tools]
            for r in self.requests
        ]


def prediction_for(readback: Readback) -> Prediction:
    return Prediction.from_readback(readback)


def exact(value: int) -> Range:
    return Range.exact(value)


@dataclass
class Built:
    """A controller over fakes and what it was built from (``build_controller``)."""

    controller: RunController
    host: Any
    module: Any
    runs: Path


def build_controller(tmp_path: Path, provider: Any = None, *, host: Any = None, quads: int = 0,
                     module: Any = None, real_modules: bool = False,
                     settings: ProviderSettings | None = None, policy: RunPolicy | None = None,
                     **kw: Any) -> Built:
    """The one way the controller tests build a ``RunController``: runs under
    ``tmp_path/runs``, a ``FakeHost`` journaling there (``quads`` on its plate) unless
    ``host``, the ``FakePartModule`` and ``fake_compose`` unless ``real_modules`` (the
    registry's domains and the real composer), ``provider.factory`` (or ``provider`` itself
    when it is the factory); ``kw`` goes to ``RunController``."""
    runs = tmp_path / "runs"
    host = host if host is not None else FakeHost(quads=quads, journal=runs / "submissions.jsonl")
    factory = getattr(provider, "factory", provider)  # a ScriptedProvider, or a factory
    if not real_modules:
        module = module if module is not None else FakePartModule()
        kw = {"module_factory": lambda mode: module, "composer": fake_compose, **kw}
    controller = RunController(runs_dir=runs, settings=settings or _settings(),
                               policy=policy or _policy(), host=host,
                               provider_factory=factory, **kw)
    return Built(controller=controller, host=host, module=module, runs=runs)


_settings, _policy = settings, policy
