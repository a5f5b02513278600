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
    "do not clear the part",
    "never delete the whole part",
    "不要清空零件",
    "do NOT start over",
    "don't wipe the mesh, just add a hole",
    "please don’t replace the whole mesh",
    "add a plate without having to delete everything",
    "no need to rebuild from scratch",
    "I cannot replace the existing part",
    "别清空零件",
    "勿删除所有内容",
    "无需全部删除",
    "不用重建整个零件",
])
def test_negated_full_replacement_does_not_authorize_clear_all(text: str) -> None:
    assert not asks_to_clear_all(text)


@pytest.mark.parametrize("text", [
    "do not keep the holes, delete everything",
    "don't keep anything but clear the part and start over",
    "不要保留孔，清空零件",
    "分别删除所有内容后重建",
    "the old mesh is not useful. Replace the whole mesh with triangles",
])
def test_negation_in_another_clause_does_not_cancel_clear_all(text: str) -> None:
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
    ("用四个单元组成一块板", False),
    ("组合两块板", False),
    ("三根梁组成一组", True),
    ("建立单元组 Left", True),
    ("把节点分组", True),
    ("节点组 Top", True),
    ("the beams form two groups", True),
])
def test_sets_and_groups(text: str, expected: bool) -> None:
    assert asks_for_sets(text) is expected


# issue 11: a scoped "everything" is not the whole part
@pytest.mark.parametrize("text", [
    "Delete everything above z=5",
    "delete everything above z = 5 and rebuild it",
    "Replace everything in set S1 with triangles",
    "remove everything inside the box (0,0,0)-(5,5,5)",
    "In set S1, delete everything",
    "wipe everything left of x=2",
    "delete all the geometry of set Top",
    "清空集合S1里的单元",
    "删除集合S1里的全部内容",
    "把集合S1里的所有单元全部删除",
    "删除z=5以上的所有内容",
    "清空左边区域的单元",
])
def test_scoped_everything_does_not_authorize_clear_all(text: str) -> None:
    assert not asks_to_clear_all(text)
