"""The words that name the Part mode's repairs unmistakably, in English and Chinese, and the
actions a small model writes in their place (docs/architecture.md §4 "One repair before
Review"): "rm free nodes" answered with "delete nodes 1, 11", "有个单元重复了" with "delete the
TRI elements", "join the two halves up" with one TRI element across the seam.

Each pattern names the thing repaired ("stray nodes", "doubled quads", "缝合"), never a verb
alone: "remove nodes 3 and 4" and "delete the elements" name no repair."""

from __future__ import annotations

_MESH_NOUN = r"(?:elements?|elems?|quads?|tris?|triangles?|beams?)"

MERGE_NODES = (
    r"\b(?:double[d]?|duplicated?|duplicates|coincident|coinciding|overlapping|repeated|"
    r"stacked)\s+nodes?\b",
    r"\bmerge\w*\b[^.;,]{0,30}\bnodes?\b",
    r"\b(?:stitch|sew|zip)\w*\b",
    r"\b(?:join|connect|close|fuse)\w*\b[^.;,]{0,30}\bseams?\b",
    r"\b(?:join|connect|fuse|glue)\w*\s+(?:them|it|the\s+(?:two\s+)?(?:halves|parts|pieces|"
    r"strips|sides))\s*(?:up|together)?\b",
    r"合并[^，。；]{0,6}节点", r"(?:重合|重复|重叠)的?节点", r"节点(?:重合|重复|重叠)",
    r"缝合", r"(?:连|接|缝|粘)(?:起来|在一起)",
)

DELETE_FREE_NODES = (
    r"\b(?:free|stray|unused|orphan(?:ed)?|loose|dangling|unconnected|unattached|floating|"
    r"isolated)\s+nodes?\b",
    r"\bnodes?\s+(?:that\s+)?(?:nobody|no\s+element|nothing)\s+uses?\b",
    r"\bnodes?\b[^.;,]{0,20}\b(?:not|un)[\s-]?(?:used|attached|connected)\s+(?:to|by|in)\s+"
    r"(?:any|an|no)\b",
    r"(?:自由|孤立|游离|悬空|多余)的?节点", r"孤零零",
    r"(?:没有?|未|不)(?:连|接|用|被使用)[^，。；]{0,6}(?:的)?节点",
)

DELETE_DUPLICATE_ELEMENTS = (
    rf"\b(?:double[d]?|duplicated?|duplicates|repeated|overlapping|coincident|stacked)\s+"
    rf"{_MESH_NOUN}\b",
    rf"\b{_MESH_NOUN}\b[^.;]{{0,40}}\b(?:twice|doubled|duplicated|on\s+top\s+of\s+"
    r"(?:each\s+other|one\s+another|the\s+other|another))\b",
    r"(?:重复|重叠|重合)的?单元", r"单元[^，。；]{0,6}(?:重复|重叠|重合)",
)

# what a step written in the repair's place does: removes or moves the nodes by label, adds
# an element across the seam, removes elements by label or shape
MERGE_STAND_INS = ("delete_nodes", "move_nodes", "add_elements")
FREE_NODES_STAND_INS = ("delete_nodes",)
DUPLICATES_STAND_INS = ("delete_elements",)

# a scale the words name ("twice as big", "enlarge", "放大"), which the small models wrote as
# a node moved or a translation
SCALE = (
    r"\b(?:twice|double|triple|thrice|half|(?:\d+(?:\.\d+)?|two|three|four|five|ten)\s*"
    r"(?:times|x))\s+(?:as\s+)?"
    r"(?:big|bigger|large|larger|small|smaller|the\s+size)\b",
    r"\b(?:enlarge|shrink|rescale|upscale|downscale)\w*\b",
    r"放大|缩小|缩放",
)
SCALE_STAND_INS = ("move_nodes", "translate")
