"""The refusal categories in the analyst's terms, and the mode that does each one
(docs/architecture.md §4 "The design, asked in parts").

Words are data here: a category's noun and description in English and Chinese, and the mode
that does it (None: no mode of the plugin does). The sentence a refused run ends with is
rendered from them at the edge (:func:`refusal_sentence`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from sam_plugin.compilers import registry
from sam_plugin.compilers.spec.refusal_category import REFUSAL_CATEGORIES, RefusalCategory


@dataclass(frozen=True)
class CategoryWords:
    """One category: its noun (en, zh), what it covers (the question's description), and the
    mode that does it."""

    en: str
    zh: str
    covers: str
    mode: str | None = None


CATEGORY_WORDS: Mapping[RefusalCategory, CategoryWords] = {
    "load": CategoryWords("a load", "载荷",
                          "a load, force, pressure or moment on the part", "load"),
    "boundary_condition": CategoryWords(
        "a boundary condition", "边界条件",
        "a support, a fixed or clamped edge, a prescribed displacement", "load"),
    "contact": CategoryWords("contact", "接触",
                             "contact, friction or tie between surfaces or parts"),
    "analysis_step": CategoryWords("an analysis step", "分析步",
                                   "an analysis step (static, dynamic, frequency)", "load"),
    "job": CategoryWords("a job", "作业",
                         "running or submitting a job, solving, results, stresses"),
    "material": CategoryWords(
        "a material", "材料",
        "a material or its values (Young's modulus, Poisson's ratio, density)", "property"),
    "section": CategoryWords("a section", "截面",
                             "a section, a thickness or a beam profile, or assigning one",
                             "property"),
    "geometry": CategoryWords(
        "a change of the geometry", "几何修改",
        "building, moving, copying, deleting or repairing nodes and elements", "part"),
    "mesh_generation": CategoryWords(
        "a remesh", "重新划分网格",
        "remeshing, coarsening, or changing the element type (refining is Mesh mode)"),
    "other": CategoryWords("something none of the plugin's modes does", "插件各模式都不做的操作",
                           "anything else no action here does"),
}
assert tuple(CATEGORY_WORDS) == REFUSAL_CATEGORIES  # one entry per category, in order

def mode_doing(category: RefusalCategory, mode: str) -> str | None:
    """The mode that does ``category`` when it is another than ``mode`` (None: none does)."""
    doer = CATEGORY_WORDS[category].mode
    return doer if doer is not None and doer != mode else None


def mode_title(mode: str, language: str = "en") -> str:
    """The mode's English title, in the sentences of every ``language`` ("Load 模式"): the
    registry's, as a design prompt names the mode."""
    return registry.mode_title(mode)


def refusal_sentence(category: RefusalCategory, mode: str, language: str = "en") -> str:
    """``this asks for a boundary condition: the Load mode applies those. Nothing was run.``"""
    words = CATEGORY_WORDS[category]
    doer = mode_doing(category, mode)
    here = mode_title(mode, language)
    if language.lower().startswith("zh"):
        tail = (f"请在 {mode_title(doer, language)} 模式中完成。" if doer
                else "插件目前没有模式做这件事。")
        return f"这个请求要求{words.zh}，{here} 模式不做这件事；{tail}未执行任何操作。"
    tail = (f"the {mode_title(doer)} mode does that: pick it and submit again." if doer
            else "no mode of the plugin does that yet.")
    return f"this asks for {words.en}, which the {here} mode does not do; {tail} Nothing was run."
