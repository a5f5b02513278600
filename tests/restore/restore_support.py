"""A real run (controller, compilers, stub SAM) with a host that fails where a test says.

``FaultyGateway`` counts the mutating host calls made while the script runs and raises at the
k-th one (once: the script's own restore then runs on a healthy host). Scenarios set up a
workspace, answer with a spec and the tool calls, and compare databases saved before/after.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import SecretStr

from sam_plugin.compilers.protocol import Target
from sam_plugin.runtime.config.policy import RunPolicy
from sam_plugin.runtime.config.settings import ProviderSettings
from sam_plugin.runtime.host_gateway import HostGateway
from sam_plugin.runtime.provider.types import ChatResponse, ToolCall
from sam_plugin.runtime.run.controller import RunController
from tests.support.pipeline import quad_grid

TARGET = Target(model_name="Model-1", part_name="Plate")


class InjectedFault(RuntimeError):
    """The test host failing on purpose."""


def _mutators() -> list[tuple[type, str]]:
    from sam.model import Model
    from sam.part import Part
    from sam.properties import Material
    from sam.regions import BeamOrientation, EntryList, SectionAssignment
    from sam.repository import Repository

    from sam_plugin.samops import mesh_audit, part_audit, property_audit

    calls = [(Part, name) for name in (
        "Node", "Element", "Set", "deleteNode", "deleteElement", "editNode", "mergeNodes",
        "SectionAssignment", "assignBeamSectionOrientation")]
    calls += [(Model, name) for name in (
        "Part", "Material", "HomogeneousShellSection", "BeamSection", "RectangularProfile",
        "CircularProfile", "PipeProfile", "IProfile")]
    calls += [(Material, "Elastic"), (Material, "Density"), (Repository, "__delitem__"),
              (Repository, "changeKey"), (EntryList, "__delitem__"),
              (SectionAssignment, "setValues"), (BeamOrientation, "setValues")]
    # an audit changes nothing in SAM; its report write is where it can fail
    calls += [(module, "write_audit") for module in (part_audit, property_audit, mesh_audit)]
    return calls


class FaultyGateway(HostGateway):
    """The in-process gateway; during ``execute`` the k-th mutating call raises once."""

    def __init__(self, sam: Any, fault_at: int | None = None, *, persistent: bool = False):
        super().__init__(sam)
        self.fault_at = fault_at
        self.persistent = persistent  # from call k on, every call fails (the restore too)
        self.calls = 0
        self.fired = False

    def execute(self, script: str, target: Target, output_dir: Path) -> Any:
        with self._armed():
            return super().execute(script, target, output_dir)

    @contextlib.contextmanager
    def _armed(self) -> Iterator[None]:
        originals = [(owner, name, owner.__dict__[name]) for owner, name in _mutators()
                     if name in owner.__dict__]
        try:
            for owner, name, original in originals:
                setattr(owner, name, self._counting(original))
            yield
        finally:
            for owner, name, original in originals:
                setattr(owner, name, original)

    def _counting(self, original: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(original)
        def call(*args: Any, **kwargs: Any) -> Any:
            if self.persistent and self.fired:
                raise InjectedFault(f"host call ({original.__name__}) failed again")
            if not self.fired:
                self.calls += 1
                if self.calls == self.fault_at:
                    self.fired = True
                    raise InjectedFault(f"host call {self.calls} ({original.__name__}) failed")
            return original(*args, **kwargs)

        return call


class Provider:
    """The spec first, then all tool calls in one round."""

    def __init__(self, spec: str, calls: list[tuple[str, dict[str, Any]]]):
        self.answers = [
            ChatResponse(content=spec, reasoning="", tool_calls=[], finish_reason="stop",
                         usage=None, raw_sse=b"data: [DONE]\n\n"),
            ChatResponse(content="", reasoning="", finish_reason="tool_calls", usage=None,
                         raw_sse=b"data: [DONE]\n\n",
                         tool_calls=[ToolCall(index=i, id=f"c{i}", name=name,
                                              arguments=json.dumps(args))
                                     for i, (name, args) in enumerate(calls)]),
        ]

    def factory(self, _settings: ProviderSettings) -> Provider:
        return self

    async def aclose(self) -> None:
        """Nothing to close (the controller closes its provider after every stream)."""

    async def stream_chat(self, messages: Any, tools: Any = None, listener: Any = None,
                          options: Any = None) -> Any:
        return self.answers.pop(0)


def settings() -> ProviderSettings:
    # confirm runs straight through the plan here; the plan gate has its own tests
    return ProviderSettings(base_url="http://127.0.0.1:9/v1", api_key=SecretStr("sk-x"),
                            model="m", profile="openai")


@dataclass
class Scenario:
    name: str
    mode: str
    setup: Callable[[Any], None]
    spec: str
    calls: list[tuple[str, dict[str, Any]]]
    request: str


def run(sam: Any, tmp_path: Path, scenario: Scenario, gateway: HostGateway | None = None,
        runs_dir: Path | None = None, listener: Callable[[Any], None] | None = None,
        ) -> tuple[Any, RunController, HostGateway]:
    """Submit and confirm ``scenario`` on the current ``sam.mdb`` (already set up)."""
    gateway = gateway or HostGateway(sam)
    provider = Provider(scenario.spec, scenario.calls)
    controller = RunController(runs_dir=runs_dir or tmp_path / "runs", settings=settings(),
                               policy=RunPolicy(plan_wait="never"),
                               host=gateway, provider_factory=provider.factory)
    if listener is not None:
        controller.subscribe(listener)
    asyncio.run(controller.submit(scenario.request, scenario.mode, TARGET))
    assert controller.phase == "review", controller.result
    result = asyncio.run(controller.confirm(scenario.mode, TARGET))
    return result, controller, gateway


def saved(sam: Any, path: Path) -> dict[str, Any]:
    """The database as ``mdb.saveAs`` writes it."""
    sam.mdb.saveAs(str(path))
    return json.loads(Path(path).read_text())


def without_counters(document: dict[str, Any]) -> dict[str, Any]:
    """The saved database minus the host's next-label counters (no API reads or sets them)."""
    copy = json.loads(json.dumps(document))
    for model in copy["models"]:
        for part in model["parts"]:
            part.pop("nextNodeLabel")
            part.pop("nextElementLabel")
    return copy


def tree(document: dict[str, Any]) -> dict[str, Any]:
    """What the model tree shows: models, parts, materials, sections, profiles, sets."""
    return {m["name"]: {"parts": [p["name"] for p in m["parts"]],
                        "sets": {p["name"]: [s["name"] for s in p["sets"]] for p in m["parts"]},
                        "materials": [x["name"] for x in m["materials"]],
                        "sections": [x["name"] for x in m["sections"]],
                        "profiles": [x["name"] for x in m["profiles"]]}
            for m in document["models"]}


# -- workspaces -------------------------------------------------------------------------------


def plate(sam: Any, n: int = 2, *, beams: bool = False, doubled: bool = False,
          properties: bool = False) -> None:
    """An n x n QUAD plate (unit cells) in Plate; optionally an edge of BEAMs, a coincident
    second copy (for repair), and Steel with a shell and a beam section."""
    from samConstants import BEAM

    model = sam.mdb.models["Model-1"]
    part = model.Part(name="Plate")
    for copy in range(2 if doubled else 1):
        nodes = quad_grid(part, n, n)
        if beams and copy == 0:
            edge = [part.Element(nodes=(nodes[i], nodes[i + 1]), elemShape=BEAM)
                    for i in range(n)]
            part.Set(name="Edge", elements=edge)
    part.Set(name="Corner", nodes=part.nodes[:1])
    if properties:
        model.Material(name="Steel").Elastic(table=((210000.0, 0.3),))
        model.HomogeneousShellSection(name="Skin", material="Steel", thickness=2.0)
        model.RectangularProfile(name="Bar", a=10.0, b=5.0)
        model.BeamSection(name="Rail", material="Steel", profile="Bar")
