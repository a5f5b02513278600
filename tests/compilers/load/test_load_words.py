"""The Load steps a request's own words contradict (``compilers/load/contradictions.py``), on
phrasings in neither evaluation suite: a load where the words name a dof, and a support of
some dofs where the words hold them all."""

from __future__ import annotations

import pytest

from sam_plugin.compilers import registry
from tests.support.specs import box, spec, step

LOAD = registry.get_module("load")
EDGE = box([0, 0, 0], [40, 0, 0])


def _force(vector: list[float]) -> dict[str, object]:
    return step("force", EDGE, mode="load", name="F", step="Squeeze", vector=vector)


@pytest.mark.parametrize("request_text", [
    "Move the bottom nodes by 0.5 along U1 in step Squeeze.",
    "底边节点的 u3 给 -2，叫 SINK",
])
def test_a_load_where_the_words_name_a_dof_is_asked_as_a_boundary_condition(
        request_text: str) -> None:
    found = LOAD.request_contradictions(spec(_force([0.5, 0, 0]), mode="load"), request_text)
    assert [f.step for f in found] == [0]
    message = found[0].diagnostic.message
    assert message.startswith("the request names “")
    assert message.endswith("is a load: a dof is held or moved by a boundary condition (a "
                            "force's components are cf1, cf2, cf3): write fix (the dofs held "
                            "at 0) or displace (each dof's value)")
    assert found[0].diagnostic.needs == ("action=fix", "action=displace")


def test_a_force_beside_a_boundary_condition_is_left_as_it_is() -> None:
    """"Hold u1 of the left edge and pull the right edge": the force is the pull."""
    both = spec(step("fix", EDGE, mode="load", name="H", dofs=["u1"]), _force([5, 0, 0]),
                mode="load")
    assert LOAD.request_contradictions(both, "hold u1 of the left edge, pull the right edge "
                                       "with 5 N in Squeeze") == []


@pytest.mark.parametrize("request_text", [
    "Support the base rigidly and call it BASE.",
    "把底边完全固定，叫 BASE",
])
def test_a_support_of_some_dofs_where_the_words_hold_all_is_asked_without_them(
        request_text: str) -> None:
    some = spec(step("fix", EDGE, mode="load", name="BASE", dofs=["u2"]), mode="load")
    found = LOAD.request_contradictions(some, request_text)
    assert [f.step for f in found] == [0]
    assert found[0].diagnostic.message.endswith("holds u2 only: leave its dofs out, and all "
                                                "six are held")
    assert found[0].diagnostic.needs == ("-dofs",)
    every = spec(step("fix", EDGE, mode="load", name="BASE"), mode="load")
    assert LOAD.request_contradictions(every, request_text) == []


def test_a_support_of_the_dofs_the_words_name_is_left_as_it_is() -> None:
    some = spec(step("fix", EDGE, mode="load", name="BASE", dofs=["u1", "u2"]), mode="load")
    assert LOAD.request_contradictions(some, "fully restrain u1 and u2 of the base") == []
