"""The Property plan in words: materials, sections, and the elements each assignment picks."""

from __future__ import annotations

from typing import Any

from sam_plugin.compilers.evidence import Prediction
from sam_plugin.compilers.property import MODULE
from sam_plugin.compilers.protocol import CompileContext
from sam_plugin.runtime.verify.part_comparison import compare_with_plan

STEEL = {"materials": [{"name": "Steel", "youngs_modulus": 210000, "poisson_ratio": 0.3}],
         "sections": [{"name": "Skin", "kind": "shell", "material": "Steel", "thickness": 2},
                      {"name": "Thick", "kind": "shell", "material": "Steel",
                       "thickness": 5}]}


def _ctx(pipeline: Any) -> CompileContext:
    gateway = pipeline.gateway
    return CompileContext(request_text="", target=pipeline.target,
                          state=Prediction.from_readback(gateway.readback(pipeline.target)),
                          model=gateway.model("Model-1"), part=gateway.part(pipeline.target))


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
    assert detail.predicted is not None
    assert detail.predicted.image.assignments.by_label() == {1: ("Skin",), 2: ("Skin",)}
    assert detail.basis.startswith("exact")


def test_an_assignment_taking_elements_from_another_section_is_destructive(frame, pipeline):
    first = pipeline.run([("define_property", STEEL), ("assign_property", {"assignments": [
        {"section": "Skin", "selection": {"by": "shape", "shape": "QUAD"}}]})])
    assert first.receipt.status == "PASS"
    fragments = pipeline.compile([("assign_property", {"assignments": [
        {"section": "Thick", "selection": {"by": "labels", "labels": [2, 3]}}]})], "thicker")
    detail = MODULE.describe(fragments, _ctx(pipeline))
    [op] = [op for op in detail.calls[0].operations if op.destructive]
    assert op.describe() == "replaces section Skin on: 1 element [2]"
    # scoped: the elements the call picks; element 1 keeps Skin as part of the rest
    assert detail.predicted.image.assignments.by_label() == {2: ("Thick",), 3: ("Thick",)}


def test_a_live_assignment_that_differs_from_the_plan_fails_naming_the_element(frame,
                                                                              pipeline):
    fragments = pipeline.compile([("define_property", STEEL), ("assign_property", {
        "assignments": [{"section": "Skin", "selection": {"by": "shape", "shape": "QUAD"}}]})],
        "skin on the quads")
    detail = MODULE.describe(fragments, _ctx(pipeline))
    outcome = pipeline.run([("define_property", STEEL), ("assign_property", {
        "assignments": [{"section": "Skin", "selection": {"by": "shape", "shape": "QUAD"}}]})])
    part = pipeline.gateway.part(pipeline.target)
    checks = {c.name: c for c in compare_with_plan(detail.predicted, part, outcome.after)}
    assert checks["section assignments match the plan (exact)"].ok
    entry = part.sectionAssignments[0]  # a host that silently assigns one element less
    entry.setValues(region=part.elements.sequenceFromLabels([1]))
    after = pipeline.gateway.readback(pipeline.target)
    checks = {c.name: c for c in compare_with_plan(detail.predicted, part, after)}
    check = checks["section assignments match the plan (exact)"]
    assert not check.ok
    assert check.actual == "element 2 has no section, the plan gives it section Skin"
