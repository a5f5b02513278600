"""What a model's spec plans that its request does not ask for, left out before Review
(``compilers/spec/unasked.py``), as the compile would leave it out after Confirm."""

from __future__ import annotations

from sam_plugin.compilers import registry
from sam_plugin.compilers.spec.unasked import without_unasked
from tests.support.specs import labels, spec, step

PART = registry.get_module("part").vocabulary
BEAM = step("build", shape="BEAM", lines=[{"start": [0, 0, 0], "end": [0, 0, 900],
                                           "divisions": 9}], sets=["beam"])


def test_the_sets_of_a_build_no_word_asks_for_are_left_out_and_said():
    found = without_unasked(spec(BEAM), PART, ["沿 Z 方向建一根 900 长的梁，分 9 段。"])
    assert "sets" not in found.spec.steps[0].values
    assert found.spec.steps[0].values["lines"] == BEAM["values"]["lines"]
    assert found.left_out == (
        "the sets of step 1 (build a mesh of BEAM elements: a line of 9 BEAM elements from "
        "(0, 0, 0) to (0, 0, 900), with the sets beam) are left out: the request does not ask "
        "for sets or groups",)
    assert found.kept is None  # every step stands


def test_a_set_the_words_ask_for_stays_in_english_and_chinese():
    for words in ("Build a 900 beam up Z in 9 pieces and group it as beam.",
                  "建一根梁，放进集合 beam"):
        assert without_unasked(spec(BEAM), PART, [words]).left_out == ()


def test_a_remark_of_the_analyst_asks_as_the_request_does():
    found = without_unasked(spec(BEAM), PART, ["A 900 beam up Z.", "put it in a set too"])
    assert found.left_out == ()


def test_a_step_left_out_keeps_the_numbering_of_the_steps_that_stand():
    the_spec = spec(step("create_set", labels(1), name="A"), step("delete_elements", labels(2)))
    found = without_unasked(the_spec, PART, ["Delete element 2."])
    assert [s.action for s in found.spec.steps] == ["delete_elements"]
    assert found.kept == (1,)


def test_a_spec_of_nothing_but_what_is_unasked_is_kept_as_it_is():
    the_spec = spec(step("create_set", labels(1), name="A"))
    found = without_unasked(the_spec, PART, ["Do something with element 1."])
    assert found.spec == the_spec and found.left_out == ()
