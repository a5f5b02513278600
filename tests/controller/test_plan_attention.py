"""The plan's warnings read from the request's words (runtime/run/plan_attention.py): each
table grows with every phrasing that was misread, in English and in Chinese."""

from __future__ import annotations

import asyncio
import json

import pytest
from controller_fakes import TARGET, ScriptedProvider, design, policy, settings

from sam_plugin.compilers.evidence import Prediction, Range, Readback
from sam_plugin.runtime.host_gateway import HostGateway
from sam_plugin.runtime.run.controller import RunController
from sam_plugin.runtime.run.plan_attention import attention_warnings, do_not_change, kept_sets
from tests.support.pipeline import fresh_database
from tests.support.plates import quad_plate
from tests.support.specs import answer, labels, step

fresh_sam = pytest.fixture(fresh_database)

# (request, the words quoted as saying "do not change")
DO_NOT_CHANGE = [
    ("Do not change anything.", "Do not change"),
    ("Don\u2019t change anything.", "Don't change"),
    ("Don't change anything.", "Don't change"),
    ("Leave it unchanged.", "Leave it unchanged"),
    ("Please leave the part as it is.", "leave the part as it is"),
    ("Keep everything intact, just report.", "Keep everything intact"),
    ("No changes, please.", "No changes"),
    ("Make no changes to the part.", "Make no changes"),
    ("Do not make any changes.", "Do not make any changes"),
    ("Don\u2019t make any modifications.", "Don't make any modifications"),
    ("Nothing should change.", "Nothing should change"),
    ("Check the mesh; read-only.", "read-only"),
    ("不要修改零件", "不要修改"),
    ("请勿修改", "请勿修改"),
    ("不得改动任何单元", "不得改动"),
    ("禁止修改", "禁止修改"),
    ("不要做任何改动", "不要做任何改动"),
    ("别动它", "别动"),
    ("保持原样", "保持原样"),
]


@pytest.mark.parametrize(("request_text", "quoted"), DO_NOT_CHANGE)
def test_do_not_change_is_read_in_its_common_forms(request_text, quoted):
    assert do_not_change(request_text) == quoted


CHANGES = [
    "Move node 3 by 5 along X and leave the rest unchanged.",
    "Delete element 2; no changes to the other elements.",
    "Change the tolerance to 0.01.",
    "Refine set S1 once.",
    "将单元 2 删除",
    "把节点 3 移动到 (1, 0, 0)",
]


@pytest.mark.parametrize("request_text", CHANGES)
def test_a_request_to_change_is_not_read_as_do_not_change(request_text):
    assert do_not_change(request_text) == ""


@pytest.mark.parametrize(("request_text", "names"), [
    ("Delete element 2 and keep set S1.", ["S1"]),
    ("Keep the element set Top, and keep set S1", ["Top", "S1"]),
    ("删除单元 2，保留集合 S1", ["S1"]),
    ("Keep it simple.", []),
])
def test_the_sets_a_request_keeps(request_text, names):
    assert kept_sets(request_text) == names


def test_a_kept_set_emptied_is_a_warning_beside_a_kept_set_removed():
    before = Readback(part_exists=True, node_count=9, element_count=4, sets=["S1", "S2"])
    after = Prediction(node_count=Range.exact(9), element_count=Range.exact(2),
                       shape_counts={}, sets_present=["S1"])
    assert attention_warnings("Delete elements 1-2, keep set S1 and keep set S2.", before,
                              after, False, empty_sets=["S1"]) == [
        "the request asks to keep set S1, and the plan leaves set S1 empty (it deletes every "
        "member of S1)",
        "the request asks to keep set S2, and the plan leaves no set S2"]


def test_a_typographic_apostrophe_stops_yes(fresh_sam, tmp_path):
    """Under --yes, "Don’t change anything" (U+2019) changed the part."""
    quad_plate(fresh_sam.mdb.models["Model-1"], "Plate", 2)
    # asked again for a report before Review, the model answers the same step
    provider = ScriptedProvider(design(answer(step("delete_elements", labels(2)))),
                                design(json.dumps(step("delete_elements", labels(2)))))
    controller = RunController(runs_dir=tmp_path / "runs", settings=settings(),
                               policy=policy(calls="spec", plan_wait="never"),
                               host=HostGateway(fresh_sam), provider_factory=provider.factory)
    asyncio.run(controller.submit("Don\u2019t change anything, element 2 is fine.", "part",
                                  TARGET))
    assert asyncio.run(controller.confirm("part", TARGET)) is None  # it waits for a person
    assert controller.plan is not None
    assert "the request says “Don't change”, and the plan changes the part" in \
        controller.plan.warnings


def test_a_kept_set_emptied_stops_yes(fresh_sam, tmp_path):
    """"Delete element 2 and keep set S1", with a spec deleting S1's elements, verified with
    S1 empty: the keep check fired only when the set disappeared."""
    part = quad_plate(fresh_sam.mdb.models["Model-1"], "Plate", 2)
    part.Set(name="S1", elements=part.elements.sequenceFromLabels([1, 2]))
    provider = ScriptedProvider(design(answer(step("delete_elements", labels(1, 2)))))
    controller = RunController(runs_dir=tmp_path / "runs", settings=settings(),
                               policy=policy(calls="spec", plan_wait="never"),
                               host=HostGateway(fresh_sam), provider_factory=provider.factory)
    asyncio.run(controller.submit("Delete elements 1 to 2 and keep set S1.", "part", TARGET))
    assert asyncio.run(controller.confirm("part", TARGET)) is None
    assert controller.plan is not None and controller.plan.warnings == [
        "the request asks to keep set S1, and the plan leaves set S1 empty (it deletes every "
        "member of S1)"]
    assert len(part.elements) == 4


def test_a_step_that_changes_what_the_request_says_not_to_is_warned_at_review(fresh_sam,
                                                                             tmp_path):
    """The 1.5B answered "Only report, don't assign anything" with an assign step: the plan
    warned, but Review, where the analyst reads the steps, said nothing. Asked again for a
    report before Review, a model that answers the same change is still warned about."""
    quad_plate(fresh_sam.mdb.models["Model-1"], "Plate", 2)
    provider = ScriptedProvider(design(answer(step("audit", checks=["counts"]),
                                              step("delete_elements", labels(2)))),
                                *[design(json.dumps(step("delete_elements", labels(2))))] * 2)
    controller = RunController(runs_dir=tmp_path / "runs", settings=settings(),
                               policy=policy(calls="spec"),
                               host=HostGateway(fresh_sam), provider_factory=provider.factory)
    asyncio.run(controller.submit("Only report how many elements there are.", "part", TARGET))
    assert controller.review_warnings[0] == (
        "the request says “Only report”, and step 1 (delete element 2) changes the part: "
        "confirm only if it should")


def test_a_read_only_spec_for_a_read_only_request_has_no_such_warning(fresh_sam, tmp_path):
    quad_plate(fresh_sam.mdb.models["Model-1"], "Plate", 2)
    provider = ScriptedProvider(design(answer(step("audit", checks=["counts"]))))
    controller = RunController(runs_dir=tmp_path / "runs", settings=settings(),
                               policy=policy(calls="spec"),
                               host=HostGateway(fresh_sam), provider_factory=provider.factory)
    asyncio.run(controller.submit("不要修改，只检查单元数量", "part", TARGET))
    assert controller.review_warnings == []


@pytest.mark.parametrize(("request_text", "words"), [
    ("How many TRI elements are there? Only count them.", "Only count"),
    ("Check the mesh for free nodes; don't change anything.", "don't change anything"),
    ("Audit the part read-only.", "read-only"),
    ("Which elements have no section? Do not assign anything.", "Do not assign anything"),
    ("看看有没有重复单元，什么都不要改。", "什么都不要改"),
    ("只检查自由节点", "只检查"),
])
def test_a_request_for_a_report_alone_is_read_by_its_words(request_text, words):
    from sam_plugin.runtime.run.plan_attention import only_reports

    assert only_reports(request_text) == words


@pytest.mark.parametrize("request_text", [
    "Delete element 2, but don't move anything else.",
    "Merge the duplicates and leave the rest unchanged.",
    "Move set S1 up by 5; do not touch set S2.",
    "删除 2 号单元，不要改其他的。",
])
def test_a_request_that_asks_for_a_change_too_is_no_report_alone(request_text):
    from sam_plugin.runtime.run.plan_attention import only_reports

    assert only_reports(request_text) == ""
