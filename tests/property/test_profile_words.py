"""The beam profile a request's words name, and the shell section they contradict
(docs/architecture.md §4 "One repair before Review"): read in English and Chinese from
phrasings that are not the suites', kept from words a shell request uses too, and measured
over both suites' Property tasks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sam_plugin.compilers.property.module import MODULE
from sam_plugin.compilers.property.profile_contradiction import request_contradictions
from sam_plugin.compilers.property.profile_reading import named_profile, names_a_shell
from sam_plugin.compilers.spec.reading import spec_from_json
from sam_plugin.evaluation.checks import BeamSection, ShellSection
from sam_plugin.evaluation.task import load_suite
from tests.support.specs import document, step

ROOT = Path(__file__).resolve().parents[2]
SUITES = [ROOT / "eval" / "suite", ROOT / "eval" / "suite-words"]


@pytest.mark.parametrize(("request_text", "shape", "words"), [
    ("Create a round rod section R10 of steel with a 20 mm diameter.", "circle",
     ("round rod",)),
    ("Solid circular section of Alu, radius 8, call it C8.", "circle", ("Solid circular",)),
    ("make SEC1 a 25 dia round bar", "circle", ("round bar",)),
    ("I need a circular cross-section for the struts, r = 4.", "circle",
     ("circular cross-section",)),
    ("Beam section Q of Steel with a diameter of 16.", "circle", ("Beam section", "diameter")),
    ("Hollow circular section HC, outside diameter 48, 3 thick.", "pipe",
     ("Hollow circular", "outside diameter")),
    ("Use a 60 x 4 steel tube for the braces.", "pipe", ("tube",)),
    ("A rectangular bar 10 by 30, call it RB.", "rectangle", ("rectangular bar",)),
    ("flat bar 50x6 on the stiffeners", "rectangle", ("flat bar",)),
    ("A square section of 20 mm for the posts.", "rectangle", ("square section",)),
    ("an I-beam section 300 deep, 150 wide", "I", ("I-beam",)),
    ("H-section columns of S355", "I", ("H-section",)),
    ("a wide-flange profile W1 of Steel", "I", ("wide-flange",)),
    ("A beam section BX of Steel, 20 wide and 40 high.", None, ("beam section",)),
    ("定义一根直径 16 的圆钢截面 R16。", "circle", ("圆钢",)),
    ("截面为圆形，半径 5，材料 Steel。", "circle", ("截面为圆形",)),
    ("用外径 60 的钢管做斜撑。", "pipe", ("外径", "钢管")),
    ("圆钢管 P1，材料 Q235。", "pipe", ("钢管",)),
    ("空心圆截面 HC", "pipe", ("空心圆",)),
    ("工字钢截面 I20，材料 Q235。", "I", ("工字",)),
    ("方钢 20×20，叫 SQ20。", "rectangle", ("方钢",)),
    ("给立柱定义一个长方形截面，宽 30 高 60。", "rectangle", ("长方形截面",)),
])
def test_the_words_that_name_a_beam_profile_and_its_shape(request_text, shape, words):
    found = named_profile(request_text)
    assert found is not None
    assert (found.shape, found.words) == (shape, words)


@pytest.mark.parametrize("request_text", [
    "shell section T3 of Steel, t = 3",
    "Give the plate a 2.5 mm thick shell of Aluminium.",
    "Put the existing section ROD on every beam.",  # a name, not a rod
    "Define PIPE_1 with thickness 3 for the quads.",
    "Set the beams' orientation n1 along Z.",
    "Assign the beam section orientation n1 = (0, 0, 1) to all beams.",
    "A 2 mm section for the disc of diameter 200.",  # a disc's diameter
    "Fix the diameter of the hole: it should be 10.",
    "The skin takes 2 bar at most; give it the section S2.",  # a pressure, not a bar
    "A rectangular plate region gets section S4.",
    "Check which elements have no section.",
    "在矩形板上定义 2 毫米的截面 S2。",
    "把所有梁单元的截面方向 n1 设成沿 Y 轴正方向。",
    "把截面 THIN 赋给集合 EDGE 里的单元。",
    "定义一个椭圆截面 E1。",
])
def test_words_a_shell_request_uses_too_name_no_beam_profile(request_text):
    assert named_profile(request_text) is None


@pytest.mark.parametrize(("request_text", "shell"), [
    ("A 6 mm shell SH6 for the quads and a round bar for the beams.", True),
    ("Give the plate a round bar stiffener.", True),
    ("蒙皮用 2 毫米，梁用圆钢。", True),
    ("A solid round bar ROD of Steel, 12 mm across.", False),
])
def test_a_request_that_names_a_shell_is_said_so(request_text, shell):
    assert names_a_shell(request_text) is shell


def spec_of(*steps: dict[str, Any]) -> Any:
    return spec_from_json(document(*steps), MODULE.vocabulary)


def shell(name: str, thickness: float = 12) -> dict[str, Any]:
    return step("define_section", mode="property", name=name, kind="shell", material="Steel",
                thickness=thickness)


def beam(name: str) -> dict[str, Any]:
    return step("define_section", mode="property", name=name, kind="beam", material="Steel",
                profile={"shape": "circle", "r": 6})


def assign(section: str, scope: dict[str, Any]) -> dict[str, Any]:
    return step("assign_section", scope, mode="property", section=section)


BEAMS = {"by": "shape", "shape": "BEAM"}


def test_a_shell_section_for_a_round_bar_is_said_on_its_step_held_to_the_beam_kind():
    found = MODULE.request_contradictions(
        spec_of(shell("ROD")), "Round bar ROD of Steel, 12 mm in diameter.")
    assert [(f.step, f.diagnostic.path, f.diagnostic.needs) for f in found] == [
        (0, "steps[0].values.kind", ("kind:beam",))]
    assert found[0].diagnostic.message == (
        "the request says “Round bar”, a beam profile (circle), and step 1 (define the shell "
        "section ROD of material Steel, thickness 12) defines a shell section: define ROD as "
        "a beam section (kind beam) with a circle profile (r: the radius, half the diameter), "
        "not a shell thickness")


def test_an_i_section_is_asked_by_its_dimensions():
    found = request_contradictions(spec_of(shell("IPE200", 200)),
                                   "an I-beam IPE200 of Steel, 200 deep")
    assert found[0].diagnostic.message.endswith(
        "define IPE200 as a beam section (kind beam) with an I profile (l, h, b1, b2, t1, t2, "
        "t3), not a shell thickness")


def test_a_beam_section_of_no_shape_the_words_say_is_asked_with_the_requests_profile():
    found = request_contradictions(spec_of(shell("BX", 20)),
                                   "A beam section BX of Steel, 20 wide and 40 high.")
    assert found[0].diagnostic.message == (
        "the request says “beam section”, a beam section, and step 1 (define the shell "
        "section BX of material Steel, thickness 20) defines a shell section: define BX as a "
        "beam section (kind beam) with the profile the request gives, not a shell thickness")


def test_a_beam_section_of_another_shape_than_the_words_name_is_said_on_its_step():
    """"pipe sect P60: Steel, OD 60, wall 4" came as a circle profile of r 60."""
    found = request_contradictions(spec_of(beam("P60")), "pipe section P60, OD 60, wall 4")
    assert [(f.step, f.diagnostic.path) for f in found] == [(0, "steps[0].values.profile.shape")]
    assert found[0].diagnostic.message == (
        "the request says “pipe”, “OD”, a pipe profile, and step 1 (define the beam section P60 of "
        "material Steel, profile circle, r 6) gives a circle profile: define P60 with a pipe "
        "profile (r: the outer radius, half the outer diameter; t: the wall thickness)")


@pytest.mark.parametrize(("steps", "request_text"), [
    ((beam("ROD"),), "Round bar ROD of Steel, 12 mm in diameter."),  # the beam is defined
    ((shell("SH6", 6), beam("BAR30")), "A 6 mm section SH6 and a round bar BAR30."),  # both
    ((shell("S5", 5),), "A 5 mm section S5 of Steel."),  # no profile named
    ((shell("SH6", 6),), "A 6 mm shell SH6 on the quads and a round bar on the beams."),
    ((shell("S2", 2), assign("ROD", BEAMS)),  # the round bar is a section the model has
     "Put the existing round bar ROD on the beams and a 2 mm section S2 on the rest."),
    ((shell("S2", 2), shell("S3", 3)), "A round bar section and another one."),  # which?
    ((assign("ROD", BEAMS),), "Put the round bar ROD on the beams."),  # nothing defined
])
def test_no_contradiction_where_the_spec_may_well_be_what_the_words_ask(steps, request_text):
    assert request_contradictions(spec_of(*steps), request_text) == []


def test_the_shell_section_on_the_beams_is_the_one_said_even_beside_a_shell():
    steps = (shell("SH6", 6), shell("BAR30", 15), assign("SH6", {"by": "shape", "shape": "QUAD"}),
             assign("BAR30", BEAMS))
    found = request_contradictions(spec_of(*steps), "A 6 mm shell SH6 for the quads and a "
                                   "round bar BAR30 of radius 15 for the beams.")
    assert [f.step for f in found] == [1]


def test_of_two_shell_sections_the_one_the_request_names_is_said():
    found = request_contradictions(spec_of(shell("S2", 2), shell("ROD")),
                                   "Round bar ROD of Steel, 12 across.")
    assert [f.step for f in found] == [1]


def test_the_other_domains_read_no_contradiction():
    from sam_plugin.compilers import registry

    spec = spec_of(shell("ROD"))
    assert [registry.get_module(mode).request_contradictions(spec, "a round bar ROD")
            for mode in ("part", "mesh", "load")] == [[], [], []]


@pytest.mark.parametrize("suite", SUITES, ids=lambda p: p.name)
def test_over_both_suites_a_beam_task_names_its_profile_and_a_shell_task_none(suite):
    """Each Property task that expects a beam section names a profile of that shape (or a
    beam section); a task that expects a shell section alone gets no diagnostic for it."""
    for task in (t for t in load_suite(suite) if t.mode == "property"):
        beams = [c for c in task.checks if isinstance(c, BeamSection)]
        shells = [c for c in task.checks if isinstance(c, ShellSection)]
        found = named_profile(task.request)
        for expected in beams:
            assert found is not None and found.shape in (expected.profile_shape, None), task.request
        if shells and not beams:
            spec = spec_of(*(shell(c.section, c.thickness) for c in shells))
            assert request_contradictions(spec, task.request) == [], task.request


def test_a_round_section_whose_radius_is_not_half_the_stated_diameter_is_said():
    """"A solid round bar ROD, 12 mm in diameter" came as a circle of r 3.5."""
    rod = step("define_section", mode="property", name="ROD", kind="beam", material="Steel",
               profile={"shape": "circle", "r": 3.5})
    found = request_contradictions(spec_of(rod), "A round bar ROD of Steel, diameter 12.")
    assert found[0].diagnostic.message.endswith(
        "gives r 3.5: write r 6, half the diameter")
    assert request_contradictions(spec_of(beam("ROD")), "A round bar ROD, Ø12.") == []


def test_a_round_sections_size_across_is_its_diameter():
    """A round section "N mm across" is N in diameter, as "Ø N" is."""
    wide = step("define_section", mode="property", name="RB", kind="beam", material="Steel",
                profile={"shape": "circle", "r": 30})
    words = "Section RB: a circular bar 30 mm across, of Steel."
    found = request_contradictions(spec_of(wide), words)
    assert found[0].diagnostic.message.endswith("gives r 30: write r 15, half the diameter")
    half = step("define_section", mode="property", name="RB", kind="beam", material="Steel",
                profile={"shape": "circle", "r": 15})
    assert request_contradictions(spec_of(half), words) == []
    # a plate's size across is no diameter
    assert request_contradictions(spec_of(wide), "a plate 30 mm across, section RB") == []
