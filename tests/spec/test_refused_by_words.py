"""The request's own words refuse what the mode does not do, by category, and never an edit
(docs/architecture.md §4 "The design, asked in parts"): measured over both suites with no
model, and tried against edits that mention the same words innocently, in both languages."""

from __future__ import annotations

from pathlib import Path

import pytest

from sam_plugin.compilers.spec.out_of_mode import (
    asked_out_of_mode,
    refused_by_words,
    words_refusal,
)
from sam_plugin.evaluation.words_signal import count, main

ROOT = Path(__file__).resolve().parents[2]
SUITES = [ROOT / "eval" / "suite", ROOT / "eval" / "suite-words"]


@pytest.mark.parametrize("suite", SUITES, ids=lambda p: p.name)
def test_no_edit_task_of_either_suite_is_refused_by_its_words(suite):
    counts = count(suite)
    assert counts.edits >= 34
    assert counts.false_refusals == [], "edit tasks refused: " + "; ".join(
        counts.false_refusals)


@pytest.mark.parametrize("suite", SUITES, ids=lambda p: p.name)
def test_every_refusal_task_of_either_suite_is_refused_by_its_category(suite):
    counts = count(suite)
    assert counts.refusals >= 6
    assert counts.other_category == [] and counts.missed == [], (
        counts.other_category, counts.missed)


def test_the_counts_are_printed_per_suite(capsys):
    assert main([str(p) for p in SUITES]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith("eval/suite: refusals caught by their category 6/6 (another "
                           "category 0, missed 0); edits wrongly refused 0/41")
    assert out[1].endswith("eval/suite-words: refusals caught by their category 18/18 "
                           "(another category 0, missed 0); edits wrongly refused 0/97")


# edits that mention what another mode does, in passing: never refused
@pytest.mark.parametrize(("mode", "request_text"), [
    ("part", "fix the duplicate nodes"),
    ("part", "Fix the bottom edge: its nodes are doubled, merge them."),
    ("part", "Fix the gaps along the bottom edge."),
    ("part", "Load the part and translate it by 10 in X."),
    ("part", "Cut a section of the plate out: delete the elements between x = 0 and 10."),
    ("part", "Remove the excess material at the corner."),
    ("part", "A 100 x 50 plate, 2 mm thick, at the origin, 10 x 5 quads."),
    ("part", "Build a 2 mm thick plate, 100 by 50."),
    ("part", "Move the nodes along the support line up by 1."),
    ("part", "Mesh a 90 by 30 strip with triangles."),
    ("part", "A 40 x 20 tri mesh plate at the origin, 4 x 2 cells."),
    ("part", "Copy the plate to the right so that the edges are in contact."),
    ("part", "Select the section of the plate between x = 0 and x = 10 and delete it."),
    ("part", "Clean up the free nodes; this plate supports a bracket."),
    ("part", "Make the part twice as big; it is important that it stays centred."),
    ("part", "Put a copy of the loaded plate 100 above it."),
    ("part", "Shift the part 150 mm along Y, out of the force path."),
    ("mesh", "Refine the elements near the clamped edge."),
    ("mesh", "Refine where the load is applied, one level."),
    ("mesh", "Check the mesh near the fixed end; change nothing."),
    ("mesh", "The loaded edge needs finer elements."),
    ("mesh", "Is the section of the mesh around the hole OK? Just check."),
    ("mesh", "Refine the lower-left quarter of the plate twice, don't move any nodes."),
    ("property", "Give the pressure-side elements the section THICK."),
    ("property", "Assign SHELL_2 to the elements along the fixed edge."),
    ("property", "Define steel with density 7850 kg/m3 and Young's modulus 210 GPa."),
    ("property", "Which elements have no section yet? Report, don't move anything."),
    ("part", "A 100x50 plate, element type QUAD, 10 x 5."),
    ("part", "Group the elements along the clamped edge into a set CLAMP."),
    ("part", "Build a 200 x 100 plate in XY with 20 x 10 quads; it will carry a pressure later."),
    ("part", "Delete the elements that lie outside the box; I will export later."),
    ("mesh", "Add one level of refinement to the elements in set A."),
    ("mesh", "Check the mesh quality; the job failed on distorted elements."),
    ("property", "Add a shell section SH to the elements of set A."),
    ("property", "Make a steel material, E 210 GPa, for the loaded plate."),
    ("part", "建一块 100 × 50 的板，之后要施加压力。"),
    ("part", "把零件整体沿 Z 平移 10，避开接触面。"),
    ("mesh", "把接触区域加密一级。"),
    ("part", "把重合节点合并，修复一下。"),
    ("part", "删掉角上多余的材料。"),
    ("part", "建一块 2 毫米厚的板，100 × 50。"),
    ("part", "把板沿 X 方向复制一份，边缘接触。"),
    ("part", "检查一下这个零件，支座那一侧有没有重复单元。"),
    ("mesh", "把固定端附近的单元细化一级。"),
    ("mesh", "加载的那条边附近加密网格。"),
    ("mesh", "检查一下受力最大的地方网格质量，不要修改。"),
    ("property", "给受压一侧的单元赋截面 THICK。"),
    ("property", "把截面 S1 赋给固定边上的单元。"),
    ("mesh", "Raise the mesh density 2 times around the hole."),
    ("mesh", "Refine to an element density of 4 per side."),
    ("mesh", "网格密度加密 2 倍。"),
])
def test_an_edit_that_mentions_another_modes_words_is_not_refused(mode, request_text):
    assert refused_by_words(request_text, mode) is None


# what the mode does not do, in words of no suite: refused by its category
@pytest.mark.parametrize(("mode", "request_text", "category"), [
    ("part", "Apply gravity to the whole part.", "load"),
    ("part", "Tie the two plates together along the seam.", "contact"),
    ("mesh", "Run the analysis and show me the von Mises stresses.", "job"),
    ("property", "Create a frequency step with 10 modes.", "analysis_step"),
    ("part", "Clamp both ends of the beam.", "boundary_condition"),
    ("mesh", "Set the global seed to 5 and mesh it again.", "mesh_generation"),
    ("mesh", "Define a steel material, Young's modulus 210 GPa.", "material"),
    ("part", "Give all elements a beam section with a pipe profile.", "section"),
    ("property", "Rotate the part 30 degrees about the Z axis.", "geometry"),
    ("part", "Save the model as Bracket_v3.", "other"),
    ("property", "Add 2 free nodes at (0, 0, 5) and (5, 0, 5).", "geometry"),
    ("mesh", "Change the element type to S4R.", "mesh_generation"),
    ("part", "Assign aluminium to the part.", "material"),
    ("mesh", "把单元类型改成 S4R。", "mesh_generation"),
    ("part", "把左边固定。", "boundary_condition"),
    ("part", "给板施加 5 MPa 的压力。", "load"),
    ("mesh", "把截面 S1 赋给所有单元。", "section"),
    ("mesh", "把模型导出成 inp 文件。", "other"),
    ("property", "把顶部的节点向上移动 5。", "geometry"),
    ("part", "两块板之间定义摩擦接触，摩擦系数 0.3。", "contact"),
    ("part", "Make the density 7.8e-9 for this part.", "material"),  # a density, no unit
    ("part", "板的密度改成 2.7e-9。", "material"),
])
def test_what_the_mode_does_not_do_is_refused_by_its_category(mode, request_text, category):
    asked = refused_by_words(request_text, mode)
    assert asked is not None and asked.category == category


def test_a_request_that_also_names_what_the_mode_does_is_planned_not_refused():
    mixed = "Refine the mesh one level, then apply a pressure of 5 MPa on the top."
    assert [a.category for a in asked_out_of_mode(mixed, "mesh")] == ["load"]
    assert refused_by_words(mixed, "mesh") is None


def test_the_first_category_the_request_says_is_the_one_refused():
    asked = refused_by_words("Apply a pressure load of 5 MPa on the top edge and clamp the "
                             "bottom edge.", "part")
    assert asked is not None and (asked.category, asked.words) == ("load", "Apply a pressure")


def test_words_in_the_modes_own_business_are_not_asked_out_of_it():
    assert asked_out_of_mode("Define a steel material and a 3 mm shell section.",
                             "property") == []
    assert asked_out_of_mode("Rotate the part 90 degrees about Z.", "part") == []


def test_the_refusal_quotes_the_words_and_names_the_mode_that_does_it():
    asked = refused_by_words("Put 2 MPa of pressure on the top face.", "part")
    assert asked is not None
    assert words_refusal(asked, "part") == (
        "the request says “Put 2 MPa of pressure”: this asks for a load, which the Part "
        "mode does not do; the Load mode does that: pick it and submit again. Nothing was "
        "run.")
    zh = refused_by_words("在梁的自由端加一个 500 N 的集中力。", "property")
    assert zh is not None
    assert words_refusal(zh, "property", "zh") == (
        "请求中的“集中力”：这个请求要求载荷，Property 模式不做这件事；请在 Load 模式中完成。"
        "未执行任何操作。")


# Load mode: what it does is named by the categories it owns, and by its own words
@pytest.mark.parametrize("request_text", [
    "Add a pressure on the elements.",
    "Apply a pressure of 2 MPa on the top row of elements.",
    "Move the nodes of the right edge by 0.5 in X in a new step.",
    "Create a static step called Push, then put 1 MPa on all elements.",
    "Fix the nodes of the left edge.",
    "在顶部单元上加 2 MPa 压力",
    "把右边节点在新分析步里沿 X 移动 0.5",
])
def test_a_load_mode_request_is_never_refused_by_its_words(request_text):
    assert refused_by_words(request_text, "load") is None


def test_the_load_mode_refuses_a_change_of_geometry_by_its_words():
    asked = refused_by_words("Delete the top elements", "load")
    assert asked is not None and asked.category == "geometry"
