"""What the request authorizes: sets/groups and an explicit full replacement."""

from __future__ import annotations

import pytest

from sam_plugin.compilers.part.authorization import asks_for_sets, asks_to_clear_all


@pytest.mark.parametrize("text", [
    "delete everything and build a 10 x 10 plate",
    "Replace the whole mesh with triangles",
    "remove all nodes and elements, then add a beam",
    "clear the part and start over",
    "rebuild from scratch",
    "清空零件后重新建立",
    "删除所有内容，然后建一块板",
    "全部删除后重建",
    "把整个网格替换成三角形",
])
def test_explicit_full_replacement(text: str) -> None:
    assert asks_to_clear_all(text)


@pytest.mark.parametrize("text", [
    "delete all elements in set Left",
    "replace the quads in the corner with triangles",
    "remove element 5",
    "删除所有单元集合里的单元",
    "删除左边的单元",
    "move all nodes up by 5",
])
def test_partial_changes_do_not_authorize_clear_all(text: str) -> None:
    assert not asks_to_clear_all(text)


@pytest.mark.parametrize(("text", "expected"), [
    ("put the plate in a set called Skin", True),
    ("group the beams", True),
    ("建立单元集合", True),
    ("把梁分成一组", True),
    ("build a plate", False),
    ("settle the mesh", False),
])
def test_sets_and_groups(text: str, expected: bool) -> None:
    assert asks_for_sets(text) is expected
