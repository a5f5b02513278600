"""The counts a request states indirectly, read by the product and stated in a mode's values
(compilers/spec/request_counts.py, compilers/mesh/count_words.py,
compilers/part/count_words.py). The phrasings here are not the evaluation suites'."""

from __future__ import annotations

import pytest

from sam_plugin.compilers import registry
from sam_plugin.compilers.spec.request_counts import counts_in, counts_words


def read(text: str) -> list[tuple[str, int, str]]:
    return [(c.kind, c.value, c.said) for c in counts_in(text)]


@pytest.mark.parametrize(("text", "expected"), [
    ("Refine the support region so it is 4x finer", [("finer", 4, "4x finer")]),
    ("make the mesh two times denser", [("finer", 2, "two times denser")]),
    ("I want the whole thing double as fine", [("finer", 2, "double as fine")]),
    ("halve the mesh size at the hole", [("finer", 2, "halve the mesh size")]),
    ("把孔边网格加密四倍", [("finer", 4, "加密四倍")]),
    ("chop each tri into 4 pieces", [("pieces", 4, "into 4")]),
    ("subdivide the flange elements into sixteen", [("pieces", 16, "into sixteen")]),
    ("cut the stiffener beams in half", [("pieces", 2, "in half")]),
    ("每根梁一分为二", [("pieces", 2, "一分为二")]),
    ("把每个单元拆成 4 个", [("pieces", 4, "拆成 4")]),
    ("pattern the rib 5 more times, 40 apart", [("more", 5, "5 more")]),
    ("duplicate it, another three along Y", [("more", 3, "another three")]),
    ("沿 X 再复制三份", [("more", 3, "再复制三份")]),
    ("copy the bracket so there are 6 in total", [("total", 6, "6 in total")]),
    ("array it: a total of four, pitch 20", [("total", 4, "a total of four")]),
    ("阵列这块板，一共五块", [("total", 5, "一共五块")]),
])
def test_counts_said_another_way_are_read(text: str, expected: list[tuple[str, int, str]]):
    assert read(text) == expected


@pytest.mark.parametrize("text", [
    "Add two more nodes at (0, 0, 5) and (10, 0, 5).",  # more of nothing copied
    "Copy the edge, then add 2 more QUAD elements beside the copy.",
    "divide the plate into 4 by 4 QUAD elements",       # a grid, not 4 pieces
    "Scale the part by 2 about its centre.",
    "refine set HOLE by 2 levels",                       # the levels said as levels
    "Move elements 3 to 5 up by 2.5 mm.",
    "there are 3 elements in total; report them",        # nothing copied: no total
    "把 x 从 0 到 10 的单元细化两级",
])
def test_words_that_state_no_indirect_count_are_not_read(text: str):
    assert counts_in(text) == []


def test_the_same_count_said_twice_is_read_once():
    assert read("split the beams into two halves") == [("pieces", 2, "into two")]


def mesh_words(text: str) -> str:
    return counts_words(registry.get_module("mesh").request_counts(text))


def test_mesh_states_a_fineness_as_levels_each_halving_the_element_size():
    assert mesh_words("make the mesh four times as fine") == (
        "The request's counts in this mode's values (write these numbers): "
        "“four times as fine” = levels 2 (each level halves the element size).")
    assert mesh_words("make the mesh 2x finer").endswith("= levels 1 (each level halves the "
                                                         "element size).")


def test_mesh_states_pieces_as_levels_for_the_elements_they_fit():
    assert mesh_words("subdivide every element into 4") == (
        "The request's counts in this mode's values (write these numbers): "
        "“into 4” = levels 1 for QUAD or TRI elements, levels 2 for BEAM elements.")
    assert mesh_words("chop each quad into 64 pieces") == (
        "The request's counts in this mode's values (write these numbers): "
        "“into 64” = levels 3 for QUAD or TRI elements.")
    assert mesh_words("cut the beams in half").endswith("“in half” = levels 1 for BEAM "
                                                        "elements.")


@pytest.mark.parametrize("text", [
    "make it three times finer",          # no whole number of levels
    "split each quad into 3",
    "make it sixteen times finer",        # more levels than a refine takes
    "split each beam into 32 pieces",
])
def test_mesh_says_nothing_of_a_count_no_whole_number_of_levels_makes(text: str):
    assert mesh_words(text) == ""


def part_words(text: str) -> str:
    return counts_words(registry.get_module("part").request_counts(text))


def test_part_states_copies_as_the_new_copies_the_array_asks_for():
    assert part_words("pattern the rib 5 more times, 40 apart") == (
        "The request's counts in this mode's values (write these numbers): "
        "“5 more” = copies 5 (the new copies, the original not counted).")
    assert part_words("array it: a total of four, pitch 20") == (
        "The request's counts in this mode's values (write these numbers): "
        "“a total of four” = copies 3 (4 in all, the original counted).")


def test_modes_without_counts_of_their_own_state_none():
    for mode in ("property", "load"):
        assert registry.get_module(mode).request_counts("copy it four more times, "
                                                        "twice as fine") == ()
    assert part_words("make the mesh twice as fine") == ""
    assert mesh_words("copy it four more times") == ""
