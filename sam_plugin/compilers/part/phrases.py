"""The Part plan's words, as phrases (``sam_plugin/words/phrase.py``): each operation its
calls perform, in the record (``plan.json``'s English) and the dock's English and Chinese."""

from __future__ import annotations

from sam_plugin.compilers.part.actions import VOCABULARY
from sam_plugin.compilers.spec.render import step_entry
from sam_plugin.words.phrase import Catalogue, register

CATALOGUE: Catalogue = {
    "part.patch": {
        "record": "mesh patch {id}: {shape} {nu} x {nv} cells over corners {corners}",
        "en": "mesh patch {id}: {nu} x {nv} {shape} elements over the corners {corners}",
        "zh_CN": "网格面片 {id}：{nu} x {nv} 个 {shape} 单元，角点 {corners}"},
    "part.beam_line": {
        "record": "beam line {id}: {n} BEAM elements from {start} to {end}",
        "en": "beam line {id}: {n} BEAM elements from {start} to {end}",
        "zh_CN": "梁线 {id}：从 {start} 到 {end} 的 {n} 个 BEAM 单元"},
    "part.add_elements": {"record": "add elements {shapes}", "en": "add elements: {shapes}",
                          "zh_CN": "添加单元：{shapes}"},
    "part.node_table": {
        "record": "coordinate table of {n} node(s) (an existing node at a coordinate is "
                  "reused)",
        "en": "{n} node positions (a node already at a position is used again)",
        "zh_CN": "{n} 个节点位置（某位置已有节点时重用该节点）"},
    "part.listed_set": {"record": "element set {name}: {n} listed element(s)",
                        "en": "element set {name} of {n} listed elements",
                        "zh_CN": "单元集合 {name}，含列出的 {n} 个单元"},
    "part.selected_set": {"record": "element set {name}: {which}",
                          "en": "element set {name}: {which}",
                          "zh_CN": "单元集合 {name}：{which}"},
    "part.clear": {"record": "clear the whole part (every node and element)",
                   "en": "clear the whole part (every node and element)",
                   "zh_CN": "清空整个部件（全部节点和单元）"},
    "part.delete_elements": {"record": "delete elements {which}", "en": "delete {which}",
                             "zh_CN": "删除{which}"},
    "part.delete_nodes": {"record": "delete nodes {which} (and the elements using them)",
                          "en": "delete {which} (and the elements that use them)",
                          "zh_CN": "删除{which}（以及使用它们的单元）"},
    "part.move_node": {"record": "move node {label} to {to}",
                       "en": "move node {label} to {to}", "zh_CN": "将节点 {label} 移到 {to}"},
    "part.translate": {"record": "translate by {vector}, {which}",
                       "en": "move {which} by {vector}", "zh_CN": "将{which}平移 {vector}"},
    "part.rotate": {
        "record": "rotate {angle} deg about axis {axis} through {origin}, {which}",
        "en": "rotate {which} {angle}° about the axis {axis} through {origin}",
        "zh_CN": "将{which}绕过 {origin} 的轴 {axis} 旋转 {angle}°"},
    "part.mirror": {
        "record": "mirror in the plane through {origin} with normal {normal}, {which}",
        "en": "mirror {which} in the plane through {origin} (normal {normal})",
        "zh_CN": "将{which}关于过 {origin} 的平面镜像（法向 {normal}）"},
    "part.mirror_copy": {
        "record": "mirror a copy in the plane through {origin} with normal {normal}, {which}",
        "en": "mirror a copy of {which} in the plane through {origin} (normal {normal})",
        "zh_CN": "将{which}的副本关于过 {origin} 的平面镜像（法向 {normal}）"},
    "part.scale": {"record": "scale by {factor} about {origin}, {which}",
                   "en": "scale {which} by {factor} about {origin}",
                   "zh_CN": "以 {origin} 为中心将{which}缩放 {factor} 倍"},
    "part.translate_copy": {"record": "copy translated by {vector}, {which}",
                            "en": "copy {which}, moved by {vector}",
                            "zh_CN": "复制{which}，平移 {vector}"},
    "part.linear_array": {
        "record": "linear array of {copies} (step {step}), {which}",
        "en": "{copies} copies of {which} in a row, each moved {step} from the last",
        "zh_CN": "{which}的 {copies} 个副本排成一列，每个相对上一个平移 {step}"},
    "part.merge": {"record": "merge coincident nodes within {tolerance}",
                   "en": "merge nodes closer than {tolerance} (coincident nodes)",
                   "zh_CN": "合并距离小于 {tolerance} 的节点（重合节点）"},
    "part.merge_default": {
        "record": "merge coincident nodes within the part's default tolerance",
        "en": "merge coincident nodes (within the part's default tolerance)",
        "zh_CN": "合并重合节点（使用部件的默认容差）"},
    "part.delete_duplicates": {"record": "delete duplicate elements",
                               "en": "delete duplicate elements", "zh_CN": "删除重复单元"},
    "part.delete_free_nodes": {"record": "delete free nodes", "en": "delete free nodes",
                               "zh_CN": "删除自由节点"},
    "part.audit": {"record": "audit (read-only): {checks|, }; writes {file}",
                   "en": "audit, read-only: {checks} (report {file})",
                   "zh_CN": "审计，只读：{checks}（报告 {file}）"},
    "part.check.counts": {"record": "counts", "en": "counts", "zh_CN": "数量"},
    "part.check.free_nodes": {"record": "free_nodes", "en": "free nodes", "zh_CN": "自由节点"},
    "part.check.duplicate_elements": {"record": "duplicate_elements",
                                      "en": "duplicate elements", "zh_CN": "重复单元"},
    "part.check.coincident_nodes": {"record": "coincident_nodes", "en": "coincident nodes",
                                    "zh_CN": "重合节点"},
    "part.check.degenerate_elements": {"record": "degenerate_elements",
                                       "en": "degenerate elements", "zh_CN": "退化单元"},
    "part.check.quality": {"record": "quality", "en": "quality", "zh_CN": "质量"},
    "part.check.default": {"record": "default checks", "en": "the usual checks",
                           "zh_CN": "常规检查"},
    "part.free_nodes": {"record": "leaves nodes with no element (free nodes)",
                        "en": "leaves nodes with no element (free nodes)",
                        "zh_CN": "留下不属于任何单元的节点（自由节点）"},
    "part.collapsed": {
        "record": ("the plan leaves 1 element ({labels}) degenerate: nodes {first} and "
                   "{second} meet at {at}, so an element has two corners at one point",
                   "the plan leaves {count} elements ({labels}) degenerate: nodes {first} and "
                   "{second} meet at {at}, so an element has two corners at one point"),
        "en": ("the plan leaves 1 element ({labels}) degenerate: nodes {first} and "
               "{second} meet at {at}, so an element has two corners at one point",
               "the plan leaves {count} elements ({labels}) degenerate: nodes {first} and "
               "{second} meet at {at}, so an element has two corners at one point"),
        "zh_CN": ("该计划会使 1 个单元（{labels}）退化：节点 {first} 和 {second} 重合于 {at}，"
                  "一个单元的两个角点位于同一点",
                  "该计划会使 {count} 个单元（{labels}）退化：节点 {first} 和 {second} 重合于 "
                  "{at}，一个单元的两个角点位于同一点")},
    "tool.build_part": {"record": "build_part", "en": "build the part", "zh_CN": "新建部件"},
    "tool.edit_part": {"record": "edit_part", "en": "edit the part", "zh_CN": "编辑部件"},
    "tool.transform_part": {"record": "transform_part", "en": "transform the part",
                            "zh_CN": "变换部件"},
    "tool.repair_part": {"record": "repair_part", "en": "repair the part", "zh_CN": "修复部件"},
    "tool.audit_part": {"record": "audit_part", "en": "audit the part", "zh_CN": "审计部件"},
}
register(CATALOGUE)
register({"part.step": step_entry(VOCABULARY)})
