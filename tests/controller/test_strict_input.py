"""Strict input (issue 15): what the tool-call layer refuses before anything compiles, and
diagnostics that stay short and say what is wrong."""

from __future__ import annotations

import asyncio
import json

import pytest
from controller_fakes import (
    TARGET,
    FakeHost,
    FakePartModule,
    ScriptedProvider,
    build_controller,
    calls,
    design,
    fake_spec,
    policy,
    settings,
)

from sam_plugin.compilers.protocol import MAX_QUOTED_CHARS, Diagnostic, quote
from sam_plugin.errors import CompileError
from sam_plugin.runtime.events import read_events
from sam_plugin.runtime.run.controller import Phase, RunController

SPEC = fake_spec("build", "audit", summary="Build a plate.")


def confirm_with(tmp_path, build_arguments: str, **overrides):
    module = FakePartModule()
    provider = ScriptedProvider(design(SPEC), calls(("build_part", build_arguments),
                                                    ("audit_part", "{}")))
    controller = build_controller(tmp_path, provider, host=FakeHost(), module=module,
                                  settings=settings(**overrides)).controller

    async def go():
        assert await controller.submit("x", "part", TARGET) == Phase.REVIEW
        return await controller.confirm("part", TARGET)

    return asyncio.run(go()), module, controller


def test_a_repeated_key_is_refused_at_the_tool_call_layer_naming_it(tmp_path):
    result, module, controller = confirm_with(
        tmp_path, '{"labels": [2], "quads": 1, "labels": "all"}')
    assert result.status == "rejected" and result.error.layer == "tool_call"
    assert "the key 'labels' appears twice in one object" in result.error.message
    assert module.compiled == []  # nothing compiled
    events = read_events(tmp_path / "runs" / controller.run_id / "events.jsonl")
    assert [e["event"] for e in events if e["event"] == "tool_call_rejected"]


def test_arguments_that_are_not_json_are_a_tool_call_error_not_compile(tmp_path):
    result, module, _ = confirm_with(tmp_path, '{"quads": 2,')
    assert result.error.layer == "tool_call"
    assert "the arguments are not valid JSON" in result.error.message
    assert module.compiled == []


def test_arguments_that_are_json_but_no_object_are_refused(tmp_path):
    result, _, _ = confirm_with(tmp_path, "[1, 2]")
    assert result.error.layer == "tool_call"
    assert "must be one JSON object, got an array" in result.error.message


def test_a_call_over_the_argument_budget_is_refused_before_compiling(tmp_path):
    big = json.dumps({"quads": 1, "padding": "x" * 5000})
    result, module, _ = confirm_with(tmp_path, big, max_argument_bytes=4096)
    assert result.error.layer == "tool_call"
    assert f"the arguments are {len(big)} bytes, over the budget of 4096 bytes " \
        "(setting max_argument_bytes)" in result.error.message
    assert module.compiled == []


def test_quote_keeps_200_characters_and_says_how_long_the_value_was():
    assert quote("a" * 5_000_000) == repr("a" * MAX_QUOTED_CHARS) + "… (5000000 characters)"
    assert quote("short") == "'short'"
    assert len(quote(list(range(100_000)))) < MAX_QUOTED_CHARS + 40


def test_a_diagnostic_never_carries_a_huge_value():
    name = "A" * 5_000_000
    diagnostic = Diagnostic(path=f"nodes[0].{name}", message=f"unknown field {name!r}; remove it")
    assert len(diagnostic.path) < 300 and len(diagnostic.message) < 300
    assert diagnostic.message.startswith("unknown field 'AAA")
    assert diagnostic.message.endswith("… remove it")


@pytest.fixture
def part_context():
    import sam
    from samConstants import QUAD

    from sam_plugin.compilers.evidence import Prediction
    from sam_plugin.compilers.protocol import CompileContext
    from sam_plugin.runtime.host_gateway import HostGateway

    saved = sam.mdb
    sam.mdb = sam.database.Mdb()
    part = sam.mdb.models["Model-1"].Part(name="Plate")
    part.Element(nodes=[part.Node(coordinates=c) for c in
                        [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)]], elemShape=QUAD)
    gateway = HostGateway(sam)
    target = TARGET

    def context(request: str = "edit the plate", empty: bool = False):
        if empty:
            sam.mdb = sam.database.Mdb()
        return CompileContext(
            request_text=request, target=target,
            state=Prediction.from_readback(gateway.readback(target)),
            model=gateway.model(target.model_name), part=gateway.part(target))

    yield context
    sam.mdb = saved


def compile_errors(tool: str, arguments: object, ctx) -> list[str]:
    from sam_plugin.compilers.part import MODULE

    with pytest.raises(CompileError) as caught:
        MODULE.compile(tool, json.dumps(arguments), ctx)
    return [str(d) for d in caught.value.diagnostics]


def test_a_5_mb_unknown_field_name_gives_a_short_diagnostic(part_context):
    errors = compile_errors("repair_part", {"B" * 5_000_000: True, "delete_free_nodes": True},
                            part_context())
    assert len(errors) == 1 and len(errors[0]) < 1000
    assert "unknown field 'BBBB" in errors[0] and "(5000000 characters)" in errors[0]


@pytest.mark.parametrize("tolerance, words", [
    (1e-320, "1e-320 is below the minimum 1e-09"),
    (0.0, "0.0 is below the minimum 1e-09"),
])
def test_repair_tolerances_are_range_checked_not_a_crash(part_context, tolerance, words):
    errors = compile_errors("repair_part", {"merge_coincident_nodes": {"tolerance": tolerance}},
                            part_context())
    assert errors == [f"merge_coincident_nodes.tolerance: {words}"]


def test_a_scale_factor_too_small_to_be_meant_is_a_diagnostic(part_context):
    errors = compile_errors("transform_part", {"operations": [
        {"op": "scale", "origin": [0, 0, 0], "factor": 1e-320}]}, part_context())
    assert errors == ["operations[0].factor: 1e-320 is below the minimum 1e-06"]


def test_the_spatial_index_refuses_a_tolerance_it_cannot_grid():
    from sam_plugin.samops.geometry import PointIndex

    with pytest.raises(ValueError, match="out of range"):
        PointIndex(1e-320)


def test_unused_build_nodes_are_a_diagnostic_naming_the_count(part_context):
    nodes = [{"id": f"n{i}", "coordinates": [i, 0, 0]} for i in range(300)]
    elements = [{"id": "B1", "shape": "BEAM", "node_ids": ["n0", "n1"]}]
    errors = compile_errors("build_part", {"nodes": nodes, "elements": elements},
                            part_context("build a beam", empty=True))
    assert errors == [
        "nodes: 298 of 300 declared nodes are used by no element (n2, n3, n4, n5, n6, n7, n8, "
        "n9, n10, n11, n12, n13 (+286 more)); declare only the nodes that elements use "
        "(patches and lines make their own nodes)"]


def test_unused_edit_nodes_beyond_the_free_node_bound_are_a_diagnostic(part_context):
    """An edit may add a few free nodes (an add_nodes step states each point, and binding
    holds them); never the 300,000 that once took 2 GiB."""
    used = [{"id": "a", "coordinates": [0, 0, 0]}, {"id": "b", "coordinates": [2, 0, 0]}]
    free = [{"id": f"f{i}", "coordinates": [10 + i, 0, 0]} for i in range(65)]
    beam = {"add_elements": [{"id": "B1", "shape": "BEAM", "node_ids": ["a", "b"]}]}
    errors = compile_errors("edit_part", {"nodes": used + free, **beam}, part_context())
    assert errors == ["nodes: 65 of 67 declared nodes are used by no element (f0, f1, f2, f3, "
                      "f4, f5, f6, f7, f8, f9, f10, f11 (+53 more)); one call adds at most 64 "
                      "free nodes; declare only the free nodes a step adds and the nodes that "
                      "add_elements use"]
    from sam_plugin.compilers.part import MODULE

    MODULE.compile("edit_part", json.dumps({"nodes": used + free[:64], **beam}), part_context())


def test_a_request_over_64_kb_is_refused_before_any_provider_call(tmp_path):
    import asyncio

    import pytest
    from controller_fakes import TARGET, FakeHost, ScriptedProvider, settings

    from sam_plugin.errors import SubmitRefused

    provider = ScriptedProvider()
    controller = RunController(runs_dir=tmp_path / "runs", settings=settings(), policy=policy(),
                               host=FakeHost(), provider_factory=provider.factory)
    with pytest.raises(SubmitRefused) as refused:
        asyncio.run(controller.submit("界" * 22_000, "part", TARGET))
    assert str(refused.value) == (
        "request: the request is 66,000 bytes; a request may have at most 65,536 bytes (64 KB): "
        "describe the change in words and keep the data in the workspace")
    assert provider.requests == [] and not list((tmp_path / "runs").glob("*/request.txt"))
