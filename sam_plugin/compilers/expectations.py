"""The expected-results line of a prose spec, read tolerantly (English and Chinese): kept only to
read run directories written before the spec IR, whose ``expected`` field replaces it
(``compilers/spec/ir.py``, docs/architecture.md §4 "The spec").

The design prompts asked the spec to end with one line such as
``Expected results: 77 nodes, 60 elements (60 QUAD), sets: S1; selected: 12 elements`` or
``预期结果：77 个节点，60 个单元（60 个 QUAD），集合：S1；选中：12 个单元``. The plan lists every
disagreement between this line and the prediction as a warning. A missing or unreadable line
means "no expectations", never a failure: the line is the model's claim, not a contract.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, Field

_LINE = re.compile(
    r"^\s*[-*#>\s]*(\*\*)?\s*(expected\s+results?|expected\s+outcome|expectations?|expected"
    r"|预期结果|预期|期望结果)\s*(\*\*)?\s*[:：]\s*(?P<body>.+)$",
    re.I,
)
_SHAPE = r"(?P<shape>QUAD|TRI|BEAM)"
_N = r"(?P<n>\d{1,3}(?:,\d{3})+(?!\d)|\d+)"
_SHAPE_COUNTS = [
    re.compile(rf"{_N}\s*(个)?\s*{_SHAPE}\b(\s*(elements?|单元))?", re.I),
    re.compile(rf"\b{_SHAPE}\s*(elements?|单元)?\s*[:=：]?\s*{_N}", re.I),
]
_NODES = [
    re.compile(rf"{_N}\s*(个)?\s*(nodes?\b|节点)", re.I),
    re.compile(rf"(nodes?\b|节点)\s*(数)?\s*[:=：]?\s*{_N}", re.I),
]
_ELEMENTS = [
    re.compile(rf"{_N}\s*(个)?\s*(total\s+)?(elements?\b|单元)", re.I),
    re.compile(rf"(elements?\b|单元)\s*(数)?\s*[:=：]?\s*{_N}", re.I),
]
_SELECTED = [
    re.compile(rf"(selected|selects?|selection|选中|选择)\s*[:=：]?\s*{_N}\s*(个)?\s*"
               r"(?P<kind>elements?|nodes?|单元|节点)", re.I),
    re.compile(rf"{_N}\s*(个)?\s*(?P<kind>elements?|nodes?|单元|节点)\s*(are\s+|is\s+|被)?"
               r"(selected|选中)", re.I),
]
_SETS = re.compile(r"(\bsets?\b|集合)\s*[:=：]?\s*(?P<names>[A-Za-z][\w.-]*(\s*[,，、]\s*"
                   r"[A-Za-z][\w.-]*)*)", re.I)
_NO_SET_WORDS = {"none", "no", "nothing", "n", "a", "of", "the", "unchanged", "present"}


class Expectations(BaseModel):
    """What the spec itself expects after the run; ``None`` / empty = not stated."""

    nodes: int | None = None
    elements: int | None = None
    shapes: dict[str, int] = Field(default_factory=dict)
    sets: list[str] = Field(default_factory=list)
    selected: dict[str, int] = Field(default_factory=dict)  # "elements"/"nodes" -> count
    line: str = ""

    @property
    def empty(self) -> bool:
        return not (self.nodes is not None or self.elements is not None or self.shapes
                    or self.sets or self.selected)


def is_expectations_line(line: str) -> bool:
    """Whether ``line`` is an expected-results line (routing reads no operations in it)."""
    return _LINE.match(line) is not None


def parse_expectations(spec_text: str) -> Expectations:
    """The last expected-results line of ``spec_text``; empty Expectations when none."""
    body = ""
    line = ""
    for raw in spec_text.splitlines():
        match = _LINE.match(raw)
        if match:
            body, line = match.group("body"), raw.strip()
    if not body:
        return Expectations()
    try:
        return _parse_body(body, line)
    except (ValueError, IndexError):  # tolerant: a line we cannot read is no expectation
        return Expectations(line=line)


def _count(text: str) -> int:
    return int(text.replace(",", ""))


def _parse_body(body: str, line: str) -> Expectations:
    rest = body
    selected: dict[str, int] = {}
    for pattern in _SELECTED:
        for match in pattern.finditer(rest):
            kind = "nodes" if match.group("kind").lower().startswith(("node", "节")) else "elements"
            selected.setdefault(kind, _count(match.group("n")))
        rest = pattern.sub(" ", rest)
    sets: list[str] = []
    for match in _SETS.finditer(rest):
        for name in re.split(r"\s*[,，、]\s*", match.group("names")):
            if name and name.lower() not in _NO_SET_WORDS and name not in sets:
                sets.append(name)
    rest = _SETS.sub(" ", rest)
    shapes: dict[str, int] = {}
    for pattern in _SHAPE_COUNTS:
        for match in pattern.finditer(rest):
            shapes.setdefault(match.group("shape").upper(), _count(match.group("n")))
        rest = pattern.sub(" ", rest)
    nodes = _first(_NODES, rest)
    elements = _first(_ELEMENTS, rest)
    return Expectations(nodes=nodes, elements=elements, shapes=shapes, sets=sets,
                        selected=selected, line=line)


def _first(patterns: list[re.Pattern[str]], text: str) -> int | None:
    for pattern in patterns:
        match = pattern.search(text)
        if match:
            return _count(match.group("n"))
    return None
