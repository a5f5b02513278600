"""Mesh routing tables: capabilities, tools, operation words (English and Chinese)."""

from __future__ import annotations

from sam_plugin.compilers.routing import RoutingRules
from sam_plugin.compilers.spec.out_of_mode_words import AUDIT_WORDS

CAPABILITIES: tuple[str, ...] = ("refine", "audit")
TOOL_NAMES = {"refine": "refine_mesh", "audit": "audit_mesh"}

KEYWORDS_EN = {
    "refine": ("refine", "refinement", "subdivide", "subdivision", "split", "densify",
               "finer"),
    "audit": ("audit", "check", "inspect", "quality", "hanging", "free edges", "histogram"),
}
KEYWORDS_ZH = {
    "refine": ("细化", "加密", "细分", "拆分", "一分为四"),
    "audit": ("审计", "检查", "质量", "悬挂节点", "自由边", "网格质量"),
}
ALIASES = {"细化": "refine", "加密": "refine", "审计": "audit", "检查": "audit"}

RULES = RoutingRules(
    title="Mesh",
    capabilities=CAPABILITIES,
    tool_names=TOOL_NAMES,
    keywords_en=KEYWORDS_EN,
    keywords_zh=KEYWORDS_ZH,
    aliases=ALIASES,
)

# what the request's words name that this mode does: where a request names one of these, its
# words asking for another mode's business are a Review warning, not a refusal (a mixed request)
DOES_WORDS: tuple[str, ...] = (
    r"\b(?:refine|refined|refining|refinement|finer|finest|subdivide|subdivided|split|"
    r"densify|levels?)\b|\b(?:as|more|too) fine\b",
    r"细化|加密|加细|细分|一分为",
    AUDIT_WORDS,
)
