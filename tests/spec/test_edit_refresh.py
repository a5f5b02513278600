"""An analyst's edit leaves no stale words of the model (``compilers/spec/edit_refresh.py``):
what the edit made untrue is dropped or said again, and said so; the analyst's own words
stay."""

from __future__ import annotations

from sam_plugin.compilers import registry
from sam_plugin.compilers.spec.edit_refresh import refreshed
from sam_plugin.compilers.spec.ir import Expected, Spec
from tests.support.specs import spec, step

PART = registry.get_module("part").vocabulary


def _plate(divisions: list[int], **changes: object) -> Spec:
    built = spec(step("build", shape="QUAD", size=[60, 100], divisions=divisions,
                      origin=[0, 0, 0], nodes=77, elements=60,
                      text="divided 6 along X and 10 along Y: 60 elements, 77 nodes"),
                 summary="A 60 x 100 plate meshed 6 x 10.")
    built = built.model_copy(update={"expected": Expected(nodes=77, elements=60,
                                                          shapes={"QUAD": 60})})
    return built.model_copy(update=changes) if changes else built


def test_an_edited_division_drops_the_counts_the_note_and_says_the_summary_again() -> None:
    fresh = refreshed(_plate([6, 10]), _plate([6, 12]), PART)
    step_ = fresh.spec.steps[0]
    assert "nodes" not in step_.values and "elements" not in step_.values
    assert step_.values["divisions"] == [6, 12]
    assert step_.text == ""
    assert fresh.spec.expected.empty
    assert fresh.spec.summary == ("build a mesh of QUAD elements, size 60 x 100, divided "
                                  "6 x 12, from (0, 0, 0)")
    assert fresh.dropped == (
        "step 1's counts (nodes, elements): the plan states them again",
        "step 1's note (it said 10, 77): dropped",
        "the expected counts (nodes, elements, shapes): the plan states them again",
        "the summary (it said 10): said again from the steps")


def test_the_same_in_chinese() -> None:
    fresh = refreshed(_plate([6, 10]), _plate([6, 12]), PART, "zh_CN")
    assert fresh.dropped == ("第 1 步的计数（nodes, elements）：由计划重新给出",
                             "第 1 步的说明（其中说 10, 77）：已删除",
                             "预期计数（nodes, elements, shapes）：由计划重新给出",
                             "摘要（其中说 10）：已按步骤重新表述")
    assert fresh.spec.summary == "建立网格（QUAD 单元），尺寸 60 x 100，划分 6 x 12，起点 (0, 0, 0)"


def test_the_analysts_own_words_and_counts_stay() -> None:
    edited = _plate([6, 12], summary="My 6 x 12 plate.",
                     expected=Expected(nodes=91, elements=72))
    steps = (edited.steps[0].model_copy(update={
        "text": "12 along Y", "values": {**edited.steps[0].values, "nodes": 91}}),)
    fresh = refreshed(_plate([6, 10]), edited.model_copy(update={"steps": steps}), PART)
    assert fresh.spec.summary == "My 6 x 12 plate."
    assert fresh.spec.expected.nodes == 91 and fresh.spec.expected.elements == 72
    assert fresh.spec.steps[0].text == "12 along Y"
    assert fresh.spec.steps[0].values["nodes"] == 91
    assert "elements" not in fresh.spec.steps[0].values  # the model's, left as it was


def test_an_edit_of_words_only_drops_nothing() -> None:
    fresh = refreshed(_plate([6, 10]), _plate([6, 10], summary="Plate."), PART)
    assert fresh.dropped == () and fresh.spec.expected.nodes == 77
