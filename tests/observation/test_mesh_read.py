"""The one mesh read behind the fingerprint, L1 and L2: exact arrays, fingerprint sensitivity,
connected components against a plain union-find, and the read reused by the region index."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from samConstants import BEAM, QUAD, TRI

from sam_plugin.compilers.protocol import Target
from sam_plugin.runtime.observe import regions as observation_regions
from sam_plugin.runtime.observe.observation import observe
from sam_plugin.runtime.observe.regions import (
    RegionIndexCache,
    build_region_index,
    region_index,
)
from sam_plugin.samops import readback
from sam_plugin.samops.readback import geometry_fingerprint, read_mesh


def fake_part(nodes: list[tuple[int, tuple[float, ...]]],
              elements: list[tuple[int, str, tuple[int, ...]]]) -> Any:
    """A part as plain objects (lists, strings): not the stub's storage, same public shape."""
    return SimpleNamespace(
        nodes=[SimpleNamespace(label=label, coordinates=list(xyz)) for label, xyz in nodes],
        elements=[SimpleNamespace(label=label, type=shape, connectivity=list(conn))
                  for label, shape, conn in elements],
    )


def test_read_mesh_of_a_mixed_part_with_sparse_labels(model: Any) -> None:
    part = model.Part("Mixed")
    made = [part.Node(coordinates=(float(i), -1.0, 0.5), label=10 + 7 * i) for i in range(5)]
    part.Element(nodes=made[:4], elemShape=QUAD, label=3)
    part.Element(nodes=made[2:5], elemShape=TRI, label=40)
    part.Element(nodes=(made[0], made[4]), elemShape=BEAM, label=41)
    mesh = read_mesh(part)
    assert mesh.node_labels.tolist() == [10, 17, 24, 31, 38]
    assert mesh.coordinates.tolist() == [[float(i), -1.0, 0.5] for i in range(5)]
    assert mesh.element_labels.tolist() == [3, 40, 41]
    assert mesh.shape_names == ("BEAM", "QUAD", "TRI")
    assert mesh.shape_codes.tolist() == [1, 2, 0]
    assert mesh.offsets.tolist() == [0, 4, 7, 9]
    assert mesh.connectivity.tolist() == [10, 17, 24, 31, 24, 31, 38, 10, 38]


def test_large_labels_and_list_containers_read_exactly() -> None:
    """Labels beyond 32 bits and connectivity given as lists read the same as small ones."""
    big = 2**40
    nodes = [(big + i, (float(i), 2.0, -0.0)) for i in range(4)]
    slow = read_mesh(fake_part(nodes, [(big, "QUAD", (big, big + 1, big + 2, big + 3))]))
    assert slow.node_labels.tolist() == [big + i for i in range(4)]
    assert slow.connectivity.tolist() == [big, big + 1, big + 2, big + 3]
    small = [(i + 1, xyz) for i, (_, xyz) in enumerate(nodes)]
    stub_like = SimpleNamespace(
        nodes=tuple(SimpleNamespace(label=label, coordinates=tuple(xyz)) for label, xyz in small),
        elements=tuple([SimpleNamespace(label=1, type="QUAD", connectivity=(1, 2, 3, 4))]))
    as_lists = fake_part(small, [(1, "QUAD", (1, 2, 3, 4))])
    assert geometry_fingerprint(stub_like) == geometry_fingerprint(as_lists)


mesh_parts = st.integers(min_value=2, max_value=12).flatmap(lambda n: st.tuples(
    st.lists(st.tuples(st.sampled_from([-2.0, -1.0, 0.0, 0.5, 1.0, 1e-9, 1e6]),
                       st.floats(-10, 10), st.floats(-10, 10)), min_size=n, max_size=n),
    st.lists(st.tuples(st.sampled_from(["QUAD", "TRI", "BEAM"]),
                       st.lists(st.integers(1, n), min_size=4, max_size=4)), max_size=8),
))


def _build(coordinates: list[tuple[float, float, float]],
           elements: list[tuple[str, list[int]]]) -> tuple[list[Any], list[Any]]:
    width = {"QUAD": 4, "TRI": 3, "BEAM": 2}
    nodes = [[label, list(xyz)] for label, xyz in enumerate(coordinates, start=1)]
    rows = [[label, shape, conn[: width[shape]]]
            for label, (shape, conn) in enumerate(elements, start=1)]
    return nodes, rows


@settings(max_examples=40, deadline=None)
@given(mesh_parts, st.integers(0, 10_000))
def test_fingerprint_changes_with_any_single_change(mesh: Any, pick: int) -> None:
    nodes, rows = _build(*mesh)
    before = geometry_fingerprint(fake_part(nodes, rows))
    assert geometry_fingerprint(fake_part(nodes, rows)) == before  # deterministic
    changes = ["node_label", "coordinate"] + (["element_label", "shape", "node"] if rows else [])
    change = changes[pick % len(changes)]
    if change == "node_label":
        nodes[pick % len(nodes)][0] = 10_000 + pick
    elif change == "coordinate":
        xyz = nodes[pick % len(nodes)][1]
        axis = pick % 3
        # -1.0 -> -2.0 is the pair that Python's own float hash cannot tell apart
        xyz[axis] = -2.0 if xyz[axis] == -1.0 else np.nextafter(xyz[axis], np.inf)
    else:
        row = rows[pick % len(rows)]
        if change == "element_label":
            row[0] = 10_000 + pick
        elif change == "shape":
            row[1] = {"QUAD": "TRI", "TRI": "BEAM", "BEAM": "QUAD"}[row[1]]
        else:
            conn = row[2]
            conn[pick % len(conn)] = conn[pick % len(conn)] % len(nodes) + 1 if len(
                nodes) > 1 else 1
            if len(nodes) == 1:
                return
    assert geometry_fingerprint(fake_part(nodes, rows)) != before, change


def _plain_components(node_count: int, rows: list[list[int]]) -> list[int]:
    parent = list(range(node_count))

    def find(x: int) -> int:
        while parent[x] != x:
            x = parent[x]
        return x

    for row in rows:
        for other in row[1:]:
            a, b = find(row[0]), find(other)
            parent[max(a, b)] = min(a, b)
    return [find(x) for x in range(node_count)]


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 60).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.lists(st.integers(0, n - 1), min_size=2, max_size=4),
                         min_size=1, max_size=50))))
def test_component_roots_match_a_plain_union_find(graph: Any) -> None:
    node_count, rows = graph
    offsets = np.cumsum([0] + [len(row) for row in rows])
    positions = np.array([p for row in rows for p in row], dtype=np.int64)
    roots = observation_regions._component_roots(node_count, positions, offsets,
                                                 positions[offsets[:-1]])
    assert roots.tolist() == _plain_components(node_count, rows)


def test_equal_components_rank_by_lowest_label_whatever_the_node_order(model: Any) -> None:
    part = model.Part("Beams")
    # node order 50, 40, 30, 20: the second beam holds the lowest label
    a, b, c, d = (part.Node(coordinates=(float(i), 0.0, 0.0), label=label)
                  for i, label in enumerate((50, 40, 30, 20)))
    part.Element(nodes=(a, b), elemShape=BEAM, label=1)
    part.Element(nodes=(c, d), elemShape=BEAM, label=2)
    index = build_region_index(part, "fp")
    assert [(c.id, c.node_labels, c.element_labels) for c in index.components] == [
        (1, (20, 30), (2, 2)), (2, (40, 50), (1, 1))]


def test_region_index_reuses_the_observations_read(db: Any, grid: Any, host: Any,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    part = db.models["Model-1"].Part("Plate")
    grid(part, 5, 4)
    part.Set("EDGE", nodes=part.nodes[:5])
    observed = observe(host(db), "part", Target(model_name="Model-1", part_name="Plate"))
    expected = build_region_index(part, observed.fingerprint)

    def no_second_read(_part: Any) -> Any:
        raise AssertionError("the part was read again")

    monkeypatch.setattr(observation_regions, "read_mesh", no_second_read)
    assert region_index(part, observed.fingerprint, cache=RegionIndexCache()) == expected
    with pytest.raises(AssertionError, match="read again"):  # an unknown fingerprint reads
        region_index(part, "another", cache=RegionIndexCache())


def test_recent_meshes_are_bounded() -> None:
    mesh = read_mesh(fake_part([(1, (0.0, 0.0, 0.0))], []))
    for number in range(10):
        readback.remember_mesh(f"fp-{number}", mesh)
    assert readback.recent_mesh("fp-9") is mesh
    assert readback.recent_mesh("fp-0") is None


@pytest.mark.parametrize("labels", [[5, 6, 7, 8], [40, 10, 30, 20]])
def test_label_positions_for_runs_and_scattered_labels(labels: list[int]) -> None:
    places = observation_regions._Positions(np.array(labels))
    wanted = np.array(sorted(labels, reverse=True))
    assert places(wanted).tolist() == [labels.index(label) for label in wanted.tolist()]
    assert places.ascending == (labels == sorted(labels))
    with pytest.raises(ValueError) as caught:
        places(np.array([labels[0], 99]))
    assert str(caught.value) == ("node label 99 is used by an element or set but is not a "
                                 "node of the part")


def test_a_re_read_sees_every_change_of_a_stub_part(model: Any) -> None:
    """Moved, deleted, re-created and re-shaped entities all show in the next read."""
    part = model.Part("Edited")
    made = [part.Node(coordinates=(float(i), 0.0, 0.0)) for i in range(6)]
    part.Element(nodes=made[:4], elemShape=QUAD)
    read_mesh(part)
    part.editNode(nodes=part.nodes[1:2], coordinates=((1.0, 0.0, -0.0),))
    assert read_mesh(part).coordinates.tolist()[1] == [1.0, 0.0, 0.0]
    assert str(read_mesh(part).coordinates[1][2]) == "-0.0"
    last = part.nodes[5]
    part.deleteNode(nodes=part.nodes[5:6])
    part.Node(coordinates=last.coordinates, label=77)
    assert read_mesh(part).node_labels.tolist() == [1, 2, 3, 4, 5, 77]
    part.deleteElement(elements=part.elements[0:1])
    part.Element(nodes=made[:3], elemShape=TRI, label=1)
    again = read_mesh(part)
    assert again.shape_names == ("TRI",) and again.element_labels.tolist() == [1]
    assert again.connectivity.tolist() == [1, 2, 3]
    other = model.Part("Other")  # another part's read in between
    other.Node(coordinates=(0.0, 0.0, 0.0))
    read_mesh(other)
    assert read_mesh(part).node_labels.tolist() == [1, 2, 3, 4, 5, 77]


def test_a_re_read_sees_a_label_or_shape_changed_on_the_same_entity(model: Any) -> None:
    """The memo of reads reuses values by the identity of immutable values only: an entity
    whose label or shape a (faulty) host changed in place reads back changed."""
    from sam.mesh import _set_element_type, _set_node_label

    part = model.Part("InPlace")
    made = [part.Node(coordinates=(float(i), 0.0, 0.0)) for i in range(4)]
    part.Element(nodes=made, elemShape=QUAD)
    first = read_mesh(part)
    _set_node_label(made[3], 40)
    _set_element_type(part.elements[0], TRI)
    again = read_mesh(part)
    assert again.node_labels.tolist() == [1, 2, 3, 40]
    assert again.shape_names == ("TRI",)
    assert geometry_fingerprint(part) != first.fingerprint()


def test_a_re_read_hashes_again_only_what_changed_and_agrees_with_a_cold_read(
        model: Any) -> None:
    """A re-read takes over the buckets the last read hashed of unchanged records
    (``PartMesh.carry_digests``); its fingerprint is the one a cold read computes, for moved
    nodes in one bucket or several, a NaN refused as in a cold read."""
    from sam.mesh import move_node

    from sam_plugin.errors import NonFiniteValue
    from sam_plugin.samops.mesh_read import forget_reads

    part = model.Part("Carried")
    made = [part.Node(coordinates=(float(i % 50), float(i // 50), 0.0)) for i in range(3000)]
    for i in range(0, 2900, 7):
        part.Element(nodes=(made[i], made[i + 1], made[i + 51], made[i + 50]), elemShape=QUAD)
    first = read_mesh(part)
    first.fingerprint()
    for labels in ([5], [3, 1500, 2999], list(range(1000, 1100))):
        for label in labels:
            node = part.nodes.getFromLabel(label)
            move_node(node, (node.coordinates[0], node.coordinates[1], 0.5))
        warm = read_mesh(part)
        assert "_node_buckets" in warm.__dict__ and "_element_buckets" in warm.__dict__
        warm_text = warm.fingerprint()
        forget_reads()
        assert read_mesh(part).fingerprint() == warm_text
    move_node(part.nodes.getFromLabel(9), (0.0, float("nan"), 0.0))
    with pytest.raises(NonFiniteValue, match="node 9: y = nan"):
        read_mesh(part).fingerprint()


def test_a_read_keeps_no_part_alive_once_another_part_is_read(model: Any) -> None:
    """The memo keeps values, never entities (which hold their part): a part the host drops
    goes, though its read was kept; only the very last read keeps its entities."""
    import gc
    import weakref

    from sam_plugin.samops.gc_pause import release
    from sam_plugin.samops.mesh_read import last_read

    part = model.Part("Dropped")
    part.Node(coordinates=(0.0, 0.0, 0.0))
    read_mesh(part)
    assert last_read(part) is not None and last_read(part)[0].nodes is not None
    gone = weakref.ref(part)
    other = model.Part("Other")
    other.Node(coordinates=(1.0, 0.0, 0.0))
    read_mesh(other)
    assert last_read(part) is None
    del model.parts["Dropped"]
    del part
    release()  # what the reads froze goes back to the collector (samops.gc_pause)
    gc.collect()
    assert gone() is None
