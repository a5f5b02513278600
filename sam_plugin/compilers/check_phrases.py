"""The words of a run's checks, as phrases (``sam_plugin/words/phrase.py``): the names and
values of what verification compared (docs/architecture.md "Messages as data").

Each entry has the ``record`` (the English ``result.json`` keeps in ``name``, ``expected``
and ``actual``, byte for byte as before phrases) and the dock's words in ``en`` and
``zh_CN``: the dock says a row short (``3 changed, 0 removed``) where the record says it
whole, and a fingerprint as "as before the run" or "changed". A value with no phrase (a
number, a range, a list of differences) is shown as recorded. A domain's own checks are in
its package (``compilers/<domain>/phrases.py``).
"""

from __future__ import annotations

from sam_plugin.words.phrase import RECORD, Catalogue, Phrase, Units, phrase, register, render


def _same(text: str, zh: str) -> dict[str, str]:
    """An entry whose record is also the dock's English."""
    return {"record": text, "en": text, "zh_CN": zh}


def _basis(said: Phrase, language: str, units: Units | None) -> str:
    """Why the part was not compared one by one: the plan's basis as recorded; in the dock's
    English the record too, except the compilers' counts (``counts and names``)."""
    basis = said.values["basis"]
    assert isinstance(basis, Phrase)
    if language == RECORD:
        return render(basis, RECORD, units)
    if basis.key == "basis.compilers":
        return render(phrase("check.counts_names"), language)
    return render(basis, RECORD if language == "en" else language, units)


CATALOGUE: Catalogue = {
    # -- names --
    "check.part_exists": _same("part exists", "部件存在"),
    "check.node_count": _same("node count", "节点数"),
    "check.element_count": _same("element count", "单元数"),
    "check.shape_elements": _same("{shape} elements", "{shape} 单元"),
    "check.geometry_unchanged": _same("geometry unchanged", "几何未改变"),
    "check.elements_with_section": _same("elements with a section", "已指派截面的单元"),
    "check.oriented_beams": _same("oriented beam elements", "已定向的梁单元"),
    "check.hanging_nodes": _same("hanging nodes", "悬挂节点"),
    "check.free_nodes": _same("free nodes the run leaves", "运行留下的自由节点"),
    "check.finite": _same("every coordinate and value is finite", "每个坐标和数值都是有限的"),
    "check.set": _same("set {name}", "集合 {name}"),
    "check.material": _same("material {name}", "材料 {name}"),
    "check.section": _same("section {name}", "截面 {name}"),
    "check.file": _same("file {name}", "文件 {name}"),
    "check.domain_values": _same("{domain} values", "{domain} 数值"),
    "check.rest": {"record": "the rest of the part is unchanged (fingerprint)",
                   "en": "rest of the part unchanged", "zh_CN": "部件其余部分未改变"},
    "check.not_compared": {"record": "part compared with the plan",
                           "en": "compared with the plan", "zh_CN": "与计划比较"},
    "check.by_values": _same("definitions the calls write", "调用写入的定义"),
    "check.nodes_as_planned": {"record": "nodes match the plan (exact)",
                               "en": "nodes changed, removed, added as planned",
                               "zh_CN": "改动、删除、新增的节点与计划一致"},
    "check.existing_nodes_as_planned": {
        "record": "existing nodes match the plan (exact)",
        "en": "existing nodes as planned (new ones: node count)",
        "zh_CN": "已有节点与计划一致（新增节点见节点数）"},
    "check.elements_as_planned": {"record": "elements match the plan (exact)",
                                  "en": "elements changed, removed, added as planned",
                                  "zh_CN": "改动、删除、新增的单元与计划一致"},
    "check.existing_elements_as_planned": {
        "record": "existing elements match the plan (exact)",
        "en": "existing elements as planned (new ones: element count)",
        "zh_CN": "已有单元与计划一致（新增单元见单元数）"},
    "check.set_members_as_planned": {"record": "set members match the plan (exact)",
                                     "en": "set members as planned",
                                     "zh_CN": "集合成员与计划一致"},
    "check.sections_as_planned": {"record": "section assignments match the plan (exact)",
                                  "en": "sections as planned", "zh_CN": "截面指派与计划一致"},
    "check.orientations_as_planned": _same("beam orientations match the plan (exact)",
                                           "梁方向与计划一致（精确）"),
    "check.definitions_as_planned": _same("definitions match the plan (exact)",
                                          "定义与计划一致（精确）"),
    # -- values --
    "check.present": _same("present", "存在"),
    "check.missing": _same("missing", "缺失"),
    "check.written": _same("written", "已写入"),
    "check.written_bytes": {"record": "written ({bytes} bytes)", "en": "written",
                            "zh_CN": "已写入"},
    "check.empty": _same("empty", "为空"),
    "check.not_read": _same("not read", "未读取"),
    "check.read_back": _same("read back", "已回读"),
    "check.unreadable": _same("could not be read: {error}", "无法读取：{error}"),
    "check.finite_values": _same("finite", "有限"),
    "check.the_part": _same("the part", "部件"),
    "check.no_predicted_part": _same("the plan has no predicted part", "计划没有预测的部件"),
    "check.counts_names": {"record": "counts and names only", "en": "counts and names",
                           "zh_CN": "数量和名称"},
    "check.basis": _basis,
    "check.values_read_back": _same("their values read back", "其数值已回读"),
    "check.checked_by_values": {"record": "{count} checked by the property values",
                                "en": "see the property values", "zh_CN": "见属性值"},
    # a fingerprint, or the words around it: said as before the run, or changed
    "check.as_before": {"record": "{text}", "en": "as before the run",
                        "zh_CN": "与运行前相同"},
    "check.changed": {"record": "{text}", "en": "changed", "zh_CN": "已改变"},
    # the exact comparison's tally: the record says what it compares, the dock the numbers
    "check.tally": {"record": "{kept} {noun} changed, {removed} removed",
                    "en": "{kept} changed, {removed} removed",
                    "zh_CN": "改动 {kept}，删除 {removed}"},
    "check.tally_new": {"record": "{kept} {noun} changed, {removed} removed, {new} new",
                        "en": "{kept} changed, {removed} removed, {new} new",
                        "zh_CN": "改动 {kept}，删除 {removed}，新增 {new}"},
    "check.tally.coordinates": {
        "record": "{tally}; changed ones at the planned coordinates (within {tolerance})",
        "en": "{tally}", "zh_CN": "{tally}"},
    "check.tally.shapes": {"record": "{tally}; changed ones with the planned shapes and nodes",
                           "en": "{tally}", "zh_CN": "{tally}"},
    "check.tally.as_planned": {"record": "{tally} as planned", "en": "{tally}",
                               "zh_CN": "{tally}"},
    "check.sets_with_members": {"record": "{count} set(s) with the planned members",
                                "en": "{count} set(s)", "zh_CN": "{count} 个集合"},
    "check.sets_as_planned": {"record": "{count} set(s) as planned", "en": "{count} set(s)",
                              "zh_CN": "{count} 个集合"},
    "check.elements_with_sections": {"record": "{count} elements with the planned sections",
                                     "en": "{count} elements", "zh_CN": "{count} 个单元"},
    "check.elements_with_orientations": _same(
        "{count} elements with the planned orientations", "{count} 个单元的方向与计划一致"),
    "check.definitions": _same("{count} definitions", "{count} 个定义"),
    "check.definitions_as_planned_count": _same("{count} definitions as planned",
                                                "{count} 个定义与计划一致"),
}
register(CATALOGUE)

# names of a row that is a note, not a comparison, when it holds (no expected value, no OK)
NOTES = frozenset({"check.not_compared", "check.by_values"})


def tally(noun: str, kept: int, removed: int, new: int | None) -> Phrase:
    """``3 nodes changed, 2 removed, 4 new`` (``new`` left out when not predicted)."""
    if new is None:
        return phrase("check.tally", kept=kept, noun=noun, removed=removed)
    return phrase("check.tally_new", kept=kept, noun=noun, removed=removed, new=new)
