"""A build or new elements of another shape, or a build in another plane, than the request
names (``compilers/part/shape_words.py``), on phrasings in neither evaluation suite."""

from __future__ import annotations

from sam_plugin.compilers import registry
from sam_plugin.compilers.spec.schema import ScopeBounds, one_step_schema
from tests.support.specs import spec, step

PART = registry.get_module("part")
QUADS = step("build", shape="QUAD", size=[60, 40], divisions=[3, 2])


def test_a_build_of_another_shape_than_the_words_name_is_said_held_to_it():
    found = PART.request_contradictions(spec(QUADS), "Mesh a 60 by 40 sheet in triangles.")
    assert [(f.step, f.diagnostic.needs) for f in found] == [(0, ("shape:TRI",))]
    assert found[0].diagnostic.message == (
        "the request says “triangles”, and step 1 (build a mesh of QUAD elements, size 60 x "
        "40, divided 3 x 2) makes QUAD elements: write it with TRI elements")


def test_a_build_in_another_plane_than_the_words_name_is_said_held_to_it():
    found = PART.request_contradictions(spec(QUADS), "一块 60 × 40 的板，放在 YZ 平面上，用四边形")
    assert [f.diagnostic.needs for f in found] == [("plane:YZ",)]
    grammar = one_step_schema(PART.vocabulary, ScopeBounds(actions=("build",)), ("plane:YZ",))
    planes = [v["properties"]["values"]["properties"]["plane"] for v in grammar["anyOf"]]
    assert planes and all(p == {"type": "string", "enum": ["YZ"]} for p in planes)


def test_two_shapes_named_or_a_shape_as_a_name_say_nothing():
    beam = step("add_elements", count=1, shape="BEAM", elements=[
        {"shape": "BEAM", "nodes": [[0, 20, 0], [20, 20, 0]]}])
    assert PART.request_contradictions(spec(beam), "Add a beam along the top of the quad "
                                       "plate.") == []
    assert PART.request_contradictions(spec(QUADS), "Build a 60 x 40 plate in set TRIS.") == []
    assert PART.request_contradictions(spec(QUADS), "A 60 x 40 quad plate in the XY "
                                       "plane.") == []
