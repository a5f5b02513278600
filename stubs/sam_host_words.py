"""The offline host's own words in the host's locale (``SAM_HOST_LOCALE``): its menus, the
model tree's headers, the viewport's captions and plan-preview legend, the quit dialog.
English is the key; a locale without a table says English. (The plugin translates its own
words; these are the host's.)"""

from __future__ import annotations

ZH_CN = {
    "&File": "文件(&F)", "&New": "新建(&N)", "&Open…": "打开(&O)…", "&Save": "保存(&S)",
    "Save &As…": "另存为(&A)…", "&Quit": "退出(&Q)", "&View": "视图(&V)",
    "&Fit to view": "适合视图(&F)", "&Node labels": "节点标签(&N)", "&Select": "选择(&S)",
    "Pick &elements": "拾取单元(&E)", "Pick &nodes": "拾取节点(&N)",
    "&Clear selection": "清除选择(&C)",
    "Click picks, Ctrl+click adds or removes, Ctrl+drag picks a box":
        "单击拾取，Ctrl+单击添加或移除，Ctrl+拖动框选",
    "From +&Z (X right, Y up)": "从 +Z 看(&Z)（X 向右，Y 向上）",
    "From -Z (X left, Y up)": "从 -Z 看（X 向左，Y 向上）",
    "From +&Y (X left, Z up)": "从 +Y 看(&Y)（X 向左，Z 向上）",
    "From -Y (X right, Z up)": "从 -Y 看（X 向右，Z 向上）",
    "From +&X (Y right, Z up)": "从 +X 看(&X)（Y 向右，Z 向上）",
    "From -X (Y left, Z up)": "从 -X 看（Y 向左，Z 向上）",
    "&Isometric": "等轴测(&I)",
    "Model / part": "模型 / 部件", "Nodes": "节点", "Elements": "单元",
    "plan preview (elements):": "计划预览（单元）：",
    "touched": "改动", "added": "新增", "deleted": "删除", "deleted nodes": "删除节点",
    "acted on (unchanged)": "作用区域（不变）", "nodes acted on (unchanged)": "作用节点（不变）",
    "No part displayed": "未显示部件",
    "No part yet: the plan builds it": "尚无部件：计划将新建它",
    "{part}: {nodes} nodes, {elements} elements": "{part}：{nodes} 个节点，{elements} 个单元",
    "The model has changes that are not saved in {where}. Save them before you {doing}?":
        "模型有未保存到 {where} 的更改。在{doing}之前保存吗？",
    "a workspace file": "工作区文件",
    "quit": "退出", "open another workspace": "打开另一个工作区",
    "start a new workspace": "新建工作区",
    "Ready": "就绪", "Opened {path}": "已打开 {path}", "Saved {path}": "已保存 {path}",
    "New workspace": "新工作区",
}
TABLES = {"zh_CN": ZH_CN, "zh": ZH_CN, "zh_SG": ZH_CN}


class HostWords:
    """``words("&File")``: the host's text in ``locale`` (English when it has no table)."""

    def __init__(self, locale: str = "en_US") -> None:
        name = (locale or "").split(".")[0].replace("-", "_")
        self.table = TABLES.get(name, {})

    def __call__(self, text: str) -> str:
        return self.table.get(text, text)


ENGLISH = HostWords()
