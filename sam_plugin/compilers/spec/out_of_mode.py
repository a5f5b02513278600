"""A second signal beside the model's: the request's own words naming something the mode does
not do (docs/architecture.md §4 "The design, asked in parts").

Two readings of the same request:

- :func:`out_of_mode`: every word that *names* a category the mode does not do ("a load",
  "fixed edge", "material"). Each is a Review warning that names the words and the mode that
  does them, never a refusal on its own: "fix the duplicate nodes" is a repair.
- :func:`refused_by_words`: the category a request *asks* for, by a phrase of
  ``out_of_mode_words.ASKS`` (a verb with its object, or a term of art), when the request names
  nothing this mode does (its domain's ``does_words``). That ends the run at design with the
  category, whatever the model answered: the small models do not decide between planning and
  refusing from the request, so the refusal cannot wait for them to volunteer it. A request
  that asks for both ("refine the mesh, then apply the pressure") is planned, with the
  warning.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

from sam_plugin.compilers import registry
from sam_plugin.compilers.spec.out_of_mode_words import ASKS
from sam_plugin.compilers.spec.refusal_category import RefusalCategory
from sam_plugin.compilers.spec.refusal_words import (
    CATEGORY_WORDS,
    mode_doing,
    mode_title,
    refusal_sentence,
)
from sam_plugin.compilers.spec.request_words import fold

# the analyst's words for what no action of a geometry, property or mesh edit does
_WORDS: Mapping[RefusalCategory, tuple[str, ...]] = {
    "load": (r"\bloads?\b", r"\bloaded\b", r"\bpressures?\b", r"\bforces?\b",
             r"\btractions?\b", r"载荷", r"荷载", r"加载", r"压力", r"集中力"),
    "boundary_condition": (
        r"\bboundary conditions?\b", r"\bsupports?\b", r"\bsupported\b", r"\bclamp(?:ed|s)?\b",
        r"\bencastre\b", r"\bpinned\b", r"\bfixed (?:edge|end|side|base|support|boundary)\b",
        r"\bfix (?:the )?(?:left|right|top|bottom|base|outer|inner)? ?(?:edge|end|side|base)s?\b",
        r"边界条件", r"固支", r"固定约束", r"约束", r"支撑", r"支座",
        r"固定[\u4e00-\u9fff]{0,3}?(?:端|边|面)"),
    "contact": (r"\bcontacts?\b", r"\bfriction(?:al)?\b", r"接触", r"摩擦"),
    "mesh_generation": (r"\bcoarsen(?:s|ed|ing)?\b", r"\bcoarser\b", r"\bre-?mesh(?:es|ed|ing)?\b",
                        r"粗化", r"变粗", r"重新划分网格", r"重划网格"),
    # "density" alone is also a mesh's: only the material's words
    "material": (r"\bmaterials?\b", r"\b(?:young'?s|elastic) modulus\b",
                 r"\bpoisson'?s? ratio\b", r"\bmass density\b", r"材料", r"弹性模量",
                 r"杨氏模量", r"泊松比", r"质量密度"),
}
_PATTERNS = {category: re.compile("|".join(words), re.IGNORECASE)
             for category, words in _WORDS.items()}


@dataclass(frozen=True)
class OutOfMode:
    """Words of the request that name ``category``, which the run's mode does not do."""

    category: RefusalCategory
    words: tuple[str, ...]


def out_of_mode(request: str, mode: str) -> list[OutOfMode]:
    """What the request's words name that ``mode`` does not do, in category order."""
    found = []
    folded = fold(request)  # as every reader of the request's words: "Young’s" is "Young's"
    for category, pattern in _PATTERNS.items():
        if CATEGORY_WORDS[category].mode == mode:
            continue  # the mode's own business
        words = tuple(dict.fromkeys(m.group(0) for m in pattern.finditer(folded)))
        if words:
            found.append(OutOfMode(category, words))
    return found


_ASKING = {category: tuple((re.compile(a.pattern, re.IGNORECASE), a.not_in) for a in asks)
           for category, asks in ASKS.items()}


@cache
def _does(mode: str) -> re.Pattern[str] | None:
    """The words that name something ``mode`` does: its domain's ``does_words``, and what
    the categories it owns ask for ("apply a pressure" in the mode that applies loads)."""
    if mode not in registry.MODES:
        return None
    words = (*registry.get_module(mode).does_words,
             *(a.pattern for category, asks in ASKS.items()
               if CATEGORY_WORDS[category].mode == mode for a in asks))
    return re.compile("|".join(words), re.IGNORECASE) if words else None


@dataclass(frozen=True)
class AskedOutOfMode:
    """The category a request asks for that its mode does not do, with the words that ask."""

    category: RefusalCategory
    words: str
    at: int  # where the words begin in the folded request


def asked_out_of_mode(request: str, mode: str) -> list[AskedOutOfMode]:
    """Each category the request's phrases ask for that ``mode`` does not do, in the order
    the request says them (its first phrase each)."""
    folded = fold(request)
    found = []
    for category, patterns in _ASKING.items():
        if CATEGORY_WORDS[category].mode == mode:
            continue
        hits = [m for pattern, not_in in patterns if mode not in not_in
                for m in pattern.finditer(folded)]
        if hits:
            first = min(hits, key=lambda m: m.start())
            found.append(AskedOutOfMode(category, first.group(0).strip(), first.start()))
    return sorted(found, key=lambda f: f.at)


def names_what_mode_does(request: str, mode: str) -> bool:
    """Whether the request's words name something ``mode`` does (an action of its own)."""
    pattern = _does(mode)
    return pattern is not None and pattern.search(fold(request)) is not None


def refused_by_words(request: str, mode: str) -> AskedOutOfMode | None:
    """The refusal the request's own words make: the first category they ask for that
    ``mode`` does not do, when they name nothing the mode does; None otherwise."""
    asked = asked_out_of_mode(request, mode)
    if not asked or names_what_mode_does(request, mode):
        return None
    return asked[0]


def out_of_mode_warning(finding: OutOfMode, mode: str, language: str = "en") -> str:
    """The Review warning of one finding, naming the words and the mode that does them."""
    words = CATEGORY_WORDS[finding.category]
    said = ", ".join(f"“{w}”" for w in finding.words)
    doer = mode_doing(finding.category, mode)
    here = mode_title(mode, language)
    if language.lower().startswith("zh"):
        tail = (f"{mode_title(doer, language)} 模式做这件事" if doer
                else "插件目前没有模式做这件事")
        return (f"请求中的 {said} 指{words.zh}，{here} 模式不做；{tail}。"
                "这个规格只包含下面的步骤。")
    tail = f"the {mode_title(doer)} mode does that" if doer else "no mode of the plugin does that"
    return (f"the request says {said}: that is {words.en}, which the {here} mode does not "
            f"do ({tail}); this spec carries out only the steps below")


def words_refusal(asked: AskedOutOfMode, mode: str, language: str = "en") -> str:
    """The words a run refused by the request's own words ends with: the words quoted, then
    the category and the mode that does it."""
    sentence = refusal_sentence(asked.category, mode, language)
    if language.lower().startswith("zh"):
        return f"请求中的“{asked.words}”：{sentence}"
    return f"the request says “{asked.words}”: {sentence}"
