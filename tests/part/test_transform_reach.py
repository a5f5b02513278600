"""How far a transform carries the part's box (compilers/part/transform_reach.py): beyond
what a coordinate may hold is one line at compile, for every kind of operation."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import TypeAdapter

from sam_plugin.compilers.part.ir import TransformOp
from sam_plugin.compilers.part.transform_reach import check_reach
from sam_plugin.samops.mesh_read import node_box
from tests.support.pipeline import fresh_database
from tests.support.plates import quad_plate

fresh_sam = pytest.fixture(fresh_database)
OP: TypeAdapter[Any] = TypeAdapter(TransformOp)

# (operations, the first refused and its words, or None)
REACH = [
    ([{"op": "scale", "origin": [0, 0, 0], "factor": 1e6}], None),
    ([{"op": "scale", "origin": [0, 0, 0], "factor": 1e6}] * 2,
     "operations[1]: this scale carries coordinates to 2e+12"),
    ([{"op": "translate", "vector": [9e8, 0, 0]}] * 2,
     "operations[1]: this translate carries coordinates to 1.8e+09"),
    ([{"op": "linear_array", "vector": [2e7, 0, 0], "count": 100}],
     "operations[0]: this linear_array carries coordinates to 1.98e+09"),
    ([{"op": "rotate", "origin": [6e8, 0, 0], "axis": [0, 0, 1], "angle_deg": 180}],
     "operations[0]: this rotate carries coordinates to 1.2e+09"),
    ([{"op": "mirror", "origin": [6e8, 0, 0], "normal": [1, 0, 0], "copy": True}],
     "operations[0]: this mirror carries coordinates to 1.2e+09"),
    ([{"op": "rotate", "origin": [1, 1, 0], "axis": [0, 0, 1], "angle_deg": 90},
      {"op": "translate_copy", "vector": [5, 5, 0]}], None),
]


@pytest.mark.parametrize(("operations", "refused"), REACH)
def test_a_transform_beyond_the_coordinate_limit_is_one_line(fresh_sam, operations, refused):
    part = quad_plate(fresh_sam.mdb.models["Model-1"], "Plate", 2)
    found = check_reach([OP.validate_python(op) for op in operations], node_box(part))
    if refused is None:
        assert found == []
    else:
        (diagnostic,) = found
        said = f"{diagnostic.path}: {diagnostic.message}"
        assert said.startswith(refused), said
        assert said.endswith("beyond the ±1e+09 a coordinate may hold; nothing runs (use a "
                             "smaller factor or vector)")


def test_the_box_of_the_part_as_observed_is_the_part_s_own(fresh_sam):
    """A transform meeting the live part is judged on the read the run observed (kept by its
    fingerprint): the same scale and box as reading the coordinates again."""
    from types import SimpleNamespace

    from sam_plugin.compilers.part import scale_checks
    from sam_plugin.samops.readback import read_part

    model = fresh_sam.mdb.models["Model-1"]
    part = quad_plate(model, "Plate", 2)
    fingerprint = read_part(model, "Plate").fingerprint
    observed = scale_checks.observed_contents(SimpleNamespace(
        extra={"before_fingerprint": fingerprint}))
    assert observed is not None
    assert scale_checks.scale_of(part, observed) == scale_checks.scale_of(part)
    assert scale_checks.scale_of(part, observed).bounds == node_box(part)
    assert scale_checks.observed_contents(SimpleNamespace(extra={})) is None
