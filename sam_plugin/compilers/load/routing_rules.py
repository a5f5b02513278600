"""Load routing tables: capabilities, tools, operation words (English and Chinese)."""

from __future__ import annotations

from sam_plugin.compilers.routing import RoutingRules
from sam_plugin.compilers.spec.out_of_mode_words import AUDIT_WORDS

CAPABILITIES: tuple[str, ...] = ("step", "load", "boundary", "audit")
TOOL_NAMES = {"step": "define_step", "load": "apply_load", "boundary": "apply_boundary",
              "audit": "audit_loads"}

KEYWORDS_EN = {
    "step": ("step", "static step", "analysis step"),
    "load": ("load", "pressure", "force", "traction"),
    "boundary": ("boundary condition", "fix", "fixed", "clamp", "clamped", "support",
                 "encastre", "displacement", "displace"),
    "audit": ("audit", "check", "inspect", "report"),
}
KEYWORDS_ZH = {
    "step": ("分析步", "静力步"),
    "load": ("载荷", "荷载", "压力", "集中力"),
    "boundary": ("边界条件", "固定", "固支", "约束", "位移"),
    "audit": ("审计", "检查"),
}
ALIASES = {"分析步": "step", "载荷": "load", "边界条件": "boundary", "审计": "audit"}

RULES = RoutingRules(
    title="Load",
    capabilities=CAPABILITIES,
    tool_names=TOOL_NAMES,
    keywords_en=KEYWORDS_EN,
    keywords_zh=KEYWORDS_ZH,
    aliases=ALIASES,
)

# what the request's words name that this mode does: where a request names one of these, its
# words asking for another mode's business are a Review warning, not a refusal (a mixed request)
DOES_WORDS: tuple[str, ...] = (
    r"\b(?:steps?|loads?|loaded|loading|pressures?|forces?|push|pull|fix|fixed|clamp\w*|"
    r"pin|pinned|supports?|supported|restrain\w*|constrain\w*|encastre|boundary|bcs?|"
    r"displace\w*|prescribe\w*|dofs?|u[123]|ur[123]|mpa|kpa|kn)\b",
    r"分析步|载荷|荷载|压力|压强|(?<![自能动])力|固定|固支|铰支|简支|约束|位移|边界条件|支座",
    AUDIT_WORDS,
)
