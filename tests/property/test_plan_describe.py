"""The Property plan in words: materials, sections, and the elements each assignment picks."""

from __future__ import annotations

from sam_plugin.compilers.evidence import Prediction
from sam_plugin.compilers.property import MODULE
from sam_plugin.compilers.protocol import CompileContext


def test_define_and_assign_are_described_with_the_elements_they_pick(frame, pipeline):
    fragments = pipeline.compile([
        ("define_property", {"materials": [{"name": "Steel", "youngs_modulus": 210000,
                                            "poisson_ratio": 0.3}],
                             "sections": [{"name": "Skin", "kind": "shell",
                                           "material": "Steel", "thickness": 2}]}),
        ("assign_property", {"assignments": [{"section": "Skin",
                                              "selection": {"by": "shape", "shape": "QUAD"}}]}),
    ], "steel shell on the quads")
    gateway = pipeline.gateway
    ctx = CompileContext(request_text="", target=pipeline.target,
                         state=Prediction.from_readback(gateway.readback(pipeline.target)),
                         model=gateway.model("Model-1"), part=gateway.part(pipeline.target))
    detail = MODULE.describe(fragments, ctx)
    texts = [op.describe() for call in detail.calls for op in call.operations]
    assert texts == [
        "material Steel: E 210000, nu 0.3",
        "section Skin (shell, thickness 2) of material Steel",
        "assign section Skin to elements all QUAD: 2 elements [1-2]",
    ]
    assert detail.predicted is None and "geometry must stay unchanged" in detail.basis
