"""The drift fingerprint sees what a spec may rely on beyond geometry (invariant I3)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from sam_plugin.runtime.observe.observation import target_fingerprint
from sam_plugin.samops.readback import geometry_fingerprint, read_part
from tests.support.pipeline import fresh_database

fresh_sam = pytest.fixture(fresh_database)


def _plate(sam: Any) -> Any:
    from samConstants import QUAD

    model = sam.mdb.models["Model-1"]
    part = model.Part(name="Plate")
    n = [part.Node(coordinates=(float(x), float(y), 0.0)) for y in (0, 1) for x in (0, 1, 2)]
    part.Element(nodes=(n[0], n[1], n[4], n[3]), elemShape=QUAD)
    part.Element(nodes=(n[1], n[2], n[5], n[4]), elemShape=QUAD)
    part.Set(name="LEFT", elements=part.elements.sequenceFromLabels([1]))
    model.Material(name="Steel").Elastic(table=((210000.0, 0.3),))
    model.HomogeneousShellSection(name="Shell", material="Steel", thickness=2.0)
    part.SectionAssignment(region=part.sets["LEFT"], sectionName="Shell")
    return model


def _refill_set(model: Any) -> None:
    part = model.parts["Plate"]
    part.Set(name="LEFT", elements=part.elements.sequenceFromLabels([2]))


def _stiffer(model: Any) -> None:
    model.materials["Steel"].Elastic(table=((200000.0, 0.3),))


def _thicker(model: Any) -> None:
    model.HomogeneousShellSection(name="Shell", material="Steel", thickness=3.0)


@pytest.mark.parametrize("change", [_refill_set, _stiffer, _thicker])
def test_changes_the_geometry_hash_cannot_see_change_the_target_fingerprint(
    fresh_sam: Any, change: Callable[[Any], None]
) -> None:
    model = _plate(fresh_sam)
    part = model.parts["Plate"]
    before, geometry = read_part(model, "Plate"), geometry_fingerprint(part)
    change(model)
    after = read_part(model, "Plate")
    assert geometry_fingerprint(part) == geometry  # the geometry is the same...
    assert target_fingerprint(after) != target_fingerprint(before)  # ...the target is not


def test_reading_twice_gives_the_same_target_fingerprint(fresh_sam: Any) -> None:
    model = _plate(fresh_sam)
    assert target_fingerprint(read_part(model, "Plate")) == target_fingerprint(
        read_part(model, "Plate")
    )


def test_the_design_prompt_lists_are_bounded_and_count_what_they_leave_out(
    fresh_sam: Any,
) -> None:
    import json

    from sam_plugin.compilers.protocol import Target
    from sam_plugin.runtime.host_gateway import HostGateway
    from sam_plugin.runtime.observe.observation import PROMPT_LIST_LIMIT, observe

    model = _plate(fresh_sam)
    part = model.parts["Plate"]
    for i in range(300):
        part.Set(name=f"S{i:03d}", elements=part.elements.sequenceFromLabels([1]))
        model.Part(name=f"P{i:03d}")
    target = Target(model_name="Model-1", part_name="Plate")
    observation = observe(HostGateway(fresh_sam), "part", target)
    prompt = json.loads(observation.prompt_json())
    listed = prompt["index"]["models"][0]
    assert "Plate" in listed["parts"] and len(listed["parts"]) == PROMPT_LIST_LIMIT
    assert listed["parts_not_listed"] == 301 - PROMPT_LIST_LIMIT
    assert len(prompt["part"]["sets"]) == PROMPT_LIST_LIMIT
    assert prompt["part"]["sets_not_listed"] == 301 - PROMPT_LIST_LIMIT
    assert len(observation.prompt_json()) < 8_000
    assert len(observation.index.models[0].parts) == 301  # the observation itself keeps all
