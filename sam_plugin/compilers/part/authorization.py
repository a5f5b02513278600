"""What the original request authorizes: sets/groups, and an explicit full replacement.

The model may not extend the user's intent: element sets are dropped (and the drop reported)
unless the request asks for sets or groups; ``clear_all`` is rejected unless the request
explicitly asks to delete or replace everything.
"""

from __future__ import annotations

import re

_SET_WORDS = re.compile(r"\b(sets?|groups?|grouped|grouping)\b|集合|组", re.I)

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


def asks_for_sets(request_text: str) -> bool:
    return bool(_SET_WORDS.search(request_text))


def asks_to_clear_all(request_text: str) -> bool:
    return any(p.search(request_text) for p in _CLEAR_ALL)
