"""A run's own messages as phrases (``sam_plugin/words/phrase.py``, docs/architecture.md
"Messages as data"): a collection round's rejection, the tools it expected, the repair
budget spent, a failed provider call inside a round. Each is made beside the English it
renders (``record``), which is byte for byte the text a model is sent in a repair round and
``result.json``'s ``error.message`` keeps; the front ends render the phrase.

English the run has no phrase for yet is ``run.said``: shown as it is, in every language.
"""

from __future__ import annotations

from collections.abc import Sequence

from sam_plugin.compilers.protocol import MAX_QUOTED_CHARS
from sam_plugin.errors import CompileError
from sam_plugin.words.phrase import Catalogue, Phrase, known, phrase, register

CATALOGUE: Catalogue = {
    # English with no phrase yet: the same words in every language
    "run.said": {"record": "{text}", "en": "{text}", "zh_CN": "{text}"},
    # a round's diagnostic: the dock does not say which round
    "run.round": {"record": "round {round}: {reason}", "en": "{reason}", "zh_CN": "{reason}"},
    # a failed provider call; the front ends say it from ``error.provider``
    "run.provider_call": {"record": "{said}", "en": "{said}", "zh_CN": "{said}"},
    "run.no_tool_call": {
        "record": "the response carried no tool call; expected one of: {expected|, }",
        "en": "the model answered without filling in the operation ({expected})",
        "zh_CN": "模型的回答没有填写所需的操作（{expected}）"},
    "run.not_offered": {
        "record": "tool {quoted} was not offered in this round; offered: {offered|, }",
        "en": "tool '{tool}' was not offered in this round; offered: {offered}",
        "zh_CN": "模型调用了本轮未提供的操作 {tool}；本轮提供：{offered}"},
    "run.called_twice": {
        "record": "tool {quoted} was called more than once; each tool is called exactly once",
        "en": "tool '{tool}' was called more than once; each tool is called exactly once",
        "zh_CN": "模型多次调用了 {tool}；每个操作只调用一次"},
    "run.out_of_order": {
        "record": "calls out of order: received {received|, }; the canonical order is "
                  "{offered|, }",
        "en": "calls out of order: received {received}; the canonical order is {offered}",
        "zh_CN": "操作顺序不对：收到 {received}；应为 {offered}"},
    "run.compile_problems": {
        "record": "{tool}: {count} problem(s)\n{lines}",
        "en": "{tool}: {count} problem(s)\n{lines}",
        "zh_CN": "{tool}：{count} 个问题\n{lines}"},
    "run.compiler_crashed": {
        "record": "{tool}: internal compiler error ({error}); nothing executed",
        "en": "{tool}: internal compiler error ({error}); nothing executed",
        "zh_CN": "{tool}：编译器内部错误（{error}）；未执行任何操作"},
    "run.still_rejected": {
        "record": "{reason}\n(still rejected after {repairs} repair round(s); nothing was "
                  "executed)",
        "en": "{reason}\n(still rejected after {repairs} repair round(s); nothing was "
              "executed)",
        "zh_CN": "{reason}\n（经过 {repairs} 轮修复仍被拒绝；未执行任何操作）"},
}
register(CATALOGUE)


def said(text: str) -> Phrase:
    return phrase("run.said", text=text)


def tool(name: str) -> Phrase:
    """A tool by its domain's phrase (``tool.<name>``), or its name as said when no
    registered domain has it (a model may call a tool that does not exist: its name is
    cut as a message quotes it). The run's own domain has registered its words; no other
    is loaded here (loading a domain is not a side effect a message may have)."""
    key = f"tool.{name}"
    if known(key):
        return phrase(key)
    return said(name if len(name) <= MAX_QUOTED_CHARS else name[:MAX_QUOTED_CHARS] + "…")


def tools(names: Sequence[str]) -> list[Phrase]:
    return [tool(name) for name in names]


def in_round(round_number: int, reason: Phrase) -> Phrase:
    return phrase("run.round", round=round_number, reason=reason)


def compile_problems(error: CompileError) -> Phrase:
    """A call that does not compile: its tool, how many problems, and each in its English
    (the compilers' diagnostics)."""
    lines = "\n".join(f"  - {d}" for d in error.diagnostics)
    return phrase("run.compile_problems", tool=tool(error.tool), count=len(error.diagnostics),
                  lines=lines)
