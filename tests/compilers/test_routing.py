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


def test_what_became_what_is_data_beside_the_words() -> None:
    from sam_plugin.compilers.routing import route_capabilities

    became = route_capabilities(RULES, ["build", "audit"], False)
    assert became.substituted == {"build": "edit"}
    kept = route_capabilities(RULES, ["edit", "audit"], False)
    assert kept.substituted == {}
    assert "substituted" not in kept.model_dump()  # design_route.json as it was
    assert became.model_dump()["substituted"] == {"build": "edit"}


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


# -- issue 13: routing survives real specs --------------------------------------------------


@pytest.mark.parametrize("spec", [
    "Delete duplicate elements.",
    "Then delete free nodes of the part.",
    "Remove all the duplicate elements and delete any free nodes.",
    "删除重复单元。",
    "最后删除自由节点",
])
def test_a_longer_phrase_wins_over_the_words_inside_it(spec) -> None:
    result = route(RULES, spec, False)
    assert result.method == "semantic" and result.capabilities == ["repair"]


def test_a_longer_phrase_leaves_other_operation_words_alone() -> None:
    result = route(RULES, "Delete element 7, then delete duplicate elements and audit.", False)
    assert result.capabilities == ["edit", "repair", "audit"]
    chinese = route(RULES, "删除单元 7，然后删除重复单元并审计", False)
    assert chinese.capabilities == ["edit", "repair", "audit"]


@pytest.mark.parametrize("line", [
    "**Planned Part capabilities:** transform, audit",
    "**Planned Part capabilities: transform, audit**",
    "`Planned Part capabilities: transform, audit`",
    "- Planned Part capabilities: transform, audit",
    "* `Planned Part capabilities: transform, audit`",
    "1. Planned Part capabilities: transform, audit",
    "### Planned Part capabilities: transform, audit",
    "Planned Part capabilities：transform，audit。",
    "计划 Part 操作类别：transform、audit。",
    "**计划 Part 操作类别**：transform，audit",
    "- 计划Part操作类别：【transform，audit】",
    "`计划 Part 操作类别：变换、审计`",
])
def test_capability_lines_are_read_in_bold_code_bullets_and_full_width(line) -> None:
    result = route(RULES, f"Move the part by 500 in X.\n{line}", False)
    assert result.method == "capability_line", line
    assert result.capabilities == ["transform", "audit"], line


# The prose design prompt's last lines, as the runs before the spec IR answered them (prose
# routing now reads only those run directories)
PROSE_PROMPT = """\
Write the spec itself first (what changes, with its numbers). Then end it with exactly one
capability line listing the capabilities you plan, in order:
Planned Part capabilities: <comma-separated list from build, edit, transform, repair, audit>
(for example: "Planned Part capabilities: transform, repair, audit")."""


def test_the_prompt_example_line_echoed_mid_sentence_is_not_the_specs_line() -> None:
    spec = ('Rotate by 90 degrees (for example: "Planned Part capabilities: transform, repair, '
            'audit").')
    result = route(RULES, spec, False, PROSE_PROMPT)
    assert result.method == "semantic" and result.capabilities == ["transform"]


def test_a_spec_that_echoes_the_prompts_capability_list_does_not_route_to_it() -> None:
    from sam_plugin.compilers.part.prompts import design_prompt

    prompt = design_prompt("en") + "\n" + design_prompt("zh")
    echoed = "\n".join(line for line in design_prompt("en").splitlines()
                       if line.startswith(("- ", "build combines")))
    spec = f"建立一个 60 x 100 的板，6 x 10 个 QUAD 单元。\n{echoed}"
    result = route(RULES, spec, True, prompt)
    assert result.tools == ["build_part"]
    translated = (
        "建立一个 60 x 100 的板。\n可用操作：\n- build：在空部件上建立网格\n"
        "- edit：删除、添加单元\n"
        "- transform：平移、旋转、镜像\n- repair：合并重合节点，删除重复单元\n"
        "- audit：只读检查报告（计数、质量）\n"
        "计划 Part 操作类别：<build, edit, transform, repair, audit 中的若干项>"
    )
    assert route(RULES, translated, True, prompt).tools == ["build_part"]
    # a real request for an audit still routes to it
    asked = "建立一个 60 x 100 的板，然后审计网格质量。"
    assert route(RULES, asked, True, prompt).tools == ["build_part", "audit_part"]


def test_without_capability_lines_keeps_everything_else() -> None:
    from sam_plugin.compilers.routing import without_capability_lines

    spec = "Build a plate.\n**Planned Part capabilities: build**\n计划 Part 操作类别：build"
    assert without_capability_lines("Part", spec) == "Build a plate."


def test_the_expected_results_line_states_outcomes_not_operations() -> None:
    """A real 0.5B answer: "0 free nodes" in its expected results is not a repair."""
    with pytest.raises(RouteRefused):
        route(RULES, "Expected results: 16 nodes, 4 elements by shape, 0 free nodes", False)
    spec = "Audit the part.\n**Expected results:** 0 free nodes, no duplicate elements"
    assert route(RULES, spec, False).capabilities == ["audit"]
    assert route(RULES, "检查部件。\n预期结果：0 个自由节点", False).capabilities == ["audit"]


def test_the_spec_body_drops_its_capability_line_wherever_it_stands():
    from sam_plugin.compilers.routing import split_capability_line

    spec = ("Spec: build the plate.\n- **Planned Part capabilities:** build\n"
            "Expected results: 77 nodes, 60 elements")
    body, line = split_capability_line("Part", spec)
    assert body == "Spec: build the plate.\nExpected results: 77 nodes, 60 elements"
    assert line == "- **Planned Part capabilities:** build"
    assert split_capability_line("Part", "Spec only.") == ("Spec only.", "")
    zh = "规格：新建部件。\n计划 Part 操作类别：build"
    assert split_capability_line("Part", zh) == ("规格：新建部件。", "计划 Part 操作类别：build")
