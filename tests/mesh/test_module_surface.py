"""Mesh module surface: routing (capability line, English/Chinese words), prompts, tools."""

from __future__ import annotations

import pytest
from jsonschema import Draft202012Validator

from sam_plugin.compilers.mesh import MODULE
from sam_plugin.compilers.protocol import DomainModule
from sam_plugin.compilers.registry import get_module
from sam_plugin.errors import RouteRefused


def test_registry_and_protocol() -> None:
    assert get_module("mesh") is MODULE
    assert isinstance(MODULE, DomainModule)
    assert MODULE.capabilities == ("refine", "audit")


def test_capability_line() -> None:
    route = MODULE.route("Units: mm.\nPlanned Mesh capabilities: audit, refine", False)
    assert route.method == "capability_line"
    assert route.tools == ["refine_mesh", "audit_mesh"]
    route = MODULE.route("计划 Mesh 操作类别：refine", False)
    assert route.tools == ["refine_mesh"]


@pytest.mark.parametrize(("spec", "tools"), [
    ("Refine the set Hole two levels.", ["refine_mesh"]),
    ("把孔周围单元加密一级，然后检查网格质量", ["refine_mesh", "audit_mesh"]),
    ("Report hanging nodes and free edges; audit only.", ["audit_mesh"]),
])
def test_semantic_routing(spec, tools) -> None:
    assert MODULE.route(spec, target_is_empty=False).tools == tools


def test_route_refused() -> None:
    with pytest.raises(RouteRefused, match="Planned Mesh capabilities: refine, audit"):
        MODULE.route("Make it nicer.", target_is_empty=False)


def test_design_prompt() -> None:
    prompt = MODULE.design_prompt()
    # the spec as one JSON object, the mode's actions from its vocabulary, the expected counts
    assert "Answer with ONE JSON object and nothing else. It is either the spec" in prompt
    assert "- refine: refine (scope required) — levels*" in prompt
    assert '"expected" counts the whole part after the change' in prompt
    assert "box corners" not in prompt or "model's units" in prompt
    assert "Write the summary and every text in Chinese" in MODULE.design_prompt("zh")


@pytest.mark.parametrize("strict", [False, True])
def test_tool_definitions(strict) -> None:
    tools = MODULE.tool_definitions(["refine_mesh", "audit_mesh"], strict=strict)
    for tool in tools:
        Draft202012Validator.check_schema(tool["function"]["parameters"])
    assert tools[0]["function"]["name"] == "refine_mesh"
