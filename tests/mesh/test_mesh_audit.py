"""mesh_audit: quality measures, size histogram, hanging nodes and free edges."""

from __future__ import annotations

import json
import math

import pytest

from sam_plugin.samops.mesh_audit import audit_mesh, element_quality, size_histogram
from sam_plugin.samops.mesh_ops import MeshData


def test_rectangle_quality() -> None:
    q = element_quality("QUAD", [(0, 0, 0), (2, 0, 0), (2, 1, 0), (0, 1, 0)])
    assert q["aspect_ratio"] == 2.0
    assert (q["min_angle"], q["max_angle"]) == pytest.approx((90.0, 90.0))
    assert q["warping"] == 0.0
    assert q["inverted"] is False
    assert q["size"] == 1.5


def test_skewed_quad_angles() -> None:
    q = element_quality("QUAD", [(0, 0, 0), (1, 0, 0), (2, 1, 0), (1, 1, 0)])
    assert q["min_angle"] == pytest.approx(45.0)
    assert q["max_angle"] == pytest.approx(135.0)
    assert q["aspect_ratio"] == pytest.approx(math.sqrt(2))


def test_warped_quad() -> None:
    q = element_quality("QUAD", [(0, 0, 0), (1, 0, 0), (1, 1, 0.5), (0, 1, 0)])
    assert q["warping"] > 20.0
    assert q["inverted"] is False


@pytest.mark.parametrize("points", [
    [(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)],  # bow-tie
    [(0, 0, 0), (2, 0, 0), (0.5, 0.5, 0), (0, 2, 0)],  # concave (re-entrant corner)
])
def test_inverted_quads(points) -> None:
    assert element_quality("QUAD", points)["inverted"] is True


def test_degenerate_tri_and_beam() -> None:
    assert element_quality("TRI", [(0, 0, 0), (1, 0, 0), (2, 0, 0)])["inverted"] is True
    assert element_quality("BEAM", [(1, 1, 1), (1, 1, 1)])["inverted"] is True
    assert element_quality("TRI", [(0, 0, 0), (1, 0, 0), (0, 1, 0)])["inverted"] is False


def test_histogram_bins() -> None:
    bins = size_histogram([1.0, 1.0, 2.0, 3.0], bins=2)
    assert bins == [{"from": 1.0, "to": 2.0, "count": 2}, {"from": 2.0, "to": 3.0, "count": 2}]
    assert size_histogram([4.0, 4.0]) == [{"from": 4.0, "to": 4.0, "count": 2}]
    assert size_histogram([]) == []


def test_audit_of_mixed_mesh_with_a_hanging_node() -> None:
    # a coarse quad next to two fine quads: node 7 hangs on the coarse quad's right edge
    nodes = {1: (0.0, 0.0, 0.0), 2: (1.0, 0.0, 0.0), 3: (1.0, 1.0, 0.0), 4: (0.0, 1.0, 0.0),
             5: (2.0, 0.0, 0.0), 6: (2.0, 1.0, 0.0), 7: (1.0, 0.5, 0.0), 8: (2.0, 0.5, 0.0),
             9: (3.0, 0.0, 0.0)}
    elements = {1: ("QUAD", (1, 2, 3, 4)), 2: ("QUAD", (2, 5, 8, 7)),
                3: ("QUAD", (7, 8, 6, 3)), 4: ("BEAM", (5, 9))}
    report = audit_mesh(MeshData(nodes=nodes, elements=elements))
    assert report["hanging_nodes"] == {"count": 1, "labels": [7]}
    # boundary: 3 edges of quad 1 + 4 outer edges of the fine pair (the shared 2-3 border
    # and its halves 2-7, 7-3 are the refinement border, not free edges)
    assert report["free_edges"]["count"] == 7
    assert report["shape_counts"] == {"QUAD": 3, "TRI": 0, "BEAM": 1}
    assert report["quality"]["aspect_ratio"] == {"min": 1.0, "max": 2.0, "mean": 5 / 3}
    assert report["quality"]["inverted_elements"] == {"count": 0, "labels": []}
    assert sum(b["count"] for b in report["element_size_histogram"]) == 4
    json.dumps(report, allow_nan=False)


def test_beam_left_unrefined_on_a_refined_edge_shows_a_hanging_node() -> None:
    nodes = {1: (0.0, 0.0, 0.0), 2: (1.0, 0.0, 0.0), 3: (0.5, 0.0, 0.0)}
    elements = {1: ("BEAM", (1, 2)), 2: ("BEAM", (1, 3)), 3: ("BEAM", (3, 2))}
    assert audit_mesh(MeshData(nodes=nodes, elements=elements))["hanging_nodes"]["count"] == 1
