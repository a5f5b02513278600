"""The generic capability router of docs/architecture.md §4 "Routing".

1. An explicit capability line — ``Planned <Module> capabilities: a, b`` or
   ``计划 <Module> 操作类别：a, b`` — wins; when several are present the last valid one wins.
   The line is read in bold, in a code span, after a bullet or a heading mark, and in
   Chinese with full-width punctuation.
2. Else the capabilities are inferred from explicit operation words of the spec, using the
   keyword tables the module supplies (English by word, Chinese by substring); a longer
   phrase wins over the words inside it ("delete duplicate elements" is repair, not edit).
   Lines that merely repeat the design prompt's list of capabilities are not read: a small
   model echoing the prompt must not route to everything the prompt lists.
3. Else the route is refused with advice.

An empty or missing target routes to the module's ``empty_target_capability`` (Part: build).
Combination rules come from the module (Part: build combines with audit only).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from sam_plugin.compilers.expectations import is_expectations_line
from sam_plugin.compilers.protocol import Route
from sam_plugin.errors import RouteRefused

_SPLIT = re.compile(r"[,，、;；/|]+|\s+(?:and|&|和|及)\s+|\s+")
_STRIP = "`*_.。 '\"[](){}<>（）【】「」《》“”‘’：:！!"
_LINE_DECORATION = "`*_>#-•·+ \t"
_BULLET = re.compile(r"^\s*(?:[-*+•·>#]+|\d+[.)、])\s*")
_MARKUP = "[\\s*_`]*"  # bold, italics or a code span between the words of the line
_MIN_ECHO_CHARS = 12
_CLAUSE = re.compile(r"[()（）。；;]|\.(?:\s|$)")
_ECHO_LIST_MIN = 4  # modules with this many capabilities: a plan never names them all


@dataclass(frozen=True)
class RoutingRules:
    """What one module tells the router."""

    title: str  # "Part": the word in "Planned Part capabilities"
    capabilities: tuple[str, ...]  # canonical order
    tool_names: Mapping[str, str]
    keywords_en: Mapping[str, tuple[str, ...]]
    keywords_zh: Mapping[str, tuple[str, ...]]
    empty_target_capability: str | None = None
    # capability -> the only capabilities it may be combined with
    combinable_only: Mapping[str, frozenset[str]] = field(default_factory=dict)
    # capability -> what it becomes on a non-empty target (Part: build -> edit)
    nonempty_substitute: Mapping[str, str] = field(default_factory=dict)
    aliases: Mapping[str, str] = field(default_factory=dict)  # e.g. 审计 -> audit

    def line_example(self) -> str:
        return f"Planned {self.title} capabilities: {', '.join(self.capabilities[:2])}"


def _line_patterns(title: str) -> list[re.Pattern[str]]:
    # anchored at the line start: the prompt's own '(for example: "Planned ...")' echoed in a
    # spec is not the spec's line
    name = re.escape(title)
    m = _MARKUP
    return [
        re.compile(
            rf"^planned\s+(?:{name}\s+)?capabilities{m}\s*[:：]{m}(?P<caps>.*)$", re.I
        ),
        re.compile(rf"^计划{m}(?:{name})?{m}操作类别{m}\s*[:：]{m}(?P<caps>.*)$", re.I),
    ]


def _capability_lines(title: str, spec_text: str) -> list[tuple[int, str]]:
    """(line number, listed capabilities text) of every capability-shaped line."""
    patterns = _line_patterns(title)
    found = []
    for number, raw in enumerate(spec_text.splitlines()):
        line = _BULLET.sub("", raw.strip()).strip(_LINE_DECORATION)
        for pattern in patterns:
            match = pattern.search(line)
            if match:
                found.append((number, match.group("caps")))
                break
    return found


def read_capability_line(rules: RoutingRules, spec_text: str) -> list[str] | None:
    """The capabilities of the last valid capability line, or ``None``."""
    chosen: list[str] | None = None
    for _, listed in _capability_lines(rules.title, spec_text):
        caps = _parse_caps(rules, listed)
        if caps:
            chosen = caps
    return chosen


def without_capability_lines(title: str, spec_text: str) -> str:
    """The spec without its capability lines (valid or not): what it says besides them."""
    dropped = {number for number, _ in _capability_lines(title, spec_text)}
    return "\n".join(
        line for number, line in enumerate(spec_text.splitlines()) if number not in dropped
    )


def split_capability_line(title: str, spec_text: str) -> tuple[str, str]:
    """(the spec without its capability lines, the last of them as written, or ``""``): what
    a view shows as the spec body and what it says in words under it."""
    lines = spec_text.rstrip().splitlines()
    found = _capability_lines(title, spec_text)
    if not found:
        return spec_text, ""
    dropped = {number for number, _ in found}
    body = "\n".join(line for number, line in enumerate(lines) if number not in dropped)
    return body.rstrip(), lines[found[-1][0]].strip()


def _parse_caps(rules: RoutingRules, text: str) -> list[str] | None:
    items = [item.strip(_STRIP).lower() for item in _SPLIT.split(text)]
    items = [rules.aliases.get(item, item) for item in items if item]
    if not items or any(item not in rules.capabilities for item in items):
        return None
    return [cap for cap in rules.capabilities if cap in items]


def infer_capabilities(rules: RoutingRules, spec_text: str, prompt_text: str = "") -> list[str]:
    """Capabilities whose explicit operation words occur in the spec; the longest phrase
    wins where phrases overlap. Lines echoing the prompt's capability list are skipped, and so
    is the expected-results line: it states outcomes ("0 free nodes"), not operations."""
    text = _without_echo(rules, _without_expected_results(spec_text), prompt_text)
    lowered = text.lower()
    matches: list[tuple[int, int, str]] = []  # (start, end, capability)
    for cap, words in rules.keywords_en.items():
        for word in words:
            phrase = r"\s+".join(re.escape(part) for part in word.lower().split())
            matches += [(m.start(), m.end(), cap)
                        for m in re.finditer(rf"\b{phrase}\b", lowered)]
    for cap, words in rules.keywords_zh.items():
        for word in words:
            matches += [(m.start(), m.end(), cap) for m in re.finditer(re.escape(word), text)]
    taken: list[tuple[int, int]] = []
    found: set[str] = set()
    for start, end, cap in sorted(matches, key=lambda m: (m[0] - m[1], m[0])):
        if all(end <= s or start >= e for s, e in taken):
            taken.append((start, end))
            found.add(cap)
    return [cap for cap in rules.capabilities if cap in found]


def _without_expected_results(spec_text: str) -> str:
    return "\n".join(
        line for line in spec_text.splitlines()
        if not is_expectations_line(line)
    )


def _without_echo(rules: RoutingRules, spec_text: str, prompt_text: str) -> str:
    """The spec without lines that only repeat the prompt's list of capabilities.

    Dropped: lines the prompt holds verbatim; a line listing every capability name in
    canonical order ("build, edit, transform, repair, audit"); a block of "cap: ..." lines
    that defines every capability (the prompt's list, echoed or translated). The last two
    only for modules of four or more capabilities, where a real plan never names them all
    (Part: build and edit exclude each other); a three-capability plan may.
    """
    prompt = _normalized(prompt_text)
    lines = spec_text.splitlines()
    every = set(rules.capabilities)
    whole_list = len(every) >= _ECHO_LIST_MIN
    listing = re.compile(r"[\s,，、;；/|]+".join(map(re.escape, rules.capabilities)), re.I)
    names = {cap: (cap, *[a for a, c in rules.aliases.items() if c == cap])
             for cap in rules.capabilities}
    dropped: set[int] = set()
    block: list[tuple[int, str]] = []

    def close_block() -> None:
        if whole_list and {cap for _, cap in block} >= every:
            dropped.update(number for number, _ in block)
        block.clear()

    for number, line in enumerate(lines):
        if prompt:
            line = lines[number] = _unechoed(line, prompt)
        if whole_list and listing.search(line):
            dropped.add(number)
        head = _BULLET.sub("", line.strip()).strip(_LINE_DECORATION).lower()
        defined = next((cap for cap in rules.capabilities for n in names[cap]
                        if re.match(rf"{re.escape(n)}\W{{0,3}}\s*[:：(（-]", head)), None)
        if defined is None:
            close_block()
        else:
            block.append((number, defined))
    close_block()
    return "\n".join(line for number, line in enumerate(lines) if number not in dropped)


def _unechoed(line: str, prompt: str) -> str:
    """``line`` without the clauses (or the whole line) the prompt holds verbatim."""
    plain = _normalized(line)
    if len(plain) >= _MIN_ECHO_CHARS and plain in prompt:
        return ""
    kept = [clause for clause in _CLAUSE.split(line)
            if len(_normalized(clause)) < _MIN_ECHO_CHARS or _normalized(clause) not in prompt]
    return " ".join(kept)


def _normalized(text: str) -> str:
    """Lower case, without bullets and markup, whitespace (line breaks too) collapsed."""
    lines = (_BULLET.sub("", raw.strip()).strip(_LINE_DECORATION) for raw in text.splitlines())
    return " ".join(" ".join(lines).lower().split()).strip(" .。")


def route(
    rules: RoutingRules, spec_text: str, target_is_empty: bool, prompt_text: str = ""
) -> Route:
    """Capabilities and tools in canonical order; raises :class:`RouteRefused`.

    ``prompt_text`` is the design prompt the spec answered: lines that merely repeat it are
    not read as the spec's operation words."""
    explicit = read_capability_line(rules, spec_text)
    method = "capability_line" if explicit else "semantic"
    caps = explicit or infer_capabilities(rules, spec_text, prompt_text)
    detail = ""
    if target_is_empty and rules.empty_target_capability:
        wanted = rules.empty_target_capability
        companions = rules.combinable_only.get(wanted, frozenset(rules.capabilities))
        kept = [wanted] + [c for c in caps if c in companions and c != wanted]
        ignored = [c for c in caps if c not in kept]
        detail = "the target part is missing or empty, so it is built"
        if ignored:
            detail += f"; not routed on an empty part: {', '.join(ignored)}"
        return _route(rules, "empty_target", kept, detail)
    if not caps:
        legal = ", ".join(rules.capabilities)
        raise RouteRefused(
            f"Could not tell which {rules.title} capabilities the spec asks for. End the spec "
            f"with a line such as '{rules.line_example()}' (legal capabilities: {legal}), "
            "or name the operation explicitly."
        )
    substituted = [rules.nonempty_substitute.get(c, c) for c in caps]
    if substituted != caps:
        changed = [f"{a} -> {b}" for a, b in zip(caps, substituted, strict=True) if a != b]
        detail = f"the target part is not empty: {', '.join(changed)}"
    became = {a: b for a, b in zip(caps, substituted, strict=True) if a != b}
    caps = [c for c in rules.capabilities if c in substituted]
    _check_combinations(rules, caps)
    return _route(rules, method, caps, detail).model_copy(update={"substituted": became})


def route_capabilities(rules: RoutingRules, capabilities: list[str],
                       target_is_empty: bool) -> Route:
    """The route of a spec IR: its steps' capabilities, under the same empty-target,
    substitution and combination rules as a prose spec (docs/architecture.md §4). Raises
    :class:`RouteRefused`; the caller compares the route with the steps."""
    unknown = [c for c in capabilities if c not in rules.capabilities]
    if unknown:
        raise RouteRefused(f"unknown {rules.title} capabilities {', '.join(unknown)}; legal "
                           f"capabilities: {', '.join(rules.capabilities)}")
    spec_text = f"Planned {rules.title} capabilities: {', '.join(capabilities)}"
    found = route(rules, spec_text, target_is_empty)
    return found.model_copy(update={"method": "steps"})


def _check_combinations(rules: RoutingRules, caps: list[str]) -> None:
    for cap, companions in rules.combinable_only.items():
        if cap in caps:
            extra = [c for c in caps if c != cap and c not in companions]
            if extra:
                allowed = ", ".join(sorted(companions)) or "nothing"
                raise RouteRefused(
                    f"{cap} combines only with {allowed}, but the spec also plans "
                    f"{', '.join(extra)}; split the request: {cap} first, then the rest."
                )


def _route(rules: RoutingRules, method: str, caps: list[str], detail: str) -> Route:
    return Route(
        method=method,
        capabilities=caps,
        tools=[rules.tool_names[c] for c in caps],
        detail=detail,
    )
