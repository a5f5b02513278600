"""The generic router, exercised through the Part rules."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from sam_plugin.compilers.part.routing_rules import RULES
from sam_plugin.compilers.routing import route
from sam_plugin.errors import RouteRefused


def test_explicit_line_wins_and_is_put_in_canonical_order() -> None:
    spec = "Rotate then merge.\nPlanned Part capabilities: audit, transform, repair"
    result = route(RULES, spec, target_is_empty=False)
    assert result.method == "capability_line"
    assert result.capabilities == ["transform", "repair", "audit"]
    assert result.tools == ["transform_part", "repair_part", "audit_part"]


def test_chinese_line_with_full_width_colon() -> None:
    result = route(RULES, "平移全部单元。\n计划 Part 操作类别：transform、repair，audit", False)
    assert result.capabilities == ["transform", "repair", "audit"]


def test_last_valid_line_wins_and_malformed_lines_are_ignored() -> None:
    spec = ("Planned Part capabilities: edit\n"
            "**Planned Part capabilities: transform**\n"
            "Planned Part capabilities: teleport")
    result = route(RULES, spec, False)
    assert result.capabilities == ["transform"]


def test_semantic_fallback_in_english_and_chinese() -> None:
    english = route(RULES, "Mirror the part about x=0 and check quality.", False)
    assert english.method == "semantic"
    assert english.capabilities == ["transform", "audit"]
    chinese = route(RULES, "把全部单元沿 X 平移 500 后合并重合节点并审计", False)
    assert chinese.capabilities == ["transform", "repair", "audit"]


def test_refusal_gives_advice() -> None:
    with pytest.raises(RouteRefused) as err:
        route(RULES, "Make it nicer please?", False)
    assert str(err.value) == (
        "Could not tell which Part capabilities the spec asks for. End the spec with a line "
        "such as 'Planned Part capabilities: build, edit' (legal capabilities: build, edit, "
        "transform, repair, audit), or name the operation explicitly.")


def test_empty_target_routes_to_build_keeping_audit_only() -> None:
    result = route(RULES, "A plate.\nPlanned Part capabilities: transform, audit", True)
    assert result.method == "empty_target"
    assert result.tools == ["build_part", "audit_part"]
    assert result.detail == ("the target part is missing or empty, so it is built; not routed "
                             "on an empty part: transform")
    assert route(RULES, "", True).tools == ["build_part"]


def test_build_on_a_non_empty_part_becomes_edit() -> None:
    result = route(RULES, "Planned Part capabilities: build, audit", False)
    assert result.tools == ["edit_part", "audit_part"]
    assert result.detail == "the target part is not empty: build -> edit"


def test_build_combines_with_audit_only() -> None:
    from sam_plugin.compilers.routing import RoutingRules

    rules = RoutingRules(**{**RULES.__dict__, "nonempty_substitute": {}})
    with pytest.raises(RouteRefused, match="build combines only with audit, but the spec also "
                       "plans transform; split the request"):
        route(rules, "Planned Part capabilities: build, transform", False)


def test_chinese_capability_names_are_accepted() -> None:
    result = route(RULES, "计划 Part 操作类别：变换、审计", False)
    assert result.tools == ["transform_part", "audit_part"]


def test_compilers_do_not_need_the_host() -> None:
    """Compilers and the gateway import neither ``sam`` nor ``samConstants`` themselves."""
    code = ("import sys; import sam_plugin.compilers.part, sam_plugin.runtime.host_gateway; "
            "print('sam' in sys.modules, 'samConstants' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=str(Path(__file__).parents[2]))
    assert out.stdout.strip() == "False False"
