"""The Part DomainModule surface: identity, prompts, routing, tool definitions."""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator

from sam_plugin.compilers.part import MODULE
from sam_plugin.compilers.protocol import DomainModule
from sam_plugin.compilers.registry import get_module
from sam_plugin.errors import CompileError

TOOLS = ["build_part", "edit_part", "transform_part", "repair_part", "audit_part"]


def test_identity_and_registry() -> None:
    assert isinstance(MODULE, DomainModule)
    assert get_module("part") is MODULE
    assert (MODULE.mode, MODULE.title) == ("part", "Part")
    assert MODULE.capabilities == ("build", "edit", "transform", "repair", "audit")
    assert list(MODULE.tool_names.values()) == TOOLS


def test_design_prompt_asks_for_the_spec_as_json() -> None:
    prompt = MODULE.design_prompt()
    assert "Answer with ONE JSON object and nothing else. It is either the spec" in prompt
    assert "- transform: rotate (scope required) — angle_deg*, axis*, origin" in prompt
    assert "combines with audit only" in prompt
    assert "Write the summary and every text in Chinese" in MODULE.design_prompt("zh")
    assert "Never write Python" in MODULE.collection_prompt()


def test_tool_definitions_in_the_given_order_and_valid() -> None:
    definitions = MODULE.tool_definitions(["transform_part", "audit_part"])
    assert [d["function"]["name"] for d in definitions] == ["transform_part", "audit_part"]
    for definition in MODULE.tool_definitions(TOOLS):
        assert definition["type"] == "function"
        Draft202012Validator.check_schema(definition["function"]["parameters"])
    with pytest.raises(ValueError, match="unknown Part tool\\(s\\) define_property; legal "
                       "tools: build_part, edit_part"):
        MODULE.tool_definitions(["define_property"])


def test_descriptions_are_the_operating_manual() -> None:
    build = MODULE.tool_definitions(["build_part"])[0]["function"]["description"]
    for phrase in ("板", "梁", "QUAD", "TRI", "BEAM", "never SAM labels", "TRI correct",
                   "TRI wrong", "ONLY when the user asked for\nsets or groups"):
        assert phrase in build, phrase
    edit = MODULE.tool_definitions(["edit_part"])[0]["function"]["description"]
    assert "clear_all: true` ONLY when the user explicitly asked to delete or replace" in edit


def test_strict_definitions_accept_a_strict_style_call(harness: Any) -> None:
    strict = MODULE.tool_definitions(["repair_part"], strict=True)[0]["function"]
    assert strict["strict"] is True
    params = strict["parameters"]
    assert params["required"] == ["merge_coincident_nodes", "delete_duplicate_elements",
                                  "delete_free_nodes"]
    call = {"merge_coincident_nodes": {"tolerance": None}, "delete_duplicate_elements": None,
            "delete_free_nodes": True}
    assert Draft202012Validator(params).is_valid(call)
    harness.grid(1, 1)
    fragment = harness.compile_all("delete free nodes, merge", [("repair_part", call)])[0]
    assert fragment.normalized == {"merge_coincident_nodes": {"tolerance": None},
                                   "delete_duplicate_elements": False,
                                   "delete_free_nodes": True}


def test_route_through_the_module() -> None:
    assert MODULE.route("Planned Part capabilities: repair", False).tools == ["repair_part"]
    assert MODULE.route("anything", True).tools == ["build_part"]


def test_unknown_tool_is_a_compile_error(harness: Any) -> None:
    with pytest.raises(CompileError) as err:
        harness.compile_all("x", [("mesh_part", {})])
    assert [str(d) for d in err.value.diagnostics] == [
        "unknown Part tool 'mesh_part'; legal tools: build_part, edit_part, transform_part, "
        "repair_part, audit_part"]


def test_same_calls_same_script_bytes(harness: Any) -> None:
    from sam_plugin.compilers.composer import compose

    args = '{"patches":[{"id":"P","shape":"quad","corners":[[0,0,0],[1,0,0],[1,1,0],[0,1,0]],' \
        '"divisions":[2,2]}]}'
    first = compose(harness.compile_all("plate", [("build_part", args)]))
    second = compose(harness.compile_all("plate", [("build_part", args.replace(
        "[1,0,0]", "[1.0000000000001,0,0]"))]))
    assert first.text == second.text and first.sha256 == second.sha256


def test_missing_target_model_is_a_compile_error(harness: Any) -> None:
    from sam_plugin.compilers.evidence import Prediction, Readback
    from sam_plugin.compilers.protocol import CompileContext, Target

    ctx = CompileContext(request_text="x", target=Target(model_name="Nope", part_name="P"),
                         state=Prediction.from_readback(Readback(part_exists=False)))
    with pytest.raises(CompileError) as err:
        MODULE.compile("audit_part", {}, ctx)
    assert [str(d) for d in err.value.diagnostics] == [
        "target model 'Nope' does not exist; pick an existing model"]


def test_transform_preflight_stops_before_the_first_mutation(harness: Any) -> None:
    from sam_plugin.compilers.composer import compose

    harness.grid(2, 2)
    harness.part().Set(name="Left", elements=harness.part().elements[0:1])
    fragments = harness.compile_all("t", [("transform_part", {"operations": [
        {"op": "translate", "vector": [1, 0, 0]},
        {"op": "translate", "vector": [0, 1, 0], "selection": {"by": "set", "name": "Left"}}]})])
    del harness.part().sets["Left"]  # the model changed between compile and execution
    before = harness.gateway.readback(harness.target).fingerprint
    receipt = harness.gateway.execute(compose(fragments).text, harness.target,
                                      harness.tmp_path / "x")
    assert receipt.status == "FAIL"
    assert ("PreflightError: operations[1].selection: unknown set 'Left'; the part has no "
            "sets") in receipt.traceback
    assert harness.gateway.readback(harness.target).fingerprint == before
