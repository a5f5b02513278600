"""Property module surface: routing (capability line, English/Chinese words), prompts, tools."""

from __future__ import annotations

import pytest
from jsonschema import Draft202012Validator

from sam_plugin.compilers.property import MODULE
from sam_plugin.compilers.protocol import DomainModule
from sam_plugin.compilers.registry import get_module
from sam_plugin.errors import RouteRefused


def test_registry_and_protocol() -> None:
    assert get_module("property") is MODULE
    assert isinstance(MODULE, DomainModule)
    assert MODULE.capabilities == ("define", "assign", "audit")


def test_capability_line_wins_in_canonical_order() -> None:
    spec = "Units: N, mm, MPa.\nPlanned Property capabilities: audit, define, assign"
    route = MODULE.route(spec, target_is_empty=False)
    assert route.method == "capability_line"
    assert route.tools == ["define_property", "assign_property", "audit_property"]


def test_chinese_capability_line() -> None:
    route = MODULE.route("单位：N, mm\n计划 Property 操作类别：define, assign", False)
    assert route.tools == ["define_property", "assign_property"]


@pytest.mark.parametrize(("spec", "tools"), [
    ("Create material Steel and a shell section 2 mm thick, then assign it to all QUAD "
     "elements.", ["define_property", "assign_property"]),
    ("定义材料 Q235 和壳截面，指派给全部单元，然后审计。",
     ["define_property", "assign_property", "audit_property"]),
    ("Please audit the properties.", ["audit_property"]),
])
def test_semantic_routing(spec, tools) -> None:
    route = MODULE.route(spec, target_is_empty=False)
    assert route.method == "semantic"
    assert route.tools == tools


def test_route_refused_names_the_line() -> None:
    with pytest.raises(RouteRefused, match="Planned Property capabilities: define, assign"):
        MODULE.route("Make it nicer.", target_is_empty=False)


def test_design_prompt_asks_for_units_and_the_spec_as_json() -> None:
    prompt = MODULE.design_prompt()
    assert "every number is in the model's own consistent units. Say them\nin the summary" in \
        prompt
    assert "Answer with ONE JSON object and nothing else. It is either the spec" in prompt
    assert "- define: define_material — name*, E*, nu*, density" in prompt
    assert "Write the summary and every text in Chinese" in MODULE.design_prompt("zh")


@pytest.mark.parametrize("strict", [False, True])
def test_tool_definitions_are_valid_schemas(strict) -> None:
    tools = MODULE.tool_definitions(["define_property", "assign_property", "audit_property"],
                                    strict=strict)
    assert [t["function"]["name"] for t in tools] == [
        "define_property", "assign_property", "audit_property"]
    for tool in tools:
        Draft202012Validator.check_schema(tool["function"]["parameters"])
    assert "model's own consistent unit system" in tools[0]["function"]["description"]


def test_unknown_tool() -> None:
    with pytest.raises(ValueError, match="unknown Property tool"):
        MODULE.tool_definitions(["refine_mesh"])


def test_property_scripts_share_the_codegen_literal_and_variable() -> None:
    from sam_plugin.compilers import codegen
    from sam_plugin.compilers.property import script

    assert script.literal is codegen.plain_literal
    assert script.variable is codegen.variable

    class Evil(str):
        def __repr__(self) -> str:
            return "__import__('os')"

    with pytest.raises(TypeError, match="Evil cannot enter a script as a literal"):
        script.literal({"name": Evil("Steel")})
