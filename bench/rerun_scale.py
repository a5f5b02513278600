"""A rerun's own cost: one verified assignment rerun on 20 parts, against 20 times one run of
the same calls without the rerun (docs/architecture.md §6 "rerun").

The offline SAM holds ``1 + 2 * PARTS`` plates of ``N`` x ``N`` QUADs. A verified Property run
(define Steel and the shell section Skin, assign Skin to all elements) on the first is the
source. The rerun side is ``RerunSession`` on ``PARTS`` more plates, every plan approved: per
part a fresh observation, the saved calls compiled, the plan, one execution, verification and
the undo snapshot. The single side is the same calls given to ``RunController.plan_calls`` and
executed, one plate at a time, on the other ``PARTS`` plates: no dock and no rerun around it
(half of them measured before the rerun, half after, so that both sides meet the same heap
and the same growing runs directory; each side timed as a block, the collector's work
included on both). No provider is called on either side: both controllers are built with a
provider factory that counts and refuses, and the bench asserts it was never asked. CPU
time, since the machine is shared.

Run: ``.venv/bin/python bench/rerun_scale.py`` (puts ``stubs/`` on ``sys.path`` itself).
The last line is ``ratio=<rerun on 20 parts / 20 single runs> goal<=1.3``.
"""

from __future__ import annotations

import asyncio
import gc
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "stubs"))
sys.path.insert(0, str(ROOT))

import sam  # noqa: E402
import sam.database  # noqa: E402

from sam_plugin.compilers.protocol import Target  # noqa: E402
from sam_plugin.runtime.config.policy import RunPolicy, UndoBudget  # noqa: E402
from sam_plugin.runtime.config.settings import ProviderSettings  # noqa: E402
from sam_plugin.runtime.host_gateway import HostGateway  # noqa: E402
from sam_plugin.runtime.rerun.session import RerunSession, TargetPlan  # noqa: E402
from sam_plugin.runtime.rerun.source import load_source  # noqa: E402
from sam_plugin.runtime.run.controller import RunController  # noqa: E402

SMOKE = os.environ.get("BENCH_SMOKE") == "1"  # CI: the smallest size, fewest repeats
N = 20 if SMOKE else 60  # cells per side of each plate
PARTS = 4 if SMOKE else 20
GOAL = 1.3
MODEL = "Model-1"
DEFINE = {"materials": [{"name": "Steel", "youngs_modulus": 210000, "poisson_ratio": 0.3}],
          "sections": [{"name": "Skin", "kind": "shell", "material": "Steel", "thickness": 2}]}
CALLS = [("define_property", DEFINE),
         ("assign_property", {"assignments": [{"section": "Skin", "selection": {"by": "all"}}]})]
SPEC = {"summary": "Define Steel and the shell section Skin, 2 thick; assign Skin to all.",
        "steps": [
            {"capability": "define", "action": "define_material",
             "values": {"name": "Steel", "E": 210000, "nu": 0.3}, "text": "Define Steel."},
            {"capability": "define", "action": "define_section",
             "values": {"name": "Skin", "kind": "shell", "material": "Steel", "thickness": 2},
             "text": "Define the shell section Skin of Steel, 2 thick."},
            {"capability": "assign", "action": "assign_section", "scope": {"by": "all"},
             "values": {"section": "Skin"}, "text": "Assign Skin to all elements."}]}
REQUEST = "steel shell 2 thick on every element"


class CountingProvider:
    """The provider factory of both sides: counts and refuses."""

    asked = 0

    def __call__(self, settings: ProviderSettings) -> Any:
        CountingProvider.asked += 1
        raise AssertionError("the bench asked a provider")


def plates(count: int) -> list[str]:
    from samConstants import QUAD

    sam.mdb = sam.database.Mdb()
    model = sam.mdb.models[MODEL]
    names = [f"Plate-{k}" for k in range(count)]
    for offset, name in enumerate(names):
        part = model.Part(name=name)
        nodes = [part.Node(coordinates=(2.0 * N * offset + i, float(j), 0.0))
                 for j in range(N + 1) for i in range(N + 1)]
        for j in range(N):
            for i in range(N):
                a = j * (N + 1) + i
                part.Element(nodes=(nodes[a], nodes[a + 1], nodes[a + N + 2], nodes[a + N + 1]),
                             elemShape=QUAD)
    return names


def controller(runs: Path) -> RunController:
    # every run keeps its undo snapshot, as the default budget would for the last few
    policy = RunPolicy(undo=UndoBudget(runs=2 * PARTS + 1, megabytes=4096))
    return RunController(runs_dir=runs, settings=ProviderSettings(), host=HostGateway(sam),
                         provider_factory=CountingProvider(), policy=policy,
                         provider_name="none")


def single(control: RunController, part: str) -> None:
    """One run of the calls on ``part``: plan_calls, then execute."""
    asyncio.run(control.plan_calls(REQUEST, "property", Target(model_name=MODEL, part_name=part),
                                   spec=SPEC, calls=CALLS, source="cli"))
    result = asyncio.run(control.execute())
    assert result.status == "verified", result.error


def singles(control: RunController, parts: list[str]) -> float:
    """One run after the other on ``parts`` (CPU seconds)."""
    gc.collect()
    started = time.process_time()
    for part in parts:
        single(control, part)
    return time.process_time() - started


async def approve(waiting: TargetPlan) -> bool:
    return True


def rerun(control: RunController, source_run: str, parts: list[str]) -> tuple[float, Any]:
    gc.collect()
    started = time.process_time()
    session = RerunSession(control, load_source(control.runs_dir, source_run),
                           [Target(model_name=MODEL, part_name=p) for p in parts])
    summary = asyncio.run(session.run(approve))
    return time.process_time() - started, summary


def main() -> None:
    names = plates(1 + 2 * PARTS)
    runs = Path(tempfile.mkdtemp(prefix="rerun-bench-"))
    control = controller(runs)
    single(control, names[0])  # the source run (and a warm-up of every code path)
    source_run = control.run_id
    assert source_run is not None
    targets, alone = names[1:1 + PARTS], names[1 + PARTS:]
    half = PARTS // 2
    one = singles(control, alone[:half])
    seconds, summary = rerun(control, source_run, targets)
    one += singles(control, alone[half:])
    assert summary.all_verified, summary.headline()
    assert CountingProvider.asked == 0, "a provider was asked for"
    for target in summary.targets:
        assert target.run_id is not None
        result = (runs / target.run_id / "result.json").read_text()
        assert '"calls": 0' in result, f"run {target.run_id} called a provider"
    print(f"plates: {(N + 1) ** 2} nodes, {N * N} QUADs each; calls: define_property, "
          "assign_property (all elements)")
    print(f"{summary.headline()}; provider asked: {CountingProvider.asked} time(s)")
    print(f"rerun on {PARTS} parts: {seconds:.2f} s CPU ({seconds / PARTS:.3f} s a part)")
    print(f"{PARTS} single runs of the same calls: {one:.2f} s CPU ({one / PARTS:.3f} s a run)")
    print(f"ratio={seconds / one:.2f} goal<={GOAL:g}")


if __name__ == "__main__":
    main()
