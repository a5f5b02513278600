"""A mode's action vocabulary (docs/architecture.md §4 "The spec"): which actions a step may
name, under which capability, with which ``values``, and how the step reads in words.

Each domain module owns its vocabulary (``compilers/<domain>/actions.py``) and the map from
its normalized tool calls to :class:`CallOperation` s, which the binding compares with the
steps. The phrase templates here are the one wording of an action: the rendering of the spec,
the plan's "step 2 ✓ ..." lines and the binding's contradictions all use them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel

from sam_plugin.compilers.spec.values import (
    Language,
    ValueDef,
    label_words,
    point_words,
    value_words,
)
from sam_plugin.compilers.units import UnitSystem, with_unit

ScopeRule = Literal["required", "optional", "none"]
# what a scope's members are, for the scope-width rule and for words: the elements it picks,
# the nodes it picks, or the nodes a transform moves (``all`` includes free nodes)
Members = Literal["elements", "nodes", "transform"]

_SEGMENT = re.compile(r"\[([^\[\]]*)\]")
# ``{key}``, or ``{a;b;c}``: the words of those of a, b, c that are given, joined
_PLACEHOLDER = re.compile(r"\{(\w+(?:;\w+)*)\}")


@dataclass(frozen=True)
class ActionDef:
    """One action of a mode: its capability, its values (in phrase order) and its words.

    ``en``/``zh`` are phrase templates: ``{key}`` is a value (``{scope}`` the scope), and a
    ``[...]`` segment is left out when a value it names is absent. ``required`` values must
    be given in every step of this action; ``keeps_counts`` says the action changes no node,
    element, shape or set count (so expected counts can be checked against the part as it is
    now, at Review). ``defaults`` are what a step that leaves such a value out states: the
    reader fills them in, so the analyst reads them and every call is bound to them."""

    name: str
    capability: str
    values: Mapping[str, ValueDef]
    en: str
    zh: str
    required: tuple[str, ...] = ()
    scope: ScopeRule = "none"
    members: Members = "elements"
    mutating: bool = True
    keeps_counts: bool = False
    whole_part: bool = False  # the call acts on the whole part: an ``all`` scope says nothing
    # (labels key, points key): one point per label, held in label order
    paired: tuple[str, str] | None = None
    description: str = ""
    defaults: Mapping[str, Any] = field(default_factory=dict)
    # values that together say all of what the step adds (patches, lines, elements): when a
    # step states one of them, a call may add nothing under the others that it does not state
    together: tuple[str, ...] = ()
    # ways of stating the same thing, one of which a step takes (a rectangle by its size, or
    # its geometry by coordinates): a step stating two of them contradicts itself, and a
    # grammar offers each as a variant of its own
    alternatives: tuple[tuple[str, ...], ...] = ()
    # a transform that copies (bound by the elements it copies, not the nodes it moves):
    # always, or when the value ``copies_if`` names is true (mirror's ``copy``)
    copies: bool = False
    copies_if: str | None = None
    # the selectors (``by``) this action's scope may take, when not every one: a force acts
    # on nodes, and a shape picks elements; a grammar holding the step offers only these
    selects: tuple[str, ...] = ()
    # -- the design's grammars (compilers/spec/schema.py, compilers/spec/parts.py) --
    # what the analyst says for this action, in the analyst's terms (the first question)
    asks: str = ""
    # (the choice value, {its option: the values only that option states}): a shell section
    # states a thickness, a beam section a profile; each option is a grammar variant of its own
    kinds: tuple[str, Mapping[str, tuple[str, ...]]] | None = None
    # value -> the names it must be one of (``sections``: the model's or an earlier step's)
    refers: Mapping[str, str] = field(default_factory=dict)
    # (the names it adds to, the value naming the new one): ``define_section`` adds a section
    defines: tuple[str, str] | None = None
    # values a step held to a grammar states in the way of stating that has them (a
    # rectangle build its shape, size, divisions and plane), and the choices that way narrows
    # to (a rectangle is QUAD or TRI: a BEAM line states its start and end); a grammar asks
    # required values first, in the order of ``values``
    states: tuple[str, ...] = ()
    narrows: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # value -> (the key a step asked in parts states it under, what is added to that to make
    # the value, its description): an array's instances are asked as the new copies (+ 1)
    asked_as: Mapping[str, tuple[str, int, str]] = field(default_factory=dict)
    # the request's words that name this action unmistakably (patterns, case-insensitive,
    # English and Chinese: "stray nodes", "重复单元"), and the actions a step written in its
    # place takes ("delete nodes 1, 11" for the free nodes): a spec with such a step and
    # none of this action asks that step again (``compilers/spec/request_actions.py``)
    named_by: tuple[str, ...] = ()
    stand_ins: tuple[str, ...] = ()
    # what the request's words must ask for a step of this action (key ``""``), or one of its
    # values, to stand (patterns, case-insensitive): the compile leaves out what the request
    # does not ask for ("sets or groups"), so a model's spec does too, saying so at Review
    # (``compilers/spec/unasked.py``); the reason in words beside the patterns
    asked_by: Mapping[str, tuple[tuple[str, ...], str]] = field(default_factory=dict)

    def phrase(self, values: Mapping[str, Any], scope: BaseModel | None,
               language: Language = "en", *, person: Literal["step", "call"] = "step",
               units: UnitSystem | None = None) -> str:
        """The action in words: ``translate set S1 by (5, 0, 0)``; for ``person="call"`` the
        third person the binding uses (``translates all nodes by (0, 500, 0)``). ``units``:
        the words for people, each measured value with its unit (``by (5, 0, 0) mm``)."""
        words: dict[str, str] = {
            key: value_words(self.values[key], value, language, units)
            for key, value in values.items() if key in self.values
        }
        if scope is not None and not (self.whole_part and _is_all(scope)):
            words["scope"] = scope_words(scope, self.members, language, units)
        text = fill(self.zh if language == "zh" else self.en, words)
        if language == "zh":
            text = spaced(text)
        if person == "call" and language == "en":
            head, _, rest = text.partition(" ")
            text = f"{third_person(head)} {rest}".rstrip()
        return text


@dataclass(frozen=True)
class Vocabulary:
    """Every action of one mode, and the capabilities' words."""

    mode: str
    title: str
    capabilities: tuple[str, ...]
    capability_words: Mapping[str, tuple[str, str]]  # capability -> (en, zh)
    actions: tuple[ActionDef, ...]
    max_steps: int = 8  # the steps a spec the model is asked for may hold
    _by_name: dict[str, ActionDef] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_name = {a.name: a for a in self.actions}
        if len(by_name) != len(self.actions):
            raise ValueError(f"{self.title}: an action name appears twice")
        unknown = [a.name for a in self.actions if a.capability not in self.capabilities]
        if unknown:
            raise ValueError(f"{self.title}: actions without a capability: {unknown}")
        object.__setattr__(self, "_by_name", by_name)

    def action(self, name: str) -> ActionDef | None:
        return self._by_name.get(name) if isinstance(name, str) else None

    def names(self) -> tuple[str, ...]:
        return tuple(a.name for a in self.actions)

    def capability_word(self, capability: str, language: Language = "en") -> str:
        en, zh = self.capability_words.get(capability, (capability, capability))
        return zh if language == "zh" else en


@dataclass(frozen=True)
class CallOperation:
    """One operation a compiled call performs, as the binding compares it with a step:
    ``path`` is where it sits in the call's arguments (``operations[1]``,
    ``delete_elements``); ``values`` are normalized as a step's; ``scope`` is the selector it
    acts on (``None`` for operations that act on no existing entities); ``counts`` what it
    makes, which the counts a step claims are checked against (``nodes``, ``elements``,
    ``count``)."""

    tool: str
    path: str
    action: str
    values: Mapping[str, Any]
    scope: BaseModel | None = None
    counts: Mapping[str, int] = field(default_factory=dict)


def _is_all(scope: BaseModel) -> bool:
    return getattr(scope, "by", None) == "all"


def fill(template: str, words: Mapping[str, str]) -> str:
    """``template`` with its placeholders filled; a ``[...]`` segment naming a missing word
    is dropped (docs/architecture.md §4: the words come from the IR only)."""

    def said(placeholder: str) -> str | None:
        given = [words[key] for key in placeholder.split(";") if key in words]
        return "; ".join(given) if given else None

    def segment(match: re.Match[str]) -> str:
        inner = match.group(1)
        if any(said(p) is None for p in _PLACEHOLDER.findall(inner)):
            return ""
        return _PLACEHOLDER.sub(lambda m: said(m.group(1)) or "", inner)

    text = _SEGMENT.sub(segment, template)
    text = _PLACEHOLDER.sub(lambda m: said(m.group(1)) or "?", text)
    return " ".join(text.split()) if " " in text else text


_CJK = "\u3400-\u9fff\uf900-\ufaff"
_LATIN_THEN_CJK = re.compile(rf"(?<=[A-Za-z0-9)\]])(?=[{_CJK}])")
_CJK_THEN_LATIN = re.compile(rf"(?<=[{_CJK}])(?=[A-Za-z0-9(\[])")


def spaced(text: str) -> str:
    """Chinese words with a space where they meet Latin letters or numbers (``集合 S1 平移``)."""
    return _CJK_THEN_LATIN.sub(" ", _LATIN_THEN_CJK.sub(" ", text))


def third_person(verb: str) -> str:
    """``translate`` -> ``translates``, ``copy`` -> ``copies``, ``refine`` -> ``refines``."""
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ies"
    if verb.endswith(("s", "sh", "ch", "x")):
        return verb + "es"
    return verb + "s"


_SCOPE_NOUNS = {
    # members -> (singular en, plural en, zh)
    "elements": ("element", "elements", "单元"),
    "nodes": ("node", "nodes", "节点"),
    "transform": ("element", "elements", "单元"),
}


# (kind, labels) picked in the viewport while a spec is rendered (runtime/selection.py)
_SELECTED: ContextVar[tuple[str, frozenset[int]] | None] = ContextVar("selected_scope",
                                                                      default=None)


@contextmanager
def selected_scope(kind: str | None, labels: Iterable[int]) -> Iterator[None]:
    """While rendering, a labels scope equal to what was picked reads "the 12 selected
    elements" (``kind``: elements or nodes; None: nothing was picked)."""
    token = _SELECTED.set((kind, frozenset(labels)) if kind else None)
    try:
        yield
    finally:
        _SELECTED.reset(token)


def _selected_words(picked: list[int], members: Members, zh: bool) -> str | None:
    selected = _SELECTED.get()
    kind = "nodes" if members == "nodes" else "elements"
    if selected is None or selected != (kind, frozenset(picked)):
        return None
    one, many, zh_noun = _SCOPE_NOUNS[kind]
    if zh:
        return f"选中的 {len(picked)} 个{zh_noun}"
    return f"the selected {one}" if len(picked) == 1 else f"the {len(picked)} selected {many}"


def scope_words(selector: BaseModel, members: Members = "elements",
                language: Language = "en", units: UnitSystem | None = None) -> str:
    """A selector in words: ``set S1``, ``elements 2, 3``, ``all nodes``; ``the 12 selected
    elements`` for the labels picked in the viewport (``selected_scope``)."""
    data = selector.model_dump(mode="python")
    kind = data.get("by")
    one, many, zh_noun = _SCOPE_NOUNS[members]
    zh = language == "zh"
    if kind == "all":
        if members == "transform":
            return "全部节点" if zh else "all nodes"
        return f"全部{zh_noun}" if zh else f"all {many}"
    if kind == "labels":
        picked = list(data.get("labels", ()))
        selected = _selected_words(picked, members, zh)
        if selected is not None:
            return selected
        if zh:
            return f"{zh_noun} {label_words(picked)}"
        return f"{one if len(picked) == 1 else many} {label_words(picked)}"
    if kind == "set":
        return f"集合 {data.get('name')}" if zh else f"set {data.get('name')}"
    if kind == "shape":
        return f"全部 {data.get('shape')} 单元" if zh else f"the {data.get('shape')} elements"
    if kind == "box":
        box = with_unit(f"{point_words(data['min'])}-{point_words(data['max'])}", "length",
                        units)
        noun = "节点" if members == "nodes" else "单元"
        if zh:
            return f"框 {box} 内的{noun}"
        return f"the {'nodes' if members == 'nodes' else 'elements'} inside the box {box}"
    return str(kind)
