"""Node labels to node indices for the region index: a label that is not a node of the part
is named, whether the part's labels run 1..n or not, above or below their range."""

from __future__ import annotations

import numpy as np
import pytest

from sam_plugin.runtime.observe.regions import _Positions

RUN = np.arange(1, 6, dtype=np.int64)  # labels 1..5: positions by subtraction
SCATTERED = np.array([10, 3, 7, 20], dtype=np.int64)  # positions by search


def test_labels_of_the_part_map_to_their_indices():
    assert _Positions(RUN)(np.array([5, 1, 3])).tolist() == [4, 0, 2]
    assert _Positions(SCATTERED)(np.array([20, 3, 10])).tolist() == [3, 1, 0]
    assert _Positions(RUN)(np.zeros(0, dtype=np.int64)).tolist() == []


@pytest.mark.parametrize(("labels", "asked", "named"), [
    (RUN, [2, 9, 0], 9), (RUN, [2, 0, 9], 0), (RUN, [6], 6),
    (SCATTERED, [3, 8], 8), (SCATTERED, [21, 3], 21),
])
def test_a_label_that_is_no_node_is_named(labels, asked, named):
    with pytest.raises(ValueError, match=f"^node label {named} is used by an element or set "
                                         "but is not a node of the part$"):
        _Positions(labels)(np.array(asked, dtype=np.int64))
