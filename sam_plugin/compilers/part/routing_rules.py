"""Part routing tables: capabilities, tools, operation words (English and Chinese)."""

from __future__ import annotations

from sam_plugin.compilers.routing import RoutingRules
from sam_plugin.compilers.spec.out_of_mode_words import AUDIT_WORDS, WIDE, ZH_WIDE

CAPABILITIES: tuple[str, ...] = ("build", "edit", "transform", "repair", "audit")
TOOL_NAMES = {
    "build": "build_part",
    "edit": "edit_part",
    "transform": "transform_part",
    "repair": "repair_part",
    "audit": "audit_part",
}

# "delete duplicate elements" is repair, not edit: the router lets the longest phrase win, so
# the repair operations are listed with the verbs that would otherwise read as edit.
_REPAIR_TARGETS_EN = ("duplicate elements", "duplicated elements", "free nodes",
                      "unused nodes", "orphan nodes", "unreferenced nodes")
_REPAIR_PHRASES_EN = tuple(
    f"{verb} {filler}{target}"
    for verb in ("delete", "remove", "clear", "drop")
    for filler in ("", "the ", "all ", "all the ", "any ")
    for target in _REPAIR_TARGETS_EN
)
_REPAIR_TARGETS_ZH = ("重复单元", "重复的单元", "自由节点", "孤立节点", "游离节点")
_REPAIR_PHRASES_ZH = tuple(
    f"{verb}{filler}{target}"
    for verb in ("删除", "删掉", "移除", "去除", "清除")
    for filler in ("", "所有", "全部", "所有的", "全部的")
    for target in _REPAIR_TARGETS_ZH
)

KEYWORDS_EN = {
    "build": ("build", "create", "generate", "construct"),
    "edit": ("add", "delete", "remove", "edit", "modify", "insert", "clear"),
    "transform": ("translate", "rotate", "mirror", "reflect", "scale", "copy", "array",
                  "shift", "move"),
    "repair": ("merge", "repair", "fix", "deduplicate", "coincident", *_REPAIR_TARGETS_EN,
               *_REPAIR_PHRASES_EN),
    "audit": ("audit", "check", "inspect", "verify", "quality"),
}
KEYWORDS_ZH = {
    "build": ("建立", "创建", "生成", "构建", "建模", "新建"),
    "edit": ("添加", "增加", "删除", "删掉", "移除", "修改", "编辑", "插入"),
    "transform": ("平移", "旋转", "镜像", "缩放", "复制", "阵列", "移动"),
    "repair": ("合并", "修复", "重合", *_REPAIR_TARGETS_ZH, *_REPAIR_PHRASES_ZH),
    "audit": ("审计", "检查", "审核", "质量"),
}
ALIASES = {
    "构建": "build", "建模": "build", "创建": "build", "编辑": "edit", "修改": "edit",
    "变换": "transform", "修复": "repair", "审计": "audit", "检查": "audit",
}

RULES = RoutingRules(
    title="Part",
    capabilities=CAPABILITIES,
    tool_names=TOOL_NAMES,
    keywords_en=KEYWORDS_EN,
    keywords_zh=KEYWORDS_ZH,
    empty_target_capability="build",
    combinable_only={"build": frozenset({"audit"})},
    nonempty_substitute={"build": "edit"},
    aliases=ALIASES,
)

# what the request's words name that this mode does: where a request names one of these, its
# words asking for another mode's business are a Review warning, not a refusal (a mixed request)
DOES_WORDS: tuple[str, ...] = (
    rf"\b(?:build|create|make|lay|add)\b{WIDE}\b(?:plates?|panels?|"
    r"rectangles?|squares?|strips?|floors?|webs?|columns?|lines?|grids?|meshes|nodes?|"
    r"elements?|elems?|quads?|tris?|triangles?|patch(?:es)?|rows?|stiffeners?|copy|"
    r"copies|sets?|beams?(?! section| profile))\b",
    r"\b(?:delete|del|rm|remove|take out|erase|wipe|scrap|replace|move|translate|shift|"
    r"offset|lift|raise|lower|copy|dup|duplicate|rotate|rot|mirror|reflect|flip|scale|"
    r"enlarge|shrink|array|repeat|pattern|merge|stitch|join|tidy|clean|extend|group)\b|"
    r"\b(?:a|an|the|element|node|new) set\b|\bset (?:called|named)\b|\bbeam line\b|"
    r"\+\s*\d+ (?:free )?nodes\b|\bn\d+\s*->",
    rf"(?:建|铺|(?<!施)加|补){ZH_WIDE}(?:板|梁|网格|单元|节点|零件|集合)|删|去掉|清理|清空|"
    r"平移|移动|挪|复制|旋转|绕[^。，]{0,10}转|转\s*\d+\s*度|镜像|缩放|放大|缩小|阵列|再排|"
    r"合并|集合",
    AUDIT_WORDS,
)
