"""What an analyst would want to read before a plan runs (docs/architecture.md §5 "Plan"):
warnings that stop ``--yes`` (and *Approve all*), beside the destructive lines, which alone do
not. A plan warns when it

- leaves the part with no elements where it had some (a rerun that would empty its target
  included);
- changes the part although the request says not to ("do not change anything", "Don’t
  change anything", "leave it unchanged", "no changes", "不要修改", "请勿修改", "不得改动");
- removes or empties a set the request asks to keep ("keep set S1", "保留集合 S1").

Generic over domains: it reads the request's words (folded: typographic quotes are straight
ones, ``compilers/spec/request_words.py``) and the counts and set names the plan predicts,
never a domain's tools. Each warning is a key and its values (:class:`Attention`), said in
English for ``plan.json`` and the CLI.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from sam_plugin.compilers.evidence import Prediction, Readback
from sam_plugin.compilers.spec.request_words import fold
from sam_plugin.words.phrase import Phrase, phrase

_NOT = (r"(?:do not|don't|dont|never|must not|mustn't|should not|shouldn't|cannot|can't|"
        r"may not|please do not|please don't|without)")
_VERB = (r"(?:change|changing|modify|modifying|alter|altering|touch|touching|edit|editing|"
         r"move|moving|delete|deleting|remove|removing)")
_NOUN = r"(?:changes?|modifications?|edits?|alterations?)"
_IT = (r"(?:it|this|that|them|everything|all|the (?:whole )?(?:part|model|mesh|geometry)|"
       r"the part as it is)")
_DO_NOT_CHANGE = re.compile(
    rf"\b{_NOT}\s+{_VERB}\b"
    rf"|\b{_NOT}\s+(?:make|do|perform|apply|introduce)\s+(?:any\s+)?{_NOUN}\b"
    rf"|\b(?:make|with|want|need)?\s*no\s+{_NOUN}\b(?!\s+(?:to|of|for)\s+(?:the\s+)?"
    r"(?:rest|others?|remaining))"
    rf"|\b(?:change|modify|alter|touch) nothing\b|\bnothing (?:should|must|may) change\b"
    rf"|\b(?:leave|keep)\s+{_IT}\s+(?:unchanged|as it is|as is|alone|untouched|intact)\b"
    r"|\bread[- ]only\b|\bonly (?:audit|check|report|inspect)\b"
    r"|(?:不要|不得|请勿|勿|禁止|不许|不准|不可|不能|别)\s*(?:做|作|进行|有)?\s*(?:任何)?\s*"
    r"(?:修改|改动|改变|更改|变动|编辑|删除|移动|动|改|删)"
    r"|不(?:修改|改动|改变|更改|变动)|保持原样|原样保留|只(?:审计|检查)",
    re.IGNORECASE)
# the request asks for a report alone: nothing of the part is to change at all (narrower
# than "do not change": "don't move the rest" still asks for a change)
_ONLY_REPORT = re.compile(
    r"\bonly (?:audit|check|report|inspect|list|count|look)\b|\bread[- ]only\b"
    r"|\b(?:change|modify|alter|touch) nothing\b|\bnothing (?:should|must|may) change\b"
    rf"|\b{_NOT}\s+(?:change|changing|modify|modifying|alter|altering|touch|touching|edit|"
    r"editing|assign|assigning|delete|deleting|move|moving|refine|refining|add|adding)\s+"
    r"anything\b(?!\s+(?:else|more|other))"
    r"|什么都不要(?:改|动|修改|变)|不要(?:做|作)?任何(?:修改|改动|更改)|不做任何(?:修改|改动)"
    r"|只(?:审计|检查|看看|报告|统计|列出)",
    re.IGNORECASE)
# the request asks for the part to be emptied (then rebuilt, or left empty)
_EMPTY_IT = re.compile(
    r"\b(?:delete|remove|erase|clear|wipe|empty|scrap|discard|drop|nuke)\b[^.;!?]{0,30}?"
    r"\b(?:everything|all|every element|whole|entire|it all|the (?:part|mesh|model|lot))\b"
    r"|\b(?:wipe|clear|empty|scrap) (?:it|the part|the mesh|this part)\b|\bwipe\b"
    r"|\bstart (?:over|again|from scratch)\b|\bfrom scratch\b|\breplace (?:it|everything|"
    r"the (?:whole|entire) (?:part|mesh))\b"
    r"|清空|全部删|删(?:除|掉)?(?:所有|全部)|全删|推倒重来|从头(?:开始|再来)|重新(?:建|铺|做|画)",
    re.IGNORECASE)
_KEEP_SET = re.compile(r"\bkeep\s+(?:the\s+)?(?:element\s+|node\s+)?set\s+([A-Za-z][\w.-]*)"
                       r"|保留(?:集合)?\s*([A-Za-z][\w.-]*)", re.IGNORECASE)

Key = Literal["empties_part", "changes_despite_request", "removes_kept_set",
              "empties_kept_set"]


@dataclass(frozen=True)
class Attention:
    """One warning as data: its key and values, said in English by :meth:`words`."""

    key: Key
    values: tuple[str, ...]

    def phrase(self) -> Phrase:
        """The warning as a phrase (``compilers/plan_phrases.py``); its record is
        :meth:`words`."""
        name = "count" if self.key == "empties_part" else (
            "said" if self.key == "changes_despite_request" else "name")
        return phrase(f"plan.{self.key}", **{name: self.values[0]})

    def words(self) -> str:
        if self.key == "empties_part":
            return f"the plan leaves the part with no elements ({self.values[0]} → 0)"
        if self.key == "changes_despite_request":
            return f"the request says “{self.values[0]}”, and the plan changes the part"
        name = self.values[0]
        if self.key == "removes_kept_set":
            return f"the request asks to keep set {name}, and the plan leaves no set {name}"
        return (f"the request asks to keep set {name}, and the plan leaves set {name} empty "
                f"(it deletes every member of {name})")


def attention_warnings(request: str, before: Readback, prediction: Prediction,
                       read_only: bool, empty_sets: Sequence[str] = ()) -> list[str]:
    """The warnings a person should read before this plan runs (empty: none).
    ``empty_sets``: the sets the plan leaves with no member, where the module can tell."""
    return [found.words() for found in attention(request, before, prediction, read_only,
                                                 empty_sets)]


def attention(request: str, before: Readback, prediction: Prediction, read_only: bool,
              empty_sets: Sequence[str] = ()) -> list[Attention]:
    found = []
    if before.element_count > 0 and prediction.element_count.max == 0:
        found.append(Attention("empties_part", (str(before.element_count),)))
    said = do_not_change(request)
    if said and not read_only:
        found.append(Attention("changes_despite_request", (said,)))
    present = set(prediction.sets_present)
    for name in kept_sets(request):
        if name in before.sets and name not in present:
            found.append(Attention("removes_kept_set", (name,)))
        elif name in before.sets and name in empty_sets:
            found.append(Attention("empties_kept_set", (name,)))
    return found


def do_not_change(request: str) -> str:
    """The words of ``request`` that say not to change the part, or ``""``."""
    said = _DO_NOT_CHANGE.search(fold(request))
    return said.group(0).strip() if said else ""


def only_reports(request: str) -> str:
    """The words of ``request`` that ask for a report alone ("only report", "don't change
    anything", "什么都不要改"), or ``""``: a step that changes the part answers no part of
    it."""
    said = _ONLY_REPORT.search(fold(request))
    return said.group(0).strip() if said else ""


# words that ask for a report, a count or an answer, not only a change ("how many", "check",
# "有没有", a question mark): a spec of reports alone may be what such a request asks
_ASKS_A_REPORT = re.compile(
    r"\b(?:check|checks|checking|count|counts|counting|how\s+(?:many|much)|report|audit|list|"
    r"find|which|what|show|tell|verify|inspect|look|are\s+there|is\s+there|is\s+it|does\s+it"
    r")\b|\?|？|检查|统计|多少|哪些|哪个|有没有|是否|查看|看看|看一下|报告|"
    r"列出|吗|审计|质量", re.IGNORECASE)


def asks_a_report(request: str) -> bool:
    """Whether ``request`` asks for a report, a count or an answer (a question), not only a
    change."""
    return _ASKS_A_REPORT.search(fold(request)) is not None


def asks_to_empty(request: str) -> bool:
    """Whether ``request`` asks to delete everything ("wipe the part", "start over",
    "清空这个零件"): a spec that leaves the part with no elements then does what was asked."""
    return _EMPTY_IT.search(fold(request)) is not None


def kept_sets(request: str) -> list[str]:
    """The sets ``request`` asks to keep, in order, each once."""
    names: list[str] = []
    for match in _KEEP_SET.finditer(fold(request)):
        name = (match.group(1) or match.group(2)).rstrip(".")  # a sentence's own full stop
        if name not in names:
            names.append(name)
    return names
