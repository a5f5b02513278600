"""A round's rejection is made as a phrase beside its English: the English, which a repair
round sends the model, is byte for byte what the rule said before (the cassettes replay it);
the dock's words are rendered from the phrase in each language."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from sam_plugin.compilers.protocol import Diagnostic
from sam_plugin.errors import CollectionViolation, CompileError
from sam_plugin.runtime.provider.types import ChatResponse, ToolCall
from sam_plugin.runtime.run.collect import round_reason
from sam_plugin.runtime.run.collection import call_format_rejection, check_round, read_round
from sam_plugin.runtime.run.repair import RepairBudget
from sam_plugin.runtime.run.run_phrases import compile_problems
from sam_plugin.words.phrase import render

OFFERED = ["build_part", "audit_part"]


@pytest.fixture(autouse=True)
def _part_words() -> None:
    from sam_plugin.compilers.registry import get_module

    get_module("part")  # a run's own domain has registered its words


def _call(name: str, index: int = 0) -> ToolCall:
    return ToolCall(index=index, id=f"c{index}", name=name, arguments="{}")


def _answer(*names: str, content: str = "", finish: str | None = "stop") -> ChatResponse:
    return ChatResponse(content=content, reasoning="", finish_reason=finish, usage=None,
                        raw_sse=b"", tool_calls=[_call(n, i) for i, n in enumerate(names)])


# (the round's answer, the English each rule said before phrases, the dock's English)
ROUNDS = [
    (_answer(), "the response carried no tool call; expected one of: build_part, audit_part",
     "the model answered without filling in the operation (build the part, audit the part)"),
    (_answer("delete_model"),
     "tool 'delete_model' was not offered in this round; offered: build_part, audit_part",
     "tool 'delete_model' was not offered in this round; offered: build the part, "
     "audit the part"),
    (_answer("build_part", "build_part"),
     "tool 'build_part' was called more than once; each tool is called exactly once",
     "tool 'build the part' was called more than once; each tool is called exactly once"),
    (_answer("audit_part"),
     "calls out of order: received audit_part; the canonical order is build_part, audit_part",
     "calls out of order: received audit the part; the canonical order is build the part, "
     "audit the part"),
    (_answer("build_part", finish="length"), "the response was cut off (finish_reason=length)",
     "the response was cut off (finish_reason=length)"),
]


@pytest.mark.parametrize(("answer", "english", "dock"), ROUNDS)
def test_a_rejected_round_is_its_english_and_its_phrase(answer, english, dock):
    refused = read_round(answer, OFFERED, set(OFFERED), text_calls=False, round_number=3).refused
    assert refused is not None and refused.phrase is not None
    assert refused.diagnostic == f"round 3: {english}"  # what the repair round sends
    assert render(refused.phrase) == refused.diagnostic
    assert render(refused.phrase, "en") == dock
    assert round_reason(refused) == english  # events.jsonl's tool_call_rejected reason


def test_the_no_tool_call_line_in_chinese():
    with pytest.raises(CollectionViolation) as raised:
        check_round([], ["edit_part", "audit_part"])
    assert render(raised.value.phrase, "zh_CN") == (
        "模型的回答没有填写所需的操作（编辑部件，审计部件）")


def test_a_server_that_cannot_read_the_call_and_a_spent_budget():
    refused = call_format_rejection("bad format", OFFERED, 2)
    assert refused.phrase is not None and render(refused.phrase) == refused.diagnostic
    budget = RepairBudget(limit=1)
    budget.spend(refused)
    budget.spend(refused)
    spent = budget.exhausted_phrase(refused)
    assert spent is not None and render(spent) == budget.exhausted_message(refused)
    assert render(spent, "zh_CN").endswith("（经过 1 轮修复仍被拒绝；未执行任何操作）")
    assert RepairBudget(limit=0).exhausted_phrase(refused) == refused.phrase


def test_a_compile_error_is_its_english_and_its_phrase():
    error = CompileError("edit_part", [Diagnostic(path="x", message="bad"),
                                       Diagnostic(path="y", message="worse")])
    said = compile_problems(error)
    assert render(said) == str(error)
    assert render(said, "en").startswith("edit the part: 2 problem(s)\n  - ")
    assert render(said, "zh_CN").startswith("编辑部件：2 个问题\n")


def test_a_tool_no_domain_has_is_said_by_its_name():
    assert check_round([SimpleNamespace(name="made_up")], ["made_up"]) == ["made_up"]
    refused = read_round(_answer(), ["made_up"], {"made_up"}, text_calls=False,
                         round_number=1).refused
    assert refused is not None and refused.phrase is not None
    assert render(refused.phrase, "en") == (
        "the model answered without filling in the operation (made_up)")
