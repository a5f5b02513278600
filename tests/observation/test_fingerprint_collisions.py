"""The part fingerprint against crafted changes (docs/architecture.md §5, I16).

A change crafted against the combination of the fingerprint — two fields of one record that
cancel in a weighted sum, two entities that trade values, a record moved to another bucket —
must change the fingerprint; the host's order must not; and the after-fingerprint a plan
predicts from the touched entities alone must be the fingerprint of the part as it ends.
The generators (``tests/support/collisions.py``) made every one of these changes pass the
weighted sum the fingerprint was before it was a hash.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sam_plugin.compilers.predicted_part import scoped
from sam_plugin.errors import NonFiniteValue
from sam_plugin.samops.fingerprint import SHIFT, Fingerprint
from sam_plugin.samops.mesh_read import mesh_of
from sam_plugin.samops.part_contents import Keyed, PartContents
from sam_plugin.samops.part_scope import Scope, labels_array
from tests.support.collisions import (
    bits,
    compensated,
    connectivity_weighted,
    shifted_connectivity,
    value_of,
    weighted,
)

Point = tuple[float, float, float]


@dataclass
class Part:
    """A part as plain records, in a host's order."""

    nodes: dict[int, Point]
    elements: dict[int, tuple[int, ...]]
    sets: dict[str, list[int]] = field(default_factory=dict)  # element sets
    order: list[int] | None = None  # the host's order of the nodes (None: by label)

    def contents(self) -> PartContents:
        labels = self.order or sorted(self.nodes)
        nodes = [SimpleNamespace(label=k, coordinates=self.nodes[k]) for k in labels]
        elements = [SimpleNamespace(label=k, type="QUAD", connectivity=row)
                    for k, row in self.elements.items()]
        return PartContents(mesh=mesh_of(nodes, elements), set_names=tuple(self.sets),
                            set_elements=Keyed.of(list(self.sets.items())))


coordinate = st.floats(-1e3, 1e3, allow_nan=False).filter(lambda v: abs(v) > 1e-6)


@st.composite
def parts(draw: Any) -> Part:
    labels = sorted(draw(st.sets(st.integers(1, 5 << SHIFT), min_size=5, max_size=40)))
    nodes = {k: (draw(coordinate), draw(coordinate), draw(coordinate)) for k in labels}
    count = draw(st.integers(2, 12))
    elements = {e: tuple(draw(st.permutations(labels))[:4]) for e in
                sorted(draw(st.sets(st.integers(1, 3 << SHIFT), min_size=count,
                                    max_size=count)))}
    members = sorted(elements)
    return Part(nodes, elements, {"A": members[: len(members) // 2], "B": members[1:]})


def _moved_node(part: Part, pick: int, axis: int) -> Part:
    """Two fields of one node: +11 on one axis, the others nudged to keep the weighted sum."""
    label = sorted(part.nodes)[pick % len(part.nodes)]
    was = part.nodes[label]
    now = compensated(was, axis, was[axis] + 11.0)
    assert weighted(now) == weighted(was)
    return replace(part, nodes={**part.nodes, label: now})


def _shifted_element(part: Part, pick: int, positions: tuple[int, int], step: int) -> Part:
    """Two fields of one element: connectivity positions that cancel in the weighted sum."""
    label = sorted(part.elements)[pick % len(part.elements)]
    row = part.elements[label]
    now = shifted_connectivity(row, *positions, step)
    assert connectivity_weighted(now) == connectivity_weighted(row)
    return replace(part, elements={**part.elements, label: now})


def _traded_bits(part: Part, pick: int, delta: int) -> Part:
    """Two entities: one node's x bits up by ``delta``, another's down by as much."""
    a, b = (sorted(part.nodes)[(pick + i) % len(part.nodes)] for i in (0, 1))
    pa, pb = part.nodes[a], part.nodes[b]
    return replace(part, nodes={**part.nodes, a: (value_of(bits(pa[0]) + delta), *pa[1:]),
                                b: (value_of(bits(pb[0]) - delta), *pb[1:])})


def _swapped_points(part: Part, pick: int) -> Part:
    """Two entities: two nodes trade their coordinates."""
    a, b = (sorted(part.nodes)[(pick + i) % len(part.nodes)] for i in (0, 1))
    return replace(part, nodes={**part.nodes, a: part.nodes[b], b: part.nodes[a]})


def _swapped_rows(part: Part, pick: int) -> Part:
    """Two entities: two elements trade their connectivity."""
    a, b = (sorted(part.elements)[(pick + i) % len(part.elements)] for i in (0, 1))
    return replace(part, elements={**part.elements, a: part.elements[b],
                                   b: part.elements[a]})


def _traded_members(part: Part, pick: int) -> Part:
    """Two records of two sets: a member moves from A to B and another from B to A."""
    a, b = list(part.sets["A"]), list(part.sets["B"])
    x = next(k for k in a if k not in b)
    y = next(k for k in b if k not in a)
    return replace(part, sets={"A": [k for k in a if k != x] + [y],
                               "B": [k for k in b if k != y] + [x]})


def _relabelled(part: Part, pick: int) -> Part:
    """A node whose label moves by one bucket, its coordinates kept."""
    label = sorted(part.nodes)[pick % len(part.nodes)]
    moved = label + (1 << SHIFT)
    if moved in part.nodes:
        moved = max(part.nodes) + 1
    nodes = dict(part.nodes)
    nodes[moved] = nodes.pop(label)
    return replace(part, nodes=nodes)


@st.composite
def crafted(draw: Any) -> tuple[str, Part, Part]:
    part = draw(parts())
    pick = draw(st.integers(0, 10**6))
    kind = draw(st.sampled_from(["node", "element", "traded bits", "swapped points",
                                 "swapped rows", "traded members", "relabelled"]))
    changes: dict[str, Callable[[], Part]] = {
        "node": lambda: _moved_node(part, pick, draw(st.integers(0, 2))),
        "element": lambda: _shifted_element(
            part, pick, draw(st.sampled_from([(0, 1), (0, 2), (1, 2), (1, 3), (2, 3)])),
            draw(st.integers(-3, 3).filter(bool))),
        "traded bits": lambda: _traded_bits(part, pick, draw(st.integers(1, 1 << 20))),
        "swapped points": lambda: _swapped_points(part, pick),
        "swapped rows": lambda: _swapped_rows(part, pick),
        "traded members": lambda: _traded_members(part, pick),
        "relabelled": lambda: _relabelled(part, pick),
    }
    return kind, part, changes[kind]()


def _differs(before: Part, after: Part) -> bool:
    return (before.nodes != after.nodes or before.elements != after.elements
            or {k: sorted(v) for k, v in before.sets.items()}
            != {k: sorted(v) for k, v in after.sets.items()})


@settings(max_examples=300, deadline=None)
@given(case=crafted())
def test_a_change_crafted_against_the_combination_changes_the_fingerprint(
        case: tuple[str, Part, Part]) -> None:
    kind, before, after = case
    if not _differs(before, after):
        return  # e.g. two equal points swapped: nothing changed
    assert before.contents().digest() != after.contents().digest(), kind


@settings(max_examples=100, deadline=None)
@given(part=parts(), seed=st.integers(0, 2**32 - 1))
def test_the_hosts_order_does_not_count(part: Part, seed: int) -> None:
    order = sorted(part.nodes)
    np.random.default_rng(seed).shuffle(order)
    elements = dict(reversed(list(part.elements.items())))
    shuffled = replace(part, order=order, elements=elements,
                       sets={k: list(reversed(v)) for k, v in reversed(part.sets.items())})
    assert shuffled.contents().digest() == part.contents().digest()


@settings(max_examples=200, deadline=None)
@given(case=crafted())
def test_the_predicted_after_fingerprint_is_the_fingerprint_of_the_part_as_it_ends(
        case: tuple[str, Part, Part]) -> None:
    """The plan's update (the touched buckets hashed again from the before read and the
    touched entities alone) equals hashing the whole part after the change."""
    _, before, after = case
    moved = {k for k in before.nodes if before.nodes[k] != after.nodes.get(k)}
    rows = {k for k in before.elements if before.elements[k] != after.elements.get(k)}
    sets = {k for k in before.sets if sorted(before.sets[k]) != sorted(after.sets.get(k, []))}
    scope = Scope(prior_nodes=labels_array(before.nodes), prior_elements=labels_array(
        before.elements), nodes=labels_array(moved), elements=labels_array(rows),
        sets=frozenset(sets))
    ends = after.contents()
    image = scope.inside(ends)
    predicted = scoped(before.contents(), scope, image)
    assert predicted.after == ends.digest()
    assert predicted.scope.rest(ends).digests.values == predicted.rest.values  # type: ignore[union-attr]


def test_a_nan_is_refused_before_hashing_and_named() -> None:
    part = Part({1: (0.0, 0.0, 0.0), 2: (1.0, 0.0, 0.0), 3: (1.0, 1.0, 0.0),
                 4: (0.0, 1.0, float("nan"))}, {1: (1, 2, 3, 4)})
    with pytest.raises(NonFiniteValue) as refused:
        part.contents().digest()
    assert refused.value.entities == ["node 4: z = nan"]
    assert str(refused.value) == "non-finite value: node 4: z = nan"


def test_the_text_form_is_kept() -> None:
    part = Part({1: (0.0, 0.0, 0.0), 2: (1.0, 0.0, 0.0), 3: (1.0, 1.0, 0.0),
                 4: (0.0, 1.0, 0.0)}, {1: (1, 2, 3, 4)})
    text = str(part.contents().digest())
    assert text.startswith("4n-1e-") and len(text.split("-")[2]) == 32
    assert str(Fingerprint.parse(text)) == text
    assert Fingerprint.parse("4n-1e-" + "0" * 31) is None
