"""The repairs a request's words name (``compilers/spec/request_actions.py``), on phrasings in
neither evaluation suite, and the step that stands in their place."""

from __future__ import annotations

import pytest

from sam_plugin.compilers import registry
from sam_plugin.compilers.spec.request_actions import named_actions, stand_in
from sam_plugin.compilers.spec.schema import ScopeBounds, one_step_schema
from tests.support.specs import labels, spec, step

PART = registry.get_module("part").vocabulary


@pytest.mark.parametrize(("request_text", "action"), [
    ("Get rid of the orphaned nodes.", "delete_free_nodes"),
    ("There are a couple of dangling nodes left over, clean them out", "delete_free_nodes"),
    ("remove nodes that are not attached to any element", "delete_free_nodes"),
    ("把悬空的节点删了", "delete_free_nodes"),
    ("删掉那些没有连接单元的节点", "delete_free_nodes"),
    ("Some triangles are stacked on top of each other; keep one of each.",
     "delete_duplicate_elements"),
    ("kill the overlapping quads", "delete_duplicate_elements"),
    ("两个单元完全重合，删一个", "delete_duplicate_elements"),
    ("Sew the two strips together along x = 10.", "merge_nodes"),
    ("close the seam between the halves", "merge_nodes"),
    ("The coinciding nodes at the joint should be one node each.", "merge_nodes"),
    ("把接缝处重复的节点合并", "merge_nodes"),
])
def test_the_words_of_a_repair_name_it(request_text, action):
    assert action in [n.action for n in named_actions(PART, request_text)]


@pytest.mark.parametrize("request_text", [
    "Delete the elements on the left.",      # a verb alone names no repair
    "Remove nodes 3 and 4.",
    "Add a free node at (5, 5, 0).",         # "free node" with "add" still names it...
    "Do not merge the duplicate nodes.",     # ...but negated words name nothing
    "Keep the overlapping quads, they are intended.",
    "不要合并重合节点",
    "Copy the plate and join nothing.",
])
def test_other_words_name_no_repair_or_are_negated(request_text):
    found = [n.action for n in named_actions(PART, request_text)]
    if request_text.startswith("Add a free node"):
        assert found == ["delete_free_nodes"]  # named, but no step stands in (below)
        assert stand_in(spec(step("add_nodes", count=1, points=[5, 5, 0])), PART,
                        request_text) is None
    else:
        assert found == []


def test_the_step_standing_in_is_the_first_of_an_action_that_does_it_otherwise():
    the_spec = spec(step("translate", labels(1), vector=[1, 0, 0]),
                    step("delete_elements", labels(2)), step("delete_nodes", labels(9)))
    found = stand_in(the_spec, PART, "Shift the plate by 1 in x, then remove the stray nodes "
                     "and the doubled elements.")
    assert found is not None
    assert (found.step, found.actions, found.words) == (1, ("delete_duplicate_elements",),
                                                        ("doubled elements",))


def test_a_request_naming_labels_leaves_its_steps_as_they_are():
    the_spec = spec(step("delete_nodes", labels(3)))
    assert stand_in(the_spec, PART, "delete n3 and any free nodes") is None
    assert stand_in(the_spec, PART, "删除 3 号节点和自由节点") is None


def test_a_step_asked_again_is_held_to_the_actions_named():
    grammar = one_step_schema(PART, ScopeBounds(max_label=9, entities=13),
                              ("action=merge_nodes", "action=delete_free_nodes"))
    assert [v["properties"]["action"]["enum"] for v in grammar["anyOf"]] == [
        ["merge_nodes"], ["delete_free_nodes"]]


def test_an_action_the_target_does_not_allow_is_not_offered_instead_of_nothing():
    bounds = ScopeBounds(actions=("build",))
    grammar = one_step_schema(PART, bounds, ("action=merge_nodes",))
    assert {a for v in grammar["anyOf"] for a in v["properties"]["action"]["enum"]} == {"build"}


@pytest.mark.parametrize("request_text", ["Enlarge the bracket by 1.5 about its corner.",
                                          "make it three times as large", "把零件放大两倍"])
def test_a_scale_the_words_name_stands_in_for_a_moved_node(request_text):
    the_spec = spec(step("move_nodes", labels=[5], to=[7.5, 7.5, 0]))
    found = stand_in(the_spec, PART, request_text)
    assert found is not None and found.actions == ("scale",)
