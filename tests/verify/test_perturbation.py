"""One random attribute of one random entity of a planned part perturbed after the run, at 1k
and at 60k entities: verification must fail every time (docs/architecture.md §5, I16).

The plan translates set ``S`` (100 QUADs); the perturbed entity is drawn from the whole part,
touched or not: a coordinate, an element's connectivity or shape, a set's members, a section
assignment's section, a beam orientation's n1, or a material or section value."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sam_plugin.compilers.part import MODULE as PART
from sam_plugin.runtime.verify.verifier import all_passed

from .conftest import Planned, build_hull, plan_and_run
from .test_every_attribute import TRANSLATE_S

KINDS = ("coordinate", "connectivity", "shape", "set member", "section", "n1", "definition")


def _planned(tmp_path: Path, side: int) -> tuple[Any, Planned]:
    import sam
    from sam.database import Mdb

    sam.mdb = Mdb()
    build_hull(sam.mdb.models["Model-1"], side)
    planned = plan_and_run(sam, PART, TRANSLATE_S, tmp_path, "translate set S")
    assert all_passed(planned.verify())
    return sam, planned


@pytest.fixture(scope="module", params=[32, 245], ids=["1k", "60k"])
def planned(request: Any, tmp_path_factory: Any) -> Any:
    import sam

    saved = sam.mdb
    yield _planned(tmp_path_factory.mktemp("plan"), request.param)
    sam.mdb = saved


Undo = Callable[[], None]


def _perturb(part: Any, model: Any, kind: str, pick: int, delta: float) -> tuple[str, Undo]:
    """Change one attribute of the ``pick``-th entity of its kind; says what it did, and how
    to put it back (cheaper than a snapshot restore that rebuilds the host's order)."""
    from sam.mesh import _set_element_type, repoint_element
    from samConstants import TRI

    nodes, elements = part.nodes, part.elements
    if kind == "coordinate":
        node = nodes[pick % len(nodes)]
        was = node.coordinates
        point = list(was)
        point[pick % 3] += delta
        part.editNode(nodes=[node], coordinates=[tuple(point)])
        return f"node {node.label} axis {pick % 3} by {delta}", lambda: part.editNode(
            nodes=[node], coordinates=[was])
    if kind == "connectivity":
        element = elements[pick % len(elements)]
        conn = element.connectivity
        used = set(conn)
        other = next(n.label for n in nodes[(pick * 7) % len(nodes):] if n.label not in used) \
            if pick % 2 else None
        repoint_element(element, (*conn[1:], conn[0]) if other is None else (other, *conn[1:]))
        return f"element {element.label} connectivity", lambda: repoint_element(element, conn)
    if kind == "shape":  # a host that mislabels the element's shape
        element = elements[pick % len(elements)]
        shape = element.type
        _set_element_type(element, TRI)
        return f"element {element.label} made TRI", lambda: _set_element_type(element, shape)
    if kind == "set member":
        name = sorted(part.sets.keys())[pick % len(part.sets.keys())]
        region = part.sets[name]
        keyword = "nodes" if len(region.nodes) else "elements"
        members = list(getattr(region, keyword))
        part.Set(name=name, **{keyword: members[:pick % len(members)] +
                               members[pick % len(members) + 1:]})
        return f"set {name} lost a member", lambda: part.Set(name=name, **{keyword: members})
    if kind == "section":
        entry = part.sectionAssignments[pick % len(part.sectionAssignments)]
        was_name = entry.sectionName
        entry.setValues(sectionName="Shell-9" if was_name != "Shell-9" else "Shell-5")
        return "a section renamed", lambda: entry.setValues(sectionName=was_name)
    if kind == "n1":
        orientation = part.beamOrientations[0]
        n1 = orientation.n1
        orientation.setValues(n1=(n1[0], n1[1] + abs(delta), n1[2]))
        return "n1 turned", lambda: orientation.setValues(n1=n1)
    if pick % 2:
        material = model.materials["Steel"]
        material.Elastic(table=((210000.0 + abs(delta), 0.3),))
        return "E changed", lambda: material.Elastic(table=((210000.0, 0.3),))
    model.HomogeneousShellSection(name="Shell-5", material="Steel", thickness=5.0 + abs(delta))
    return "thickness changed", lambda: model.HomogeneousShellSection(
        name="Shell-5", material="Steel", thickness=5.0)


@settings(max_examples=16, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(KINDS), pick=st.integers(0, 10**9),
       delta=st.floats(0.01, 10.0) | st.floats(-10.0, -0.01))
def test_any_one_perturbation_fails_verification(planned: Any, kind: str, pick: int,
                                                 delta: float) -> None:
    sam, plan = planned
    model = sam.mdb.models["Model-1"]
    did, undo = _perturb(plan.part, model, kind, pick, delta)
    try:
        checks = plan.verify()
        assert not all_passed(checks), f"{did}: verified"
    finally:
        undo()
    assert all_passed(plan.verify()), f"{did}: put back, the plan holds again"


def test_every_kind_is_drawn() -> None:
    assert set(KINDS) == {"coordinate", "connectivity", "shape", "set member", "section", "n1",
                          "definition"}

