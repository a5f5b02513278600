"""The Mesh plan in words: which elements are refined and what they become."""

from __future__ import annotations

from sam_plugin.compilers.evidence import Prediction
from sam_plugin.compilers.mesh import MODULE
from sam_plugin.compilers.protocol import CompileContext


def test_refine_is_described_with_the_elements_it_replaces(plate, make_grid, pipeline):
    make_grid(plate, 2, 2)
    fragments = pipeline.compile([("refine_mesh", {"selection": {"by": "labels",
                                                                 "labels": [1, 2]},
                                                   "levels": 2})], "refine two")
    gateway = pipeline.gateway
    ctx = CompileContext(request_text="", target=pipeline.target,
                         state=Prediction.from_readback(gateway.readback(pipeline.target)),
                         model=gateway.model("Model-1"), part=gateway.part(pipeline.target))
    [call] = MODULE.describe(fragments, ctx).calls
    assert call.operations[0].describe() == (
        "refine elements labels [1, 2] by 2 level(s): each parent is replaced by its children "
        "(QUAD/TRI x16, BEAM x4); sections, orientations and sets are inherited: "
        "2 elements [1-2]")
