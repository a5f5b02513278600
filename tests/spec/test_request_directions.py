"""The directions, axes and planes a request names, stated as vectors
(``compilers/spec/request_directions.py``), on phrasings in neither evaluation suite."""

from __future__ import annotations

import pytest

from sam_plugin.compilers.spec.request_directions import (
    direction_numbers,
    directions_in,
    directions_words,
)


@pytest.mark.parametrize(("request_text", "kind", "vector"), [
    ("Spin the bracket 30 degrees around the z axis.", "axis", (0.0, 0.0, 1.0)),
    ("Turn it about X by 45.", "axis", (1.0, 0.0, 0.0)),
    ("pattern it 4 times along y, 15 apart", "direction", (0.0, 1.0, 0.0)),
    ("Orient n1 to -Z for every beam.", "direction", (0.0, 0.0, -1.0)),
    ("shift everything in the negative y direction by 12", "direction", (0.0, -1.0, 0.0)),
    ("Give it a displacement of 0.5 in the u3 direction.", "direction", (0.0, 0.0, 1.0)),
    ("把零件沿 Z 轴负方向移动 8", "direction", (0.0, 0.0, -1.0)),
    ("绕 X 轴转 30 度", "axis", (1.0, 0.0, 0.0)),
    ("把梁的 n1 设成沿正 X 方向", "direction", (1.0, 0.0, 0.0)),
    ("Move the whole part upwards by 3.", "direction", (0.0, 0.0, 1.0)),
    ("整体向下平移 4", "direction", (0.0, 0.0, -1.0)),
    # a verb that lowers: the axis named with no sign is the negative one
    ("Drop the bracket 6 along the Z axis.", "direction", (0.0, 0.0, -1.0)),
    ("Lower it by 2 in y.", "direction", (0.0, -1.0, 0.0)),
    ("把零件沿 Z 轴下降 5", "direction", (0.0, 0.0, -1.0)),
    ("Lower the part by 3.", "direction", (0.0, 0.0, -1.0)),
    # "lower" of a place is no verb; a sign written wins
    ("Shift the lower edge's nodes along x by 5.", "direction", (1.0, 0.0, 0.0)),
    ("Lower the plate along +z by 4, then audit.", "direction", (0.0, 0.0, 1.0)),
])
def test_a_direction_named_in_words_is_its_vector(request_text, kind, vector):
    found = directions_in(request_text)
    assert [(d.kind, d.vector) for d in found] == [(kind, vector)]


def test_a_plane_is_its_normal_and_where_it_lies():
    (plane,) = directions_in("Reflect the bracket across x = 25, keeping the original.")
    assert (plane.kind, plane.vector, plane.at) == ("plane", (1.0, 0.0, 0.0), 25.0)
    assert directions_words("Reflect the bracket across x = 25, keeping the original.") == (
        "The request's directions as vectors (write these numbers): “across x = 25” = the "
        "plane x = 25: normal [1, 0, 0], through [25, 0, 0].")
    (named,) = directions_in("Mirror it about the X-Z plane.")
    assert (named.vector, named.at, named.name) == ((0.0, 1.0, 0.0), 0.0, "XZ")
    assert directions_words("reflect it in the ZX plane").endswith(
        "“ZX plane” = the plane XZ (y = 0): normal [0, 1, 0], through [0, 0, 0].")
    # a build's plane is its own value, named as the request names it: no plane is stated
    assert [d.kind for d in directions_in("Mesh a 40 x 20 panel in the X-Z plane.")] == []
    (zh,) = directions_in("把零件关于 XY 平面镜像")
    assert zh.vector == (0.0, 0.0, 1.0)


@pytest.mark.parametrize("request_text", [
    "Delete the nodes on the top edge y = 40.",      # a place, not a plane: nothing mirrors
    "Clean up the mesh and set up the sections.",    # "up" of a phrasal verb
    "Push down on node 7 with a force of (0, -50, 0).",  # its own vector
    "Rename set A1 to B2.",
    "n3 -> (22,0,0)",
    "Add a static step called Lift after the initial one.",  # a name
])
def test_other_words_name_no_direction(request_text):
    assert directions_in(request_text) == []


def test_a_signed_axis_is_read_once_and_its_numbers_count_as_shown():
    found = directions_in("沿 Y 轴正方向")
    assert [(d.kind, d.vector) for d in found] == [("direction", (0.0, 1.0, 0.0))]
    assert direction_numbers("mirror about y=10") == frozenset({0.0, 1.0, 10.0})


@pytest.mark.parametrize(("request_text", "words"), [
    ("把整个零件往 X 负方向挪 30。", "“X 负方向” = with 30, the vector [-30, 0, 0]."),
    ("Raise it by 5 cm.", "“Raise” = with 50, the vector [0, 0, 50]."),  # in the model's mm
    ("Copy it 3 more times along X, 25 apart.", "“along X” = with 25, the vector [25, 0, 0]."),
    ("Point n1 of every beam along -Y.",
     "“-Y” = the direction [0, -1, 0] (a distance d that way: [0, -d, 0])."),
    ("Spin it 30 degrees about Z.", "“about Z” = the axis [0, 0, 1]."),
])
def test_a_direction_with_the_requests_one_distance_is_stated_as_its_vector(request_text,
                                                                            words):
    assert directions_words(request_text).endswith(words)


def test_a_distance_at_the_end_of_a_sentence_is_the_directions_distance():
    """"Lower the plate by 15." had no distance: the sentence's full stop read as a decimal."""
    assert directions_words("Lower the plate by 15.") == (
        "The request's directions as vectors (write these numbers): “Lower” = with 15, the "
        "vector [0, 0, -15].")
