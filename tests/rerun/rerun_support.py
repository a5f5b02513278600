"""Rerun tests: plates side by side in one model, a verified source run written by the
controller from given calls (as the CLI's ``run`` would after the model answered), and a
gateway that fails one part's execution on purpose."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from sam_plugin.compilers.protocol import Target
from sam_plugin.runtime.config.policy import RunPolicy
from sam_plugin.runtime.config.settings import ProviderSettings
from sam_plugin.runtime.host_gateway import HostGateway
from sam_plugin.runtime.observe.observation import target_fingerprint
from sam_plugin.runtime.rerun.session import Approve, RerunSession, TargetPlan, rerun_controller
from sam_plugin.runtime.rerun.source import load_source
from sam_plugin.runtime.run.controller import RunController
from sam_plugin.runtime.store.run_store import RunResult
from tests.support import specs

MODEL = "Model-1"
DEFINE = {"materials": [{"name": "Steel", "youngs_modulus": 210000, "poisson_ratio": 0.3}],
          "sections": [{"name": "Skin", "kind": "shell", "material": "Steel", "thickness": 2}]}
ASSIGN_ALL = {"assignments": [{"section": "Skin", "selection": {"by": "all"}}]}
PROPERTY_SPEC = specs.answer(
    specs.step("define_material", mode="property", name="Steel", E=210000, nu=0.3),
    specs.step("define_section", mode="property", name="Skin", kind="shell", material="Steel",
               thickness=2),
    specs.step("assign_section", specs.ALL, mode="property", section="Skin"),
    summary="Define Steel and the shell section Skin, 2 thick; assign Skin to all elements.")
PROPERTY_REQUEST = "steel shell 2 thick on every element"


def target(part: str) -> Target:
    return Target(model_name=MODEL, part_name=part)


def plates(sam: Any, sizes: dict[str, int]) -> None:
    """One n x n unit-QUAD plate per name, each 10 further along X (labels from 1 on each)."""
    from tests.support.plates import plates as build

    build(sam.mdb.models[MODEL], sizes)


class NoProvider:
    """A provider factory that counts and refuses: no rerun may ever build one."""

    def __init__(self) -> None:
        self.asked = 0

    def __call__(self, settings: ProviderSettings) -> Any:
        self.asked += 1
        raise AssertionError("a provider was asked for")


def source_run(sam: Any, runs: Path, part: str, calls: Sequence[tuple[str, dict[str, Any]]],
               spec: str = PROPERTY_SPEC, request: str = PROPERTY_REQUEST,
               mode: str = "property") -> str:
    """A verified run on ``part`` (the source of the reruns): its run id."""
    controller = RunController(runs_dir=runs, settings=ProviderSettings(),
                               host=HostGateway(sam), provider_factory=NoProvider(),
                               policy=RunPolicy())
    asyncio.run(controller.plan_calls(request, mode, target(part), spec=spec, calls=calls,
                                      source="cli"))
    result = asyncio.run(controller.execute())
    assert result.status == "verified", result.error
    assert controller.run_id is not None
    return controller.run_id


def approve_all(seen: list[TargetPlan] | None = None) -> Approve:
    async def approve(waiting: TargetPlan) -> bool:
        if seen is not None:
            seen.append(waiting)
        return True

    return approve


def rerun(sam: Any, runs: Path, run_id: str, parts: Sequence[str], approve: Approve, *,
          host: HostGateway | None = None, stop_on_failure: bool = False) -> RerunSession:
    controller = rerun_controller(runs_dir=runs, host=host or HostGateway(sam),
                                  policy=RunPolicy())
    session = RerunSession(controller, load_source(runs, run_id), [target(p) for p in parts],
                           stop_on_failure=stop_on_failure)
    asyncio.run(session.run(approve))
    return session


def fingerprint(sam: Any, part: str) -> str:
    return target_fingerprint(HostGateway(sam).readback(target(part)))


def result_of(runs: Path, run_id: str | None) -> RunResult:
    assert run_id is not None
    return RunResult.model_validate_json((runs / run_id / "result.json").read_text())


class FailingOn(HostGateway):
    """The in-process gateway; while executing on part ``part`` the host's section
    assignment raises, after the script has begun to change the model."""

    def __init__(self, sam: Any, part: str):
        super().__init__(sam)
        self.part_name = part

    def execute(self, script: str, target: Target, output_dir: Path) -> Any:
        armed = target.part_name == self.part_name
        with self._failing() if armed else contextlib.nullcontext():
            return super().execute(script, target, output_dir)

    @contextlib.contextmanager
    def _failing(self) -> Iterator[None]:
        from sam.part import Part

        original = Part.__dict__["SectionAssignment"]

        def failing(part: Any, *args: Any, **kwargs: Any) -> Any:
            original(part, *args, **kwargs)  # the part is changed, then the host fails
            raise RuntimeError("the host failed in the middle of the assignment")

        Part.SectionAssignment = failing  # type: ignore[method-assign]
        try:
            yield
        finally:
            Part.SectionAssignment = original  # type: ignore[method-assign]
