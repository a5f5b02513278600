"""The Mesh plan's words, as phrases (``sam_plugin/words/phrase.py``): the refinement, its
notes and how After is worked out, in the record and the dock's English and Chinese."""

from __future__ import annotations

from sam_plugin.compilers.mesh.actions import VOCABULARY
from sam_plugin.compilers.spec.render import step_entry
from sam_plugin.words.phrase import Catalogue, Phrase, phrase, register

CATALOGUE: Catalogue = {
    "mesh.refine": {
        "record": "refine elements {which} by {levels} level(s): each parent is replaced by "
                  "its children (QUAD/TRI x{quad}, BEAM x{beam}); sections, orientations and "
                  "sets are inherited",
        "en": "refine {which} {times}: each becomes {quad} smaller ones ({beam} for a beam) "
              "that keep its section, orientation and sets",
        "zh_CN": "细化{which}{times}：每个单元变为 {quad} 个更小的单元（梁为 {beam} 个），保留其"
                 "截面、方向和集合"},
    "mesh.once": {"record": "once", "en": "once", "zh_CN": "一次"},
    "mesh.twice": {"record": "twice", "en": "twice", "zh_CN": "两次"},
    "mesh.times": {"record": "{n} times", "en": "{n} times", "zh_CN": "{n} 次"},
    "mesh.refines": {
        "record": "refines {parents} element(s) {levels} level(s): +{nodes} nodes, "
                  "{children} children replace {parents} parents",
        "en": "{parents} elements become {children}, with {nodes} new nodes",
        "zh_CN": "{parents} 个单元变为 {children} 个，新增 {nodes} 个节点"},
    "mesh.hanging": {
        "record": "predicted hanging nodes after refinement: {n} ({new} new on the border "
                  "with unrefined elements; {before} before)",
        "en": "hanging nodes after refining: {n} ({new} new at the border with unrefined "
              "elements; {before} before)",
        "zh_CN": "细化后的悬挂节点：{n} 个（与未细化单元交界处新增 {new} 个；之前 {before} 个）"},
    "mesh.basis": {
        "record": "the refined elements are gone, their children and new nodes counted; the "
                  "rest of the part compared through the fingerprint",
        "en": "After: the refined elements are replaced by their children and the new nodes "
              "counted; the rest of the part is compared through its fingerprint.",
        "zh_CN": "“之后”：被细化的单元由其子单元取代，并统计新增节点；"
                 "部件其余部分通过其指纹比较。"},
    "tool.refine_mesh": {"record": "refine_mesh", "en": "refine the mesh", "zh_CN": "细化网格"},
    "tool.audit_mesh": {"record": "audit_mesh", "en": "audit the mesh", "zh_CN": "审计网格"},
}
register(CATALOGUE)
register({"mesh.step": step_entry(VOCABULARY)})


def times(levels: int) -> Phrase:
    if levels == 1:
        return phrase("mesh.once")
    return phrase("mesh.twice") if levels == 2 else phrase("mesh.times", n=levels)
