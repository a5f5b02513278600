"""``samops.part_scope.unique``: the sorted labels without repeats, whichever way it takes
(a table over a dense range, or a sort), for any int64 labels: negative, repeated, far apart,
at the ends of int64."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sam_plugin.samops.part_scope import among, labels_array, unique

INT64 = st.integers(min_value=-(2**63), max_value=2**63 - 1)


@settings(max_examples=200, deadline=None)
@given(st.lists(INT64, max_size=3000))
def test_any_labels_come_back_sorted_and_once(labels: list[int]) -> None:
    found = unique(np.array(labels, dtype=np.int64))
    assert found.dtype == np.int64
    assert found.tolist() == sorted(set(labels))


@settings(max_examples=100, deadline=None)
@given(st.integers(-10**6, 10**6), st.integers(1, 5000), st.integers(1, 6), st.randoms())
def test_a_dense_range_repeated_and_shuffled_comes_back_as_the_range(
        first: int, count: int, repeats: int, rng: object) -> None:
    labels = list(range(first, first + count)) * repeats
    rng.shuffle(labels)  # type: ignore[attr-defined]
    assert unique(np.array(labels, dtype=np.int64)).tolist() == \
        list(range(first, first + count))


def test_a_range_with_holes_keeps_its_holes() -> None:
    labels = np.array([k for k in range(1, 20_001) if k % 7] * 3, dtype=np.int64)
    assert unique(labels).tolist() == [k for k in range(1, 20_001) if k % 7]
    assert labels_array(iter([5, -3, 5])).tolist() == [-3, 5]


@settings(max_examples=300, deadline=None)
@given(st.lists(INT64, max_size=400), st.lists(INT64, max_size=200),
       st.lists(st.integers(-50, 3000), max_size=400), st.lists(st.integers(-50, 3000),
                                                                max_size=200))
def test_among_is_membership_whichever_way_it_takes(far: list[int], far_pool: list[int],
                                                    near: list[int], near_pool: list[int]
                                                    ) -> None:
    """``among``: a run by its ends, a table over a dense pool, or binary searches, for any
    labels (negative, at the ends of int64, outside the pool's span)."""
    for labels, pool in ((far, far_pool), (near, near_pool), (near + far, near_pool),
                         (near, far_pool + near_pool)):
        found = among(np.array(labels, dtype=np.int64), unique(np.array(pool, dtype=np.int64)))
        assert found.tolist() == [label in set(pool) for label in labels]
