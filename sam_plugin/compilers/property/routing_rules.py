"""Property routing tables: capabilities, tools, operation words (English and Chinese)."""

from __future__ import annotations

from sam_plugin.compilers.routing import RoutingRules
from sam_plugin.compilers.spec.out_of_mode_words import AUDIT_WORDS

CAPABILITIES: tuple[str, ...] = ("define", "assign", "audit")
TOOL_NAMES = {
    "define": "define_property",
    "assign": "assign_property",
    "audit": "audit_property",
}

KEYWORDS_EN = {
    "define": ("define", "create", "material", "materials", "section", "sections", "profile",
               "young's modulus", "youngs modulus", "poisson", "density", "thickness"),
    "assign": ("assign", "assignment", "apply", "orientation", "orient", "n1"),
    "audit": ("audit", "check", "inspect", "verify", "report"),
}
KEYWORDS_ZH = {
    "define": ("定义", "创建", "新建", "材料", "截面", "弹性模量", "泊松比", "密度", "厚度",
               "型材"),
    "assign": ("指派", "分配", "赋予", "赋值", "指定截面", "方向", "取向"),
    "audit": ("审计", "检查", "审核", "核查"),
}
ALIASES = {
    "定义": "define", "创建": "define", "指派": "assign", "分配": "assign", "赋予": "assign",
    "审计": "audit", "检查": "audit",
}

RULES = RoutingRules(
    title="Property",
    capabilities=CAPABILITIES,
    tool_names=TOOL_NAMES,
    keywords_en=KEYWORDS_EN,
    keywords_zh=KEYWORDS_ZH,
    aliases=ALIASES,
)

# what the request's words name that this mode does: where a request names one of these, its
# words asking for another mode's business are a Review warning, not a refusal (a mixed request)
DOES_WORDS: tuple[str, ...] = (
    r"\b(?:materials?|sections?|assign|thickness|thick|profile|orientation|n1|"
    r"1-direction|steel|alumin(?:i)?um)\b|\bsec\b",
    r"材料|截面|赋|厚|方向 ?n1|梁方向",
    AUDIT_WORDS,
)
