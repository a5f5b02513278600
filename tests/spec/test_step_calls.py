"""Calls computed from the steps (docs/architecture.md §4 "Calls from the steps"), for every
action of every mode: the calls a domain computes from a step compile on the part (shadow run
included) and bind to that very step, whatever its values and scope. Binding stays the
independent check of the inverse: a computed call that contradicted its step would fail here.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sam_plugin.compilers import registry
from sam_plugin.compilers.protocol import Target
from sam_plugin.compilers.spec.reading import spec_from_json
from tests.support.pipeline import Pipeline, fresh_database
from tests.support.plates import quad_plate
from tests.support.specs import step

# authorizes what a request must ask for: sets, duplicate deletion, a full replacement
REQUEST = ("Delete everything and replace it, create an element set, delete duplicate "
           "elements, as the spec says.")
N = 4  # a 4 x 4 unit plate: nodes 1-25, elements 1-16, set S1 = elements 1-4
SETTINGS = settings(max_examples=12, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

coordinate = st.integers(-20, 20).map(float) | st.floats(-20, 20, allow_nan=False).map(
    lambda x: round(x, 3))
point = st.tuples(coordinate, coordinate, coordinate).map(list)
axis = st.sampled_from([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0]])
far = st.tuples(st.sampled_from([-1, 1]), st.integers(10, 40)).map(lambda t: t[0] * t[1])


def _scopes(members: str) -> st.SearchStrategy[dict[str, Any]]:
    count = N * N if members != "nodes" else (N + 1) ** 2
    labels = st.lists(st.integers(1, count), min_size=1, max_size=5, unique=True)
    return st.one_of(
        st.just({"by": "all"}),
        labels.map(lambda ls: {"by": "labels", "labels": ls}),
        st.just({"by": "set", "name": "S1"}),
        st.just({"by": "shape", "shape": "QUAD"}),
        st.tuples(st.integers(0, 1), st.integers(2, 4)).map(
            lambda t: {"by": "box", "min": [t[0], t[0], 0], "max": [t[1], t[1], 0]}))


def _square(x: float, y: float, shape: str = "QUAD") -> dict[str, Any]:
    corners = [[x, y, 0.0], [x + 1, y, 0.0], [x + 1, y + 1, 0.0], [x, y + 1, 0.0]]
    return {"shape": shape, "nodes": corners[:3] if shape == "TRI" else corners}


def _patch(x: float, nu: int, nv: int, shape: str) -> dict[str, Any]:
    return {"shape": shape, "divisions": [nu, nv],
            "corners": [[x, 0, 0], [x + nu, 0, 0], [x + nu, nv, 0], [x, nv, 0]]}


geometry = st.one_of(
    st.tuples(far, st.integers(0, 3), st.sampled_from(["QUAD", "TRI"])).map(
        lambda t: {"elements": [_square(float(t[0]), float(t[1]), t[2])]}),
    st.tuples(far, st.integers(1, 3), st.integers(1, 3), st.sampled_from(["QUAD", "TRI"])).map(
        lambda t: {"patches": [_patch(float(t[0]), t[1], t[2], t[3])]}),
    st.tuples(far, st.integers(1, 5)).map(
        lambda t: {"lines": [{"start": [t[0], 0, 0], "end": [t[0], 0, 10], "divisions": t[1]}]}),
)

# mode -> action -> steps carrying that action (a list: some need a companion step)
Steps = st.SearchStrategy[list[dict[str, Any]]]


def part_steps() -> dict[str, Steps]:
    def one(action: str, scope: Any, **values: Any) -> list[dict[str, Any]]:
        return [step(action, scope, **values)]

    transform = "transform"
    return {
        "add_nodes": st.lists(st.tuples(far, coordinate, coordinate).map(list), min_size=1,
                              max_size=4, unique_by=tuple).map(
            lambda ps: one("add_nodes", None, count=len(ps), points=ps)),
        "add_elements": geometry.map(lambda g: one("add_elements", None, count=1, **g)),
        "delete_elements": _scopes("elements").map(lambda s: one("delete_elements", s)),
        "delete_nodes": st.lists(st.integers(1, (N + 1) ** 2), min_size=1, max_size=4,
                                 unique=True).map(
            lambda ls: one("delete_nodes", {"by": "labels", "labels": ls})),
        "move_nodes": st.lists(st.integers(1, (N + 1) ** 2), min_size=1, max_size=3,
                               unique=True).map(lambda ls: one(
            "move_nodes", None, labels=ls, to=[[100.0 + i, 5.0, 1.0] for i in range(len(ls))])),
        "create_set": st.one_of(
            _scopes("elements").map(lambda s: one("create_set", s, name="PICKED")),
            geometry.map(lambda g: [step("add_elements", count=1, **g),
                                    step("create_set", name="NEW")])),
        "clear_all": geometry.map(lambda g: [step("clear_all"),
                                             step("add_elements", count=1, **g)]),
        "translate": st.tuples(_scopes(transform), point.filter(any)).map(
            lambda t: one("translate", t[0], vector=t[1])),
        "translate_copy": st.tuples(_scopes(transform), far).map(
            lambda t: one("translate_copy", t[0], vector=[t[1], 0, 0])),
        "rotate": st.tuples(_scopes(transform), st.integers(-180, 180), axis, point).map(
            lambda t: one("rotate", t[0], angle_deg=t[1], axis=t[2], origin=t[3])),
        "mirror": st.tuples(_scopes(transform), st.booleans(), axis, point).map(
            lambda t: one("mirror", t[0], copy=t[1], normal=t[2],
                          origin=[t[3][0] + 50, t[3][1], t[3][2]])),
        "scale": st.tuples(_scopes(transform), st.sampled_from([0.5, 2, 3.25]), point).map(
            lambda t: one("scale", t[0], factor=t[1], origin=t[2])),
        "linear_array": st.tuples(_scopes(transform), st.integers(2, 4), far).map(
            lambda t: one("linear_array", t[0], count=t[1], vector=[t[2], 0, 0])),
        "merge_nodes": st.sampled_from([1e-6, 1e-3, 0.01]).map(
            lambda tol: one("merge_nodes", None, tolerance=tol)),
        "delete_free_nodes": st.just(one("delete_free_nodes", None)),
        "delete_duplicate_elements": st.just(one("delete_duplicate_elements", None)),
        "audit": st.lists(st.sampled_from(["counts", "free_nodes", "quality"]), max_size=3,
                          unique=True).map(
            lambda cs: one("audit", None, **({"checks": cs} if cs else {}))),
    }


def build_steps() -> Steps:
    rectangle = st.tuples(st.sampled_from(["QUAD", "TRI"]), st.integers(1, 50),
                          st.integers(1, 50), st.integers(1, 6), st.integers(1, 6), point).map(
        lambda t: [step("build", shape=t[0], size=[t[1], t[2]], divisions=[t[3], t[4]],
                        origin=t[5])])
    line = st.tuples(st.integers(1, 100), st.integers(1, 8)).map(
        lambda t: [step("build", shape="BEAM", size=[t[0]], divisions=[t[1]])])
    listed = geometry.map(lambda g: [step("build", sets=["ALL_NEW"], **g)])
    return st.one_of(rectangle, line, listed)


def property_steps() -> dict[str, Steps]:
    material = st.tuples(st.integers(1000, 300000), st.sampled_from([0.0, 0.25, 0.3, 0.49]),
                         st.sampled_from([None, 7.85e-9, 2.7e-9])).map(
        lambda t: step("define_material", mode="property", name="Mat", E=t[0], nu=t[1],
                       **({"density": t[2]} if t[2] else {})))
    profile = st.one_of(
        st.tuples(st.integers(1, 50), st.integers(1, 50)).map(
            lambda t: {"shape": "rectangle", "a": t[0], "b": t[1]}),
        st.integers(1, 20).map(lambda r: {"shape": "circle", "r": r}),
        st.integers(2, 20).map(lambda r: {"shape": "pipe", "r": r, "t": 1}))
    shell = st.integers(1, 20).map(lambda t: step(
        "define_section", mode="property", name="Shell", kind="shell", material="Mat",
        thickness=t))
    beam = profile.map(lambda p: step("define_section", mode="property", name="Bar",
                                      kind="beam", material="Mat", profile=p))
    quads = st.sampled_from([{"by": "shape", "shape": "QUAD"}, {"by": "labels", "labels": [1]},
                             {"by": "labels", "labels": [1, 2]}])
    beams = st.sampled_from([{"by": "shape", "shape": "BEAM"}, {"by": "labels", "labels": [4]}])
    return {
        "define_material": material.map(lambda m: [m]),
        "define_section": st.tuples(material, shell | beam).map(list),
        "assign_section": st.tuples(material, shell, quads).map(lambda t: [
            t[0], t[1], step("assign_section", t[2], mode="property", section="Shell")]),
        "orient_beams": st.tuples(material, beam, beams).map(lambda t: [
            t[0], t[1], step("assign_section", t[2], mode="property", section="Bar"),
            step("orient_beams", t[2], mode="property", n1=[0, 1, 0])]),
        "audit": st.just([step("audit", mode="property")]),
    }


def mesh_steps() -> dict[str, Steps]:
    refine = st.tuples(_scopes("elements"), st.integers(1, 2)).map(
        lambda t: step("refine", t[0], mode="mesh", levels=t[1]))
    return {"refine": refine.map(lambda s: [s]),
            "audit": st.tuples(refine, st.booleans()).map(
                lambda t: [t[0], step("audit", mode="mesh")] if t[1]
                else [step("audit", mode="mesh")])}


def load_steps() -> dict[str, Steps]:
    nodes = st.one_of(
        st.just({"by": "all"}),
        st.lists(st.integers(1, (N + 1) ** 2), min_size=1, max_size=5, unique=True).map(
            lambda ls: {"by": "labels", "labels": ls}),
        st.tuples(st.integers(0, 1), st.integers(2, 4)).map(
            lambda t: {"by": "box", "min": [t[0], t[0], 0], "max": [t[1], t[1], 0]}))
    number = st.floats(-1e3, 1e3, allow_nan=False).map(lambda x: round(x, 3))
    define = step("define_step", mode="load", name="Push")
    dofs = st.lists(st.sampled_from(["u1", "u2", "u3", "ur1", "ur2", "ur3"]), min_size=1,
                    max_size=6, unique=True)
    return {
        "define_step": st.just([define]),
        "pressure": st.tuples(_scopes("elements").filter(lambda s: s["by"] != "labels"
                                                         or max(s["labels"]) <= N * N),
                              number).map(
            lambda t: [define, step("pressure", t[0], mode="load", name="P", step="Push",
                                    magnitude=t[1])]),
        # a force of (0, 0, 0) loads nothing and is refused (compilers/load/zero_force.py)
        "force": st.tuples(nodes, number.filter(lambda x: x != 0)).map(
            lambda t: [define, step("force", t[0], mode="load", name="F", step="Push",
                                    vector=[t[1], 0, 0])]),
        "fix": st.tuples(nodes, dofs).map(
            lambda t: [step("fix", t[0], mode="load", name="B", dofs=t[1])]),
        "displace": st.tuples(nodes, number).map(
            lambda t: [define, step("displace", t[0], mode="load", name="D", step="Push",
                                    values={"u2": t[1]})]),
        "audit": st.booleans().map(
            lambda more: [define, step("audit", mode="load")] if more
            else [step("audit", mode="load")]),
    }


@contextlib.contextmanager
def _part(mode: str) -> Iterator[Any]:
    for sam in fresh_database():
        model = sam.mdb.models["Model-1"]
        if mode == "property":
            from tests.property.conftest import build_frame

            build_frame(model)
        else:
            part = quad_plate(model, "Plate", N)
            part.Set(name="S1", elements=part.elements.sequenceFromLabels([1, 2, 3, 4]))
        yield sam


def _computes_compiles_and_binds(mode: str, part_name: str, steps: list[dict[str, Any]],
                                 tmp: Path) -> None:
    module = registry.get_module(mode)
    spec = spec_from_json({"summary": "as the steps say", "steps": steps}, module.vocabulary)
    with _part(mode) as sam:
        pipe = Pipeline(module, sam, tmp, Target(model_name="Model-1", part_name=part_name))
        empty = pipe.gateway.readback(pipe.target).element_count == 0
        route = module.route_steps(spec.capabilities(), empty)
        calls = module.calls_from_steps(spec, route.tools)
        assert [c.tool for c in calls] == route.tools
        chain = pipe.chain(REQUEST, spec)
        for call in calls:
            chain.add(call.tool, call.arguments)  # compiles, shadow run, binding: or raises
        assert chain.unbound() == []
        bound_steps = sorted(b.step for _, b in chain.bound)
        mutating = [i for i, s in enumerate(spec.steps)
                    if module.vocabulary.action(s.action).mutating]  # type: ignore[union-attr]
        assert set(mutating) <= set(bound_steps)


CASES: list[tuple[str, str, Callable[[], Steps]]] = [
    *[("part", action, (lambda a=action: part_steps()[a])) for action in part_steps()],
    ("part", "build", build_steps),
    *[("property", action, (lambda a=action: property_steps()[a]))
      for action in property_steps()],
    *[("mesh", action, (lambda a=action: mesh_steps()[a])) for action in mesh_steps()],
    *[("load", action, (lambda a=action: load_steps()[a])) for action in load_steps()],
]


def test_every_action_of_every_mode_is_covered():
    for mode in registry.MODES:
        covered = {action for m, action, _ in CASES if m == mode}
        assert covered == set(registry.get_module(mode).vocabulary.names()), mode


@pytest.mark.parametrize(("mode", "action", "strategy"), CASES,
                         ids=[f"{m}-{a}" for m, a, _ in CASES])
def test_computed_calls_compile_and_bind_to_their_steps(mode, action, strategy,
                                                        tmp_path_factory):
    part_name = "Frame" if mode == "property" else ("New" if action == "build" else "Plate")

    @SETTINGS
    @given(steps=strategy())
    def check(steps: list[dict[str, Any]]) -> None:
        _computes_compiles_and_binds(mode, part_name, steps, tmp_path_factory.mktemp("run"))

    check()


def test_refining_the_same_elements_twice_says_one_step_with_the_levels_added() -> None:
    from sam_plugin.errors import StepsNotComputable
    from tests.support.specs import answer

    mesh = registry.get_module("mesh")
    twice = spec_from_json(json.loads(answer(
        step("refine", {"by": "set", "name": "CORNER"}, mode="mesh", levels=1),
        step("refine", {"by": "set", "name": "CORNER"}, mode="mesh", levels=1))),
        mesh.vocabulary)
    with pytest.raises(StepsNotComputable) as refused:
        mesh.calls_from_steps(twice, ["refine_mesh"])
    assert refused.value.message.endswith(
        "step 2 (refine set CORNER, 1 level(s)) refines the same elements again after step 1; "
        "refining them twice is one step with the levels added: make them one step of levels 2")


def test_a_step_that_counts_other_elements_than_it_gives_is_said_with_both_ways() -> None:
    """"重新铺一块 20 × 20 的板，2 × 2 个四边形单元" came as "add 4 QUAD elements" with one QUAD
    over the whole 20 × 20: it compiled as 1 element, and only the plan's claim warned."""
    from sam_plugin.errors import StepsNotComputable

    part = registry.get_module("part")
    one_for_four = spec_from_json({"summary": "s", "steps": [step(
        "add_elements", count=4, shape="QUAD", elements=[
            {"shape": "QUAD", "nodes": [[0, 0, 0], [20, 0, 0], [20, 20, 0], [0, 20, 0]]}])]},
        part.vocabulary)
    with pytest.raises(StepsNotComputable) as refused:
        part.calls_from_steps(one_for_four, ["edit_part"])
    assert refused.value.message.endswith(
        "counts 4 elements and gives 1 by their nodes: give a patch (corners, divisions "
        "[nu, nv]) or a line (start, end, divisions) that makes the 4")
    assert refused.value.needs == ("-elements",)  # asked again, it gives no elements
    as_patch = spec_from_json({"summary": "s", "steps": [step(
        "add_elements", count=4, shape="QUAD", patches=[
            {"shape": "QUAD", "corners": [[0, 0, 0], [20, 0, 0], [20, 20, 0], [0, 20, 0]],
             "divisions": [2, 2]}])]}, part.vocabulary)
    assert part.calls_from_steps(as_patch, ["edit_part"])


def test_a_step_that_gives_more_elements_than_it_counts_is_said_without_a_way_held() -> None:
    from sam_plugin.errors import StepsNotComputable

    part = registry.get_module("part")
    beam = {"shape": "BEAM", "nodes": [[0, 0, 0], [0, 0, 200]]}
    two_for_one = spec_from_json({"summary": "s", "steps": [step(
        "add_elements", count=1, shape="BEAM",
        elements=[beam, {"shape": "BEAM", "nodes": [[0, 0, 200], [0, 0, 400]]}])]},
        part.vocabulary)
    with pytest.raises(StepsNotComputable) as refused:
        part.calls_from_steps(two_for_one, ["edit_part"])
    assert refused.value.message.endswith(
        "counts 1 elements and gives 2 by their nodes: count each element it gives, and give "
        "only the elements the request asks for")
    assert refused.value.needs == ()


def test_a_step_asked_again_without_a_value_is_offered_no_such_value() -> None:
    from sam_plugin.compilers.spec.schema import ScopeBounds, one_step_schema

    part = registry.get_module("part").vocabulary
    grammar = one_step_schema(part, ScopeBounds(actions=("add_elements",)), ("-elements",))
    values = grammar["anyOf"][0]["properties"]["values"]
    assert sorted(values["properties"]) == ["count", "lines", "patches", "shape"]
