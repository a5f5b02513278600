"""An element size a request states, as the divisions of the lengths it names
(``request_spacing.py``), on phrasings in neither evaluation suite; the readings line that
states them, and the Part step that makes another number of elements."""

from __future__ import annotations

import pytest

from sam_plugin.compilers import registry
from sam_plugin.compilers.spec.request_counts import counts_words
from sam_plugin.compilers.spec.request_spacing import spacing_in
from sam_plugin.compilers.units import DEFAULT
from tests.support.specs import spec, step

PART = registry.get_module("part")


@pytest.mark.parametrize(("request_text", "divisions", "elements"), [
    ("Build a line of beam elements from (0, 0, 0) to (1000, 0, 0) with one element "
     "every 250.", [4], 4),
    ("Make a 1200 x 800 plate with element size 100.", [12, 8], 96),
    ("floor 2 m by 1 m, 250 mm quads", [8, 4], 32),
    ("a deck 3 m long and 1.5 m wide, quads of 500 mm on a side", [6, 3], 18),
    ("从原点到 (0, 600, 0) 建一根梁，每 100 一个单元", [6], 6),
    ("建一块 200 mm × 100 mm 的板，单元尺寸 50 mm", [4, 2], 8),
    ("a rail from (0,0,0) to (300,400,0), an element every 100", [5], 5),  # a line, 500 long
])
def test_an_element_size_is_read_as_the_divisions_of_the_lengths_named(
        request_text: str, divisions: list[int], elements: int) -> None:
    found = spacing_in(request_text)
    assert found is not None
    assert [length.divisions for length in found.lengths] == divisions
    assert found.elements == elements


@pytest.mark.parametrize("request_text", [
    "Build a 60 x 40 plate meshed 6 x 4.",              # divisions, no size
    "Mesh a 100 long line with element size 30.",       # 100 / 30 is no whole number
    "Add a 25 x 25 quad at the corner.",                # one element of a size
    "Refine the mesh twice.",
    "element size 10 here, element size 20 there, a 100 x 100 plate",  # two sizes
    "from the origin to (0, 0, 3000), a beam every 0.5 m",  # bare and metres: no system
])
def test_no_size_is_read_where_the_numbers_do_not_agree(request_text: str) -> None:
    assert spacing_in(request_text) is None


def test_a_size_in_a_unit_over_bare_lengths_is_read_in_the_models_units() -> None:
    found = spacing_in("from the origin to (0, 0, 3000), a beam every 0.5 m",
                       DEFAULT)
    assert found is not None and found.elements == 6


def test_the_readings_line_states_the_divisions_for_each_length() -> None:
    words = counts_words(PART.request_counts(
        "Lay a plate 1.2 m long and 80 cm wide, with square quads of 100 mm."))
    assert words == ("The request's counts in this mode's values (write these numbers): "
                     "“square quads of 100 mm” = divisions 12 for 1.2 m, divisions 8 for "
                     "80 cm.")
    line = counts_words(PART.request_counts(
        "A post from the origin up to (0, 0, 1200), one beam every 300."))
    assert line.endswith("“one beam every 300” = divisions 4 for the line from (0, 0, 0) "
                         "to (0, 0, 1200).")


def test_a_line_built_as_one_element_for_the_size_stated_is_said_and_held() -> None:
    words = "A post from the origin up to (0, 0, 1200), one beam every 300."
    one = step("build", shape="BEAM", elements=[
        {"shape": "BEAM", "nodes": [[0, 0, 0], [0, 0, 1200]]}])
    found = PART.request_contradictions(spec(one), words)
    assert [f.step for f in found] == [0]
    assert found[0].diagnostic.message.startswith("the request says “one beam every 300”, "
                                                  "and step 1 (build a mesh of BEAM elements")
    assert "makes 1 element: write it so that it makes 4 (a line" in \
        found[0].diagnostic.message
    assert found[0].diagnostic.needs == ("-elements",)
    right = step("build", shape="BEAM", lines=[
        {"start": [0, 0, 0], "end": [0, 0, 1200], "divisions": 4}])
    assert PART.request_contradictions(spec(right), words) == []
