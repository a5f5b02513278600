"""A refusal names its category and the mode that does it, when one does, in English and
Chinese; the request's own words beside the model's say the same at Review, never a refusal on
their own (docs/architecture.md §4 "The design, asked in parts")."""

from __future__ import annotations

import pytest

from sam_plugin.compilers.spec.out_of_mode import out_of_mode
from sam_plugin.compilers.spec.refusal_category import REFUSAL_CATEGORIES
from sam_plugin.compilers.spec.refusal_words import CATEGORY_WORDS, refusal_sentence


def test_every_category_has_its_words():
    assert tuple(CATEGORY_WORDS) == REFUSAL_CATEGORIES
    assert all(w.en and w.zh and w.covers for w in CATEGORY_WORDS.values())


def test_the_words_name_the_category_and_the_mode_that_does_it():
    assert refusal_sentence("material", "part") == (
        "this asks for a material, which the Part mode does not do; the Property mode does "
        "that: pick it and submit again. Nothing was run.")
    assert refusal_sentence("contact", "part") == (
        "this asks for contact, which the Part mode does not do; no mode of the plugin does "
        "that yet. Nothing was run.")
    assert refusal_sentence("load", "mesh", "zh") == (
        "这个请求要求载荷，Mesh 模式不做这件事；请在 Load 模式中完成。未执行任何操作。")


@pytest.mark.parametrize(("request_text", "mode", "categories"), [
    ("apply a pressure of 2 MPa on the top edge", "part", ["load"]),
    ("fix the left edge and clamp the base", "mesh", ["boundary_condition"]),
    ("add contact with friction 0.3 between the plates", "part", ["contact"]),
    ("coarsen the mesh, then remesh the hole", "mesh", ["mesh_generation"]),
    ("give it Young's modulus 70 GPa", "part", ["material"]),
    ("give it Young's modulus 70 GPa", "property", []),
    # the apostrophe macOS, Word and phones type; full-width letters (NFKC)
    ("give it Young\u2019s modulus 70 GPa", "part", ["material"]),
    ("ａｐｐｌｙ ａ ｐｒｅｓｓｕｒｅ", "mesh", ["load"]),
    ("在顶边施加压力并固定底边", "part", ["load", "boundary_condition"]),
    ("两个零件之间加接触和摩擦", "part", ["contact"]),
    ("把网格粗化一倍", "mesh", ["mesh_generation"]),
    ("fix the duplicate nodes", "part", []),
    ("refine the fixture region twice as fine", "mesh", []),
])
def test_the_requests_own_words_name_what_the_mode_does_not_do(request_text, mode, categories):
    assert [f.category for f in out_of_mode(request_text, mode)] == categories
