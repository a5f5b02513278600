"""The number of elements a request states for a part made anew (``request_elements.py``),
on phrasings in neither evaluation suite, and the Part step that makes another number."""

from __future__ import annotations

import pytest

from sam_plugin.compilers import registry
from sam_plugin.compilers.spec.request_elements import stated_elements
from tests.support.specs import ALL, spec, step

PART = registry.get_module("part")


@pytest.mark.parametrize(("request_text", "count"), [
    ("Mesh a strip 50 long with ten beam elements.", 10),
    ("a 4 by 3 grid of quads, 40 x 30", 12),
    ("lay out 8 triangular elements", 8),
    ("把这根杆分为 6 段", 6),
    ("铺一块板，3 × 3 个单元", 9),
    ("重新建：12 个三角形单元", 12),
])
def test_an_element_count_is_read(request_text, count):
    stated = stated_elements(request_text)
    assert stated is not None and stated.count == count


@pytest.mark.parametrize("request_text", [
    "Replace it with a single 40 x 40 quad.",        # one element of that size
    "Two beams, 5 elements each.",                    # a count per beam
    "Build 6 elements along x and 4 elements along y.",  # two counts: no one total
    "每根梁 5 个单元",
    "Make the plate 20 by 20.",
])
def test_no_one_total_is_read(request_text):
    assert stated_elements(request_text) is None


def _line(divisions: int) -> dict[str, object]:
    return {"start": [0, 0, 0], "end": [0, 0, 900], "divisions": divisions}


def test_a_part_built_with_one_element_for_the_nine_stated_is_said_and_held():
    beam = step("build", shape="BEAM", elements=[
        {"shape": "BEAM", "nodes": [[0, 0, 0], [0, 0, 900]]}])
    found = PART.request_contradictions(spec(beam), "Build a 900 column of 9 elements.")
    assert [f.step for f in found] == [0]
    assert found[0].diagnostic.message.startswith(
        "the request says “9 elements”, and step 1 (build a mesh of BEAM elements")
    assert found[0].diagnostic.message.endswith(
        "makes 1 element: write it so that it makes 9 (a line by its divisions, a patch or a "
        "rectangle by its divisions [nu, nv])")
    assert found[0].diagnostic.needs == ("-elements",)
    right = step("build", shape="BEAM", lines=[_line(9)])
    assert PART.request_contradictions(spec(right), "Build a 900 column of 9 elements.") == []


def test_a_part_emptied_first_is_made_anew_and_one_that_keeps_elements_is_not():
    wrong = step("add_elements", count=2, shape="BEAM", lines=[_line(2)])
    words = "Wipe it and draw a 900 line of 6 segments."
    found = PART.request_contradictions(spec(step("delete_nodes", ALL), wrong), words)
    assert [f.step for f in found] == [1] and found[0].diagnostic.needs == ()
    assert PART.request_contradictions(spec(wrong), "Delete the 6 elements at the top, "
                                       "and draw a 900 line.") == []


def test_a_tri_rectangle_is_counted_by_its_cells_or_its_triangles():
    tris = step("build", shape="TRI", size=[20, 20], divisions=[2, 2])
    for words in ("a 20 x 20 plate of 8 triangles", "a 20 x 20 plate, 4 TRI elements"):
        assert PART.request_contradictions(spec(tris), words) == []
