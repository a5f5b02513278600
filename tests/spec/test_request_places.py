"""The places a request names, made into the part's boxes and points by the product
(docs/architecture.md §4 "Places"): read as words in English and Chinese, said only for a
part that lies in one plane."""

from __future__ import annotations

import pytest

from sam_plugin.compilers.spec.request_places import (
    NamedPlace,
    flat_part,
    place_numbers,
    places_in,
    places_words,
    region,
)

# a 4 x 4 plate of 10 x 10 quads in XY: nodes on 0, 10, ..., 40 each way
PLATE = flat_part([(1 + x + 5 * y, (x * 10.0, y * 10.0, 0.0)) for y in range(5)
                   for x in range(5)])
# the same in XZ: its second axis, bottom to top, is Z
WALL = flat_part([(1 + x + 5 * z, (x * 10.0, 0.0, z * 10.0)) for z in range(5)
                  for x in range(5)])


def box(request: str, part=PLATE) -> tuple[tuple[float, ...], tuple[float, ...]]:
    (place,) = places_in(request)
    assert part is not None
    low, high, _ = region(place, part)
    return low, high


@pytest.mark.parametrize(("request_", "low", "high"), [
    ("Give the right half of the plate the section THICK.", (20, 0, 0), (40, 40, 0)),
    ("refine the lower half", (0, 0, 0), (40, 20, 0)),
    ("Refine the lower-left quarter of the plate twice.", (0, 0, 0), (20, 20, 0)),
    ("the upper right quarter", (20, 20, 0), (40, 40, 0)),
    ("Group the top row of elements into a set.", (0, 30, 0), (40, 40, 0)),
    ("delete the leftmost column", (0, 0, 0), (10, 40, 0)),
    ("Clamp the bottom edge completely.", (0, 0, 0), (40, 0, 0)),
    ("on the right-hand side of the plate", (40, 0, 0), (40, 40, 0)),
    ("Take out the four elements in the middle of the plate.", (10, 10, 0), (30, 30, 0)),
    ("删掉板最左边那一列单元。", (0, 0, 0), (10, 40, 0)),
    ("把左边 x = 0 上的节点约束住", (0, 0, 0), (0, 40, 0)),
    ("给右半部分赋截面", (20, 0, 0), (40, 40, 0)),
    ("删除中间的四个单元", (10, 10, 0), (30, 30, 0)),
])
def test_each_kind_of_place_is_the_box_that_picks_it(request_, low, high):
    assert box(request_) == (low, high)


@pytest.mark.parametrize("request_", [
    "Remove the node at the top-right corner of the plate.", "把板右上角的节点删掉"])
def test_a_corner_is_a_point_and_names_no_edge(request_):
    places = places_in(request_)
    assert [p.kind for p in places] == ["corner"]
    assert "the point [40,40,0], node 25" in places_words(places, PLATE)


@pytest.mark.parametrize("request_", [
    "rot 90 deg about Z, around the plate's centre", "scale 0.5 about the middle",
    "Lift the centre node by 2.5.",
    "以板的中心为原点旋转 90 度", "把中心节点抬高 2.5"])
def test_the_middle_a_rotation_is_about_is_its_centre_point(request_):
    places = places_in(request_)
    assert [p.kind for p in places] == ["centre"]
    assert places_words(places, PLATE).endswith("= the point [20,20,0], node 13.")


@pytest.mark.parametrize("request_", [
    "Make the part twice as big, keeping it centred where it is.",
    "scale x2 but keep it centered"])
def test_centred_where_it_is_is_its_centre_point(request_):
    assert places_words(places_in(request_), PLATE).endswith("= the point [20,20,0], node 13.")


@pytest.mark.parametrize("request_", [
    "以原点为中心把零件放大两倍。", "以坐标原点为中心旋转 90 度",
    "Scale it by 3, centred on the origin.",
    "rotate 90 with the origin as centre", "centre at (0, 0, 0), scale 2",
    "以点 (5, 5, 0) 为中心缩放"])
def test_a_centre_that_is_another_point_is_no_place_of_the_part(request_):
    assert places_in(request_) == []


@pytest.mark.parametrize(("request_", "said"), [
    ("Put one loose node 25 above the middle of the plate.", "“25 above the middle” = the "
     "point [20,20,25]."),
    ("add a free node 5 below the centre", "“5 below the centre” = the point [20,20,-5]."),
])
def test_a_point_above_or_below_a_place_is_computed_by_the_product(request_, said):
    """"25 above the middle" was answered with the point (25, 20, 0): the model added the 25
    to X. The product states the point, up being +Z."""
    assert places_words(places_in(request_), PLATE).endswith(said)


@pytest.mark.parametrize(("request_", "low", "high"), [
    ("把 x 从 0 到 10 这一段的单元细化三级，其余不动。", (0, 0, 0), (10, 40, 0)),
    ("refine the elements between x = 10 and x = 30", (10, 0, 0), (30, 40, 0)),
    ("give the strip 0 <= y <= 10 the section EDGE", (0, 0, 0), (40, 10, 0)),
    ("delete everything with y from 30 to 40", (0, 30, 0), (40, 40, 0)),
    ("x=20 到 x=40 的单元加密一级", (20, 0, 0), (40, 40, 0)),
])
def test_a_stretch_named_by_a_coordinate_is_the_box_of_the_part_along_it(request_, low, high):
    assert box(request_) == (low, high)


@pytest.mark.parametrize("request_", [
    "Build a 20 x 20 plate of 2 x 2 quads.", "Move node 4 to (10, 20, 0).",
    "translate by x 5", "elements 1-4"])
def test_sizes_points_and_labels_name_no_stretch(request_):
    assert [p for p in places_in(request_) if p.kind == "span"] == []


def test_a_stretch_beyond_the_part_or_holding_all_of_it_is_not_said():
    """"quad patch x 10..30, y 0..10, joined at x=10" gives the extent of new elements."""
    assert places_words(places_in("add a patch x 40..60, y 0..40"), PLATE) == ""


def test_top_and_bottom_follow_the_parts_own_plane():
    assert box("the top edge", WALL) == ((0, 0, 40), (40, 0, 40))
    assert box("the left half", WALL) == ((0, 0, 0), (20, 0, 40))


@pytest.mark.parametrize("request_", [
    "Translate set S1 by (5, 0, 0).", "Build a 60 x 100 plate in the XY plane.",
    "把这块板复制一份，放在它正上方 100 的地方", "Put a copy right next to it, edges touching.",
    "Refine every element one level."])
def test_a_request_naming_no_place_is_sent_as_it_was(request_):
    assert places_in(request_) == []
    assert places_words(places_in(request_), PLATE) == ""


def test_a_part_that_lies_in_no_one_plane_has_no_places_said():
    block = flat_part([(1, (x, y, z)) for x in (0, 1) for y in (0, 1) for z in (0, 1)])
    line = flat_part([(1 + z, (0, 0, z * 500.0)) for z in range(7)])
    assert block is None and line is None
    assert places_words([NamedPlace("left half", "half", ("left",))], None) == ""


def test_the_line_states_the_box_to_copy_and_its_numbers_are_the_requests():
    places = places_in("Refine the four elements in the middle one level.")
    assert places_words(places, PLATE) == (
        "The request's places on this part, computed from its nodes (a box picks the elements "
        "and nodes inside it; use these numbers): “middle” = "
        '{"by":"box","min":[10,10,0],"max":[30,30,0]}.')
    assert place_numbers(places, PLATE) == {10.0, 30.0, 0.0}


def test_a_point_where_no_node_lies_is_said_without_one():
    holed = flat_part([(1, (0.0, 0.0, 0.0)), (2, (40.0, 0.0, 0.0)), (3, (0.0, 40.0, 0.0)),
                       (4, (40.0, 40.0, 0.0))])
    places = places_in("scale 0.5 about the middle")
    assert places_words(places, holed).endswith("= the point [20,20,0].")
    assert place_numbers(places_in("move the top-left corner node"), PLATE) == {0.0, 40.0,
                                                                                  21.0}
