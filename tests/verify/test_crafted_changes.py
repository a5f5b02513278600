"""A faulty host that makes a change crafted against the fingerprint's combination, on an
entity the plan does not touch, after the script ran: verification fails, through the whole
controller, in Part, Property and Mesh mode (I16; docs/architecture.md §5).

The changes are the reviewer's (``tests/support/collisions.py``): an element's connectivity
(a, b, c, d) -> (a + 3, b - 1, c, d); a node moved +11 in x with the bits of y and z nudged
by less than 1e-3 so that a weighted sum of its fields stays equal; the same with z made
NaN. Each verified, and was kept, when the fingerprint was that sum.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sam_plugin.compilers.protocol import Target
from sam_plugin.runtime.host_gateway import HostGateway
from tests.support.collisions import bits, compensated, shifted_connectivity, value_of
from tests.support.pipeline import fresh_database
from tests.support.scripted import TARGET, controller, plate, submitted
from tests.support.specs import answer, labels, step

fresh_sam = pytest.fixture(fresh_database)
NAN = value_of(0x7FF8000000000123)
Tamper = Callable[[Any], str]


def _element_shifted(part: Any, positions: tuple[int, int] = (0, 1)) -> str:
    from sam.mesh import repoint_element

    element = part.elements.getFromLabel(1)
    before = element.connectivity
    repoint_element(element, shifted_connectivity(before, *positions))
    return f"element 1 {before} -> {element.connectivity}"


def _element_shifted_inside(part: Any) -> str:
    """(a, b, c, d) -> (a, b + 5, c - 3, d): no edge then runs through another node, so the
    hanging-node count of a refinement stays as planned (only the fingerprint can tell)."""
    return _element_shifted(part, (1, 2))


def _node_nudged(part: Any) -> str:
    from sam.mesh import move_node

    node = part.nodes.getFromLabel(7)
    was = node.coordinates
    move_node(node, compensated(was, 0, was[0] + 11.0))
    return f"node 7 {was} -> {node.coordinates}"


def _node_nan(part: Any) -> str:
    from sam.mesh import move_node

    node = part.nodes.getFromLabel(7)
    was = node.coordinates
    move_node(node, compensated(was, 2, NAN))
    return f"node 7 {was} -> {node.coordinates}"


TAMPERS: dict[str, Tamper] = {"connectivity": _element_shifted, "node +11 in x": _node_nudged,
                              "node z NaN": _node_nan}


class TamperingGateway(HostGateway):
    """The stub host; after a script that passed, ``tamper`` changes the part once."""

    def __init__(self, sam: Any, tamper: Tamper) -> None:
        super().__init__(sam)
        self.tamper = tamper
        self.did = ""

    def execute(self, script: str, target: Target, output_dir: Path) -> Any:
        receipt = super().execute(script, target, output_dir)
        if receipt.status == "PASS" and not self.did:
            self.did = self.tamper(self.part(target))
        return receipt


def _case(mode: str, n: int) -> tuple[str, str, str, dict[str, Any]]:
    """(request, spec, tool, arguments) of a run that leaves element 1 and node 7 alone."""
    last = (n + 1) ** 2
    if mode == "part":
        to = [float(n), n + 0.5, 0.0]
        return (f"move the last node {last} to ({n}, {n + 0.5}, 0)",
                answer(step("move_nodes", labels=[last], to=to)),
                "edit_part", {"move_nodes": [{"label": last, "coordinates": to}]})
    if mode == "property":
        return (f"assign Skin to the last element, {n * n}",
                answer(step("assign_section", labels(n * n), mode="property", section="Skin")),
                "assign_property", {"assignments": [
                    {"section": "Skin", "selection": {"by": "labels", "labels": [n * n]}}]})
    return (f"refine the last element, {n * n}, once",
            answer(step("refine", labels(n * n), mode="mesh", levels=1)),
            "refine_mesh", {"selection": {"by": "labels", "labels": [n * n]}, "levels": 1})


def _run(sam: Any, tmp_path: Path, mode: str, n: int, tamper: Tamper) -> tuple[Any, str]:
    if mode == "mesh" and tamper is _element_shifted:
        tamper = _element_shifted_inside
    plate(sam, n)
    request, spec, tool, arguments = _case(mode, n)
    gateway = TamperingGateway(sam, tamper)
    controller = submitted(sam, tmp_path, mode, request, spec, tool, arguments, gateway)
    result = asyncio.run(controller.confirm(mode, TARGET))
    assert gateway.did, "the host was not given the chance to tamper"
    return result, gateway.did


def _assert_caught(result: Any, did: str, tamper: str) -> None:
    assert result.status == "failed", f"{did}: {result.status}"
    assert result.error.layer == "verification", (did, result.error)
    message = result.error.message
    if tamper == "node z NaN":
        assert "node 7: z = nan" in message, message
    else:
        assert "changed" in message, message


@pytest.mark.parametrize("tamper", TAMPERS)
@pytest.mark.parametrize("mode", ["part", "property", "mesh"])
def test_a_crafted_change_on_a_4x4_grid_fails_verification(fresh_sam: Any, tmp_path: Path,
                                                           mode: str, tamper: str) -> None:
    result, did = _run(fresh_sam, tmp_path, mode, 4, TAMPERS[tamper])
    _assert_caught(result, did, tamper)


@pytest.mark.parametrize("tamper", ["connectivity", "node +11 in x"])
@pytest.mark.parametrize("mode", ["part", "property"])
def test_a_crafted_change_on_a_250x250_grid_fails_verification(
        fresh_sam: Any, tmp_path: Path, mode: str, tamper: str) -> None:
    result, did = _run(fresh_sam, tmp_path, mode, 249, TAMPERS[tamper])
    _assert_caught(result, did, tamper)


def test_the_crafted_node_is_nudged_by_less_than_1e_3() -> None:
    """The change is the reviewer's: x +11, y and z moved only in their last bits."""
    was = (1.0, 1.0, 0.0)
    now = compensated(was, 0, 12.0)
    assert now[0] == 12.0 and abs(now[1] - 1.0) < 1e-3 and abs(now[2]) < 1e-3
    assert bits(now[1]) != bits(1.0)


def test_a_part_with_a_nan_before_the_run_is_refused_at_observation(fresh_sam: Any,
                                                                   tmp_path: Path) -> None:
    """Nothing can be planned on a part the fingerprint refuses: the run stops at observation
    and names the entity, before anything is designed or executed."""
    from sam.mesh import move_node

    plate(fresh_sam, 4)
    move_node(fresh_sam.mdb.models["Model-1"].parts["Plate"].nodes.getFromLabel(7),
              (1.0, 1.0, float("nan")))
    request, spec, tool, arguments = _case("part", 4)
    run = controller(fresh_sam, tmp_path, spec, tool, arguments)
    asyncio.run(run.submit(request, "part", TARGET))
    result = run.result
    assert result is not None and result.status == "failed"
    assert result.error.layer == "observation"
    assert result.error.message == ("could not read the workspace: non-finite value: "
                                    "node 7: z = nan")
