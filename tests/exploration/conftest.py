"""Exploration against the loopback fake provider: a small plate and a runner."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from sam_plugin.runtime.config.settings import ProviderSettings
from sam_plugin.runtime.event_types import RunEvent
from sam_plugin.runtime.observe.exploration import ExplorationResult, explore
from sam_plugin.runtime.provider.client import ChatProvider
from sam_plugin.samops.readback import geometry_fingerprint

REQUEST = "refine the elements near the right edge at x = 30"
SUMMARY = {"part": {"node_count": 12, "element_count": 6}}


@pytest.fixture
def plate() -> Any:
    """A 4 x 3 node plate (spacing 10): nodes 1..12, QUAD elements 1..6, sets EDGE and RIGHT."""
    from sam.database import Mdb
    from samConstants import QUAD

    part = Mdb().models["Model-1"].Part("Plate")
    nodes = [part.Node(coordinates=(i * 10.0, j * 10.0, 0.0)) for j in range(3) for i in range(4)]
    for j in range(2):
        for i in range(3):
            a = j * 4 + i
            part.Element(nodes=(nodes[a], nodes[a + 1], nodes[a + 5], nodes[a + 4]),
                         elemShape=QUAD)
    part.Set("EDGE", nodes=[nodes[0], nodes[4], nodes[8]])
    part.Set("RIGHT", elements=part.elements.sequenceFromLabels([3, 6]))
    return part


class Recorder:
    def __init__(self) -> None:
        self.events: list[tuple[str, dict[str, Any]]] = []

    def __call__(self, event: RunEvent) -> None:
        self.events.append((event.name, event.data()))

    def names(self) -> list[str]:
        return [name for name, _ in self.events]


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def run_explore(provider_settings: ProviderSettings, plate: Any,
                recorder: Recorder) -> Callable[..., ExplorationResult]:
    """``run_explore(**overrides)``: one exploration of ``plate`` through the real provider."""

    def run(**overrides: Any) -> ExplorationResult:
        async def go() -> ExplorationResult:
            provider = ChatProvider(provider_settings)
            try:
                options: dict[str, Any] = {
                    "request": REQUEST,
                    "observation_summary": SUMMARY,
                    "part": plate,
                    "fingerprint_fn": lambda: geometry_fingerprint(plate),
                    "listener": recorder,
                }
                options.update(overrides)
                return await explore(provider, **options)
            finally:
                await provider.aclose()

        return asyncio.run(go())

    return run
