"""What a Part plan says beside its operations (compilers/part/plan_findings.py and
transform_reach.py): the elements a node deletion takes, the free nodes a deletion leaves
(also a check after the run), elements a move collapses, and coordinates a scale carries
beyond what a coordinate may hold (refused at compile)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from controller_fakes import TARGET, ScriptedProvider, design, policy, settings

from sam_plugin.runtime.host_gateway import HostGateway
from sam_plugin.runtime.run.controller import RunController
from tests.support.pipeline import fresh_database
from tests.support.plates import quad_plate
from tests.support.specs import answer, labels, step

fresh_sam = pytest.fixture(fresh_database)


@pytest.fixture
def plate(fresh_sam: Any) -> Any:
    """A 2 x 2 plate: nodes 1-9 row by row from (0, 0, 0), elements 1-4."""
    return quad_plate(fresh_sam.mdb.models["Model-1"], "Plate", 2)


def planned(sam: Any, tmp_path: Path, request: str, *steps: dict[str, Any]) -> RunController:
    # the same answer again where the design's repair before Review asks once more
    provider = ScriptedProvider(design(answer(*steps)), design(answer(*steps)))
    controller = RunController(runs_dir=tmp_path / "runs", settings=settings(),
                               policy=policy(calls="spec", plan_wait="always"),
                               host=HostGateway(sam), provider_factory=provider.factory)
    asyncio.run(controller.submit(request, "part", TARGET))
    asyncio.run(controller.confirm("part", TARGET))
    return controller


def test_a_node_deletion_names_the_elements_that_go_with_it(fresh_sam, plate, tmp_path):
    controller = planned(fresh_sam, tmp_path, "Delete node 4.",
                         step("delete_nodes", labels(4)))
    assert controller.plan is not None
    assert controller.plan.destructive == [
        "call 1 edit_part: delete nodes labels [4] (and the elements using them): 1 node [4], "
        "2 elements [1, 3]"]


def test_a_deletion_that_leaves_free_nodes_says_so_and_the_checks_read_them(
        fresh_sam, plate, tmp_path):
    controller = planned(fresh_sam, tmp_path, "Delete elements 1 to 2.",
                         step("delete_elements", labels(1, 2)))
    assert controller.plan is not None
    assert "   - leaves nodes with no element (free nodes): 3 nodes [1-3]" in \
        controller.plan.text().splitlines()
    asyncio.run(controller.execute("part", TARGET))
    result = controller.result
    assert result is not None and result.status == "verified"
    (check,) = [c for c in result.checks if c.name == "free nodes the run leaves"]
    assert (check.expected, check.actual, check.ok) == ("3", "3", True)


def test_a_deletion_that_leaves_no_free_node_says_nothing_of_them(fresh_sam, plate, tmp_path):
    controller = planned(fresh_sam, tmp_path, "Delete node 4.",
                         step("delete_nodes", labels(4)))
    assert controller.plan is not None
    text = controller.plan.text()
    assert "free nodes): 2 nodes [1, 7]" in text  # the corners only its elements used
    controller = planned(fresh_sam, tmp_path, "Move node 5 by 0.1 along X.",
                         step("move_nodes", labels=[5], to=[[1.1, 1, 0]]))
    assert controller.plan is not None and "free nodes" not in controller.plan.text()


def test_moving_a_node_onto_its_neighbour_is_a_plan_warning(fresh_sam, plate, tmp_path):
    controller = planned(fresh_sam, tmp_path, "Move node 5 to (1, 0, 0).",
                         step("move_nodes", labels=[5], to=[[1, 0, 0]]))
    assert controller.plan is not None and controller.plan.warnings == [
        "the plan leaves 2 elements (1, 2) degenerate: nodes 2 and 5 meet at (1, 0, 0), so an "
        "element has two corners at one point"]


def test_a_scale_whose_coordinates_overflow_is_refused_at_compile(fresh_sam, plate, tmp_path):
    scales = [step("scale", {"by": "all"}, factor=1e6, origin=[0, 0, 0]) for _ in range(2)]
    controller = planned(fresh_sam, tmp_path, "Scale the part by 1000000 about (0, 0, 0), "
                         "twice.", *scales)
    assert controller.plan is None
    result = controller.result
    assert result is not None and result.error is not None
    assert result.error.message == (
        "step 2 (scale all nodes by 1000000 about (0, 0, 0)): operations[1]: this scale "
        "carries coordinates to 2e+12, beyond the ±1e+09 a coordinate may hold; nothing runs "
        "(use a smaller factor or vector)")
    assert "\n" not in result.error.message


def test_free_nodes_the_plan_said_but_the_part_uses_fail_their_check(fresh_sam, plate,
                                                                     tmp_path):
    from sam_plugin.compilers.evidence import Prediction
    from sam_plugin.compilers.plan import PlanDetail
    from sam_plugin.runtime.verify.verifier import verify

    readback = HostGateway(fresh_sam).readback(TARGET)
    checks = verify(Prediction.from_readback(readback), readback, readback, tmp_path,
                    PlanDetail(calls=[], free_nodes=[1, 2, 3]), live_part=plate)
    (check,) = [c for c in checks if c.name == "free nodes the run leaves"]
    assert (check.expected, check.actual, check.ok) == ("3", "0", False)
