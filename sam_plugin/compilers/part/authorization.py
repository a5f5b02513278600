"""What the original request authorizes: sets/groups, duplicate elements, and an explicit
full replacement.

The model may not extend the user's intent: element sets are dropped (and the drop reported)
unless the request asks for sets or groups; ``clear_all`` is rejected unless the request
explicitly asks to delete or replace everything — and not when that ask is negated
("do not clear the part", "不要清空零件") or scoped to a region or set ("everything above
z=5", "集合S1里的"), since a wrongly granted ``clear_all`` wipes the whole part.
"""

from __future__ import annotations

import re

# 组 alone is also "compose/combine/assemble" (组成, 组合, 组装): only set-like uses count.
SET_WORDS = (r"\b(sets?|groups?|grouped|grouping)\b|集合|分组"
             r"|(单元|节点|[一两二三四五六七八九十几每多各]个?)组(?![成合装件织])")
SETS_UNASKED = "the request does not ask for sets or groups"
_SET_WORDS = re.compile(SET_WORDS, re.I)

# Elements on the node set of another one (docs/architecture.md §4): only when asked for, and
# not when the ask is negated ("no duplicate elements").
_DUPLICATE_WORDS = re.compile(
    r"\bduplicat(e|es|ed|ing)\b|\b(overlapping|coincident|repeated|doubled?|stacked)\s+"
    r"(elements?|quads?|tris?|triangles?|beams?)\b|重复(的)?单元|单元重复|重叠(的)?单元",
    re.I,
)

_VERB = r"(delete|remove|clear|erase|wipe|discard|replace|rebuild|redo)"
_CLEAR_ALL_EN = [
    rf"\b{_VERB}\s+(everything|all of it|it all)\b",
    rf"\b{_VERB}\s+(the\s+)?(whole|entire|complete)\s+(part|mesh|model|geometry)\b",
    rf"\b{_VERB}\s+all\s+(the\s+)?(existing\s+)?(nodes and elements|elements and nodes|"
    r"geometry|mesh|content|contents)\b",
    r"\b(clear|wipe)\s+(out\s+)?(the\s+)?(part|mesh)\b",
    r"\breplace\s+(the\s+)?(existing\s+)?(part|mesh|geometry)\b",
    r"\b(start over|from scratch)\b",
]
_CLEAR_ALL_ZH = [
    r"清空",
    r"(删除|删掉|清除|移除|替换|重建)(掉)?(全部|所有|整个|一切)(的)?"
    r"(内容|网格|节点和单元|单元和节点|几何|零件)?(?![\u4e00-\u9fff])",
    r"(删除|删掉|清除|移除|替换|重建)(掉)?(全部|所有|整个|一切)(的)?"
    r"(内容|网格|节点和单元|单元和节点|几何|零件)",
    r"(全部|所有|一切|整个)(的)?(内容|网格|节点和单元|单元和节点|几何|零件)?(都)?"
    r"(删除|删掉|清除|移除|替换|重建)",
    r"推倒重来|从头重建|重新建模",
]
_CLEAR_ALL = [re.compile(p, re.I) for p in _CLEAR_ALL_EN + _CLEAR_ALL_ZH]

# A clause ends at punctuation or a contrast/sequence word: "keep the holes, but clear the
# part" negates only the first clause.
_CLAUSE_BREAK = re.compile(
    r"[,.;:!?](?=\s|$)|[\n，。；：！？、]|\b(but|then|instead)\b|然后|但是|但|而是", re.I
)
_NEGATION = re.compile(
    r"\b(not|never|no|without|cannot|dont|doesnt|shouldnt|wont|cant)\b|n['’]t\b"
    # 不 but not 不同/不规则/不仅/不过/不断 (different, irregular, not only, however, ...);
    # 别 but not 分别/特别/区别/类别/级别/识别/个别 (respectively, especially, ...).
    r"|不(?![同规仅过断少久])|(?<![分特区类级识个])别|勿|无需|无须|不要|不用",
    re.I,
)


# A sentence that scopes its "everything" (a region, a set, a coordinate bound) asks for part
# of the part, never the whole: "delete everything above z=5", "集合S1里的".
_SENTENCE_BREAK = re.compile(r"[.;!?](?=\s|$)|[\n。；！？]")
_SCOPE = re.compile(
    r"\b(above|below|beneath|beyond|outside|inside|within|between|except|"
    r"left of|right of|near|along|where|whose|which|that (are|is|lie|lies))\b"
    r"|\b(in|of|from|on|at)\s+(the\s+)?(sets?|box|region|area|groups?|zone|corner|edge|half|"
    r"left|right|top|bottom|elements?\s+\d|nodes?\s+\d|labels?)\b"
    r"|\b(over|under)\s+(the\s+)?([xyz]\b|-?\d)|\b[xyz]\s*(=|<|>|≤|≥)"
    r"|集合|分组|里的|里面|中的|内的|之内|以内|以上|以下|以外|之外|上方|下方|上面|下面|左边|右边|"
    r"左侧|右侧|区域|范围|附近|坐标|编号|标签|[xyzXYZ]\s*[=＝<>＜＞≤≥]",
    re.I,
)


def asks_for_sets(request_text: str) -> bool:
    return bool(_SET_WORDS.search(request_text))


def asks_for_duplicates(request_text: str) -> bool:
    """An unnegated ask for elements that repeat another element's nodes."""
    return any(not _negated(request_text, match.start())
               for match in _DUPLICATE_WORDS.finditer(request_text))


def asks_to_clear_all(request_text: str) -> bool:
    """An explicit, unnegated, unscoped ask to delete or replace the whole part."""
    return any(
        not _negated(request_text, match.start()) and not _scoped(request_text, match.start())
        for pattern in _CLEAR_ALL
        for match in pattern.finditer(request_text)
    )


def _scoped(text: str, start: int) -> bool:
    """Whether the sentence around ``start`` limits what is deleted (a region, a set, ...)."""
    begin, end = 0, len(text)
    for brk in _SENTENCE_BREAK.finditer(text):
        if brk.end() <= start:
            begin = brk.end()
        elif brk.start() >= start:
            end = brk.start()
            break
    return bool(_SCOPE.search(text, begin, end))


def _negated(text: str, start: int) -> bool:
    """Whether a negation precedes ``start`` in the same clause."""
    clause_start = 0
    for brk in _CLAUSE_BREAK.finditer(text, 0, start):
        clause_start = brk.end()
    return bool(_NEGATION.search(text, clause_start, start))
