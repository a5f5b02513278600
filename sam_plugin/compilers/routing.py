"""The generic capability router of DESIGN.md §4 "Routing".

1. An explicit capability line — ``Planned <Module> capabilities: a, b`` or
   ``计划 <Module> 操作类别：a, b`` — wins; when several are present the last valid one wins.
2. Else the capabilities are inferred from explicit operation words of the spec, using the
   keyword tables the module supplies (English by word, Chinese by substring).
3. Else the route is refused with advice.

An empty or missing target routes to the module's ``empty_target_capability`` (Part: build).
Combination rules come from the module (Part: build combines with audit only).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from sam_plugin.compilers.protocol import Route
from sam_plugin.errors import RouteRefused

_SPLIT = re.compile(r"[,，、;；/|]+|\s+(?:and|&|和|及)\s+|\s+")
_STRIP = "`*_.。 '\"[](){}<>"


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
    name = re.escape(title)
    return [
        re.compile(rf"planned\s+{name}\s+capabilities\s*[:：]\s*(?P<caps>.*)$", re.I),
        re.compile(rf"计划\s*{name}\s*操作类别\s*[:：]\s*(?P<caps>.*)$", re.I),
    ]


def read_capability_line(rules: RoutingRules, spec_text: str) -> list[str] | None:
    """The capabilities of the last valid capability line, or ``None``."""
    patterns = _line_patterns(rules.title)
    chosen: list[str] | None = None
    for raw in spec_text.splitlines():
        line = raw.strip().strip("`*_>#- \t")
        for pattern in patterns:
            match = pattern.search(line)
            if match:
                caps = _parse_caps(rules, match.group("caps"))
                if caps:
                    chosen = caps
    return chosen


def _parse_caps(rules: RoutingRules, text: str) -> list[str] | None:
    items = [item.strip(_STRIP).lower() for item in _SPLIT.split(text)]
    items = [rules.aliases.get(item, item) for item in items if item]
    if not items or any(item not in rules.capabilities for item in items):
        return None
    return [cap for cap in rules.capabilities if cap in items]


def infer_capabilities(rules: RoutingRules, spec_text: str) -> list[str]:
    """Capabilities whose explicit operation words occur in the spec."""
    lowered = spec_text.lower()
    found: set[str] = set()
    for cap, words in rules.keywords_en.items():
        if any(re.search(rf"\b{re.escape(w.lower())}\b", lowered) for w in words):
            found.add(cap)
    for cap, words in rules.keywords_zh.items():
        if any(w in spec_text for w in words):
            found.add(cap)
    return [cap for cap in rules.capabilities if cap in found]


def route(rules: RoutingRules, spec_text: str, target_is_empty: bool) -> Route:
    """Capabilities and tools in canonical order; raises :class:`RouteRefused`."""
    explicit = read_capability_line(rules, spec_text)
    method = "capability_line" if explicit else "semantic"
    caps = explicit or infer_capabilities(rules, spec_text)
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
    caps = [c for c in rules.capabilities if c in substituted]
    _check_combinations(rules, caps)
    return _route(rules, method, caps, detail)


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
        method=method,  # type: ignore[arg-type]
        capabilities=caps,
        tools=[rules.tool_names[c] for c in caps],
        detail=detail,
    )
