"""The Load mode's words, as phrases (``sam_plugin/words/phrase.py``): its spec step, its
tools and its plan (each step, load and boundary condition with its region and its values,
the notes its compilers make, how After is worked out), in the record and the dock's English
and Chinese.

A value carries its quantity: a pressure is a stress, a force a force, a displacement u1..u3
a length; a rotation ur1..ur3 is in radians, which no unit system changes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sam_plugin.compilers.load.actions import VOCABULARY
from sam_plugin.compilers.spec.render import step_entry
from sam_plugin.compilers.spec.values import number_words
from sam_plugin.samops.load_ops import DOFS
from sam_plugin.words.phrase import Catalogue, Measure, Phrase, Value, phrase, register


def _same(text: str, zh: str) -> dict[str, str]:
    """An entry whose record is also the dock's English."""
    return {"record": text, "en": text, "zh_CN": zh}


CATALOGUE: Catalogue = {
    "load.define_step": {
        "record": "define the static step {name} after {previous}",
        "en": "define the static step {name} after {previous}",
        "zh_CN": "定义静力分析步 {name}（接在 {previous} 之后）"},
    "load.step_reused": {
        "record": "use the static step {name} after {previous} as it is (it exists already)",
        "en": "use the static step {name} after {previous} as it is (it exists already)",
        "zh_CN": "沿用已有的静力分析步 {name}（接在 {previous} 之后），不再重新定义"},
    "load.pressure": {
        "record": "pressure {name} of {values} on {region} in step {step}",
        "en": "pressure {name} of {values} on {region} in step {step}",
        "zh_CN": "在{region}上施加压力 {name}：{values}（分析步 {step}）"},
    "load.force": {
        "record": "force {name} of {values} on each node of {region} in step {step}",
        "en": "force {name} of {values} on each node of {region} in step {step}",
        "zh_CN": "在{region}的每个节点上施加集中力 {name}：{values}（分析步 {step}）"},
    "load.fix": {
        "record": "fix {values} of {region} as {name} in step {step}",
        "en": "fix {values} of {region} as {name} in step {step}",
        "zh_CN": "固定{region}的 {values}，名为 {name}（分析步 {step}）"},
    "load.displace": {
        "record": "displace {region} by {values} as {name} in step {step}",
        "en": "displace {region} by {values} as {name} in step {step}",
        "zh_CN": "给{region}施加位移 {values}，名为 {name}（分析步 {step}）"},
    "load.all_dofs": {"record": "all six dofs", "en": "all six dofs",
                      "zh_CN": "全部六个自由度"},
    "load.dof_value": {"record": "{dof} = {value}", "en": "{dof} = {value}",
                       "zh_CN": "{dof} = {value}"},
    # the region: the set it names, or the set the run makes from the selection
    "load.region.named": {"record": "set {set} ({members})", "en": "set {set} ({members})",
                          "zh_CN": "集合 {set}（{members}）"},
    "load.region.made": {
        "record": "{set} ({members}, a new set made from the selection)",
        "en": "{set} ({members}, a new set made from the selection)",
        "zh_CN": "{set}（{members}，由所选内容新建的集合）"},
    "load.note.made_set": {
        "record": "the selection of {name} is not a set: the run makes the set {set}",
        "en": "note: the selection of {name} is not a set: the run makes the set {set}",
        "zh_CN": "说明：{name} 的所选内容不是集合：运行时会新建集合 {set}"},
    "load.note.step_reused": {
        "record": "the model has the step {name} after {previous} already: the run uses it "
                  "and does not define it again",
        "en": "note: the model has the step {name} after {previous} already: the run uses it "
              "and does not define it again",
        "zh_CN": "说明：模型中已有分析步 {name}（接在 {previous} 之后）：本次运行沿用它，"
                 "不再重新定义"},
    "load.note.named_for_part.load": {
        "record": "the model has a load named {model_name} already: the one on {part} is "
                  "named {name}",
        "en": "note: the model has a load named {model_name} already: the one on {part} is "
              "named {name}",
        "zh_CN": "说明：模型中已有名为 {model_name} 的载荷：{part} 上的载荷命名为 {name}"},
    "load.note.named_for_part.condition": {
        "record": "the model has a boundary condition named {model_name} already: the one on "
                  "{part} is named {name}",
        "en": "note: the model has a boundary condition named {model_name} already: the one "
              "on {part} is named {name}",
        "zh_CN": "说明：模型中已有名为 {model_name} 的边界条件：{part} 上的边界条件命名为 "
                 "{name}"},
    "load.basis": {
        "record": "geometry and properties unchanged (node and element records compared "
                  "through the fingerprint); the steps, loads and boundary conditions read "
                  "back one by one",
        "en": "After: geometry and properties stay as they are (compared through the part's "
              "fingerprint); the steps, loads and boundary conditions are read back one by "
              "one.",
        "zh_CN": "“之后”：几何和属性保持不变（通过部件指纹比较）；分析步、载荷和边界条件逐一"
                 "回读。"},
    "tool.define_step": {"record": "define_step", "en": "define steps", "zh_CN": "定义分析步"},
    "tool.apply_load": {"record": "apply_load", "en": "apply loads", "zh_CN": "施加载荷"},
    "tool.apply_boundary": {"record": "apply_boundary", "en": "apply boundary conditions",
                            "zh_CN": "施加边界条件"},
    "tool.audit_loads": {"record": "audit_loads", "en": "audit the loads",
                         "zh_CN": "审计载荷"},
    # -- the value checks: each step, load and condition the calls made, read back by name --
    "load.check.step": _same("step {name}", "分析步 {name}"),
    "load.check.step_previous": _same("step {name} previous", "分析步 {name} 的前一分析步"),
    "load.check.load": _same("load {name}", "载荷 {name}"),
    "load.check.condition": _same("boundary condition {name}", "边界条件 {name}"),
    "load.check.entry_step": _same("{entry} step", "{entry} 的分析步"),
    "load.check.entry_region": _same("{entry} region", "{entry} 的区域"),
    "load.check.entry_members": _same("{entry} region {members}", "{entry} 区域的{members}数"),
    "load.check.entry_kind": _same("{entry} kind", "{entry} 的类型"),
    "load.check.entry_value": _same("{entry} {field}", "{entry} {field}"),
    "load.check.properties_unchanged": _same("properties unchanged", "属性未改变"),
    "load.members.elements": _same("elements", "单元"),
    "load.members.nodes": _same("nodes", "节点"),
    "load.field.magnitude": _same("magnitude", "大小"),
    # what the host's entry is (``samops.load_read``)
    "load.kind.pressure": _same("pressure", "压力"),
    "load.kind.force": _same("force", "集中力"),
    "load.kind.encastre": _same("encastre", "固支"),
    "load.kind.displacement": _same("displacement", "位移"),
    "load.value.free": _same("free", "自由"),
    "load.value.unchanged": _same("unchanged", "未改变"),
    "load.value.changed": _same("changed", "已改变"),
}
register(CATALOGUE)
register({"load.step": step_entry(VOCABULARY)})

# a translation is a length; a rotation is in radians (no unit system changes it)
DOF_QUANTITY = {dof: "length" if not dof.startswith("ur") else "rotation" for dof in DOFS}


def values_phrase(item: Mapping[str, Any]) -> Value:
    """A load's or condition's values, each with its quantity (``-5`` a stress;
    ``(0, -100, 0)`` a force; ``u1, u2``; ``u2 = -0.5`` a length)."""
    kind = item["kind"]
    if kind == "pressure":
        return Measure(said=number_words(item["magnitude"]), quantity="stress")
    if kind == "force":
        vector = ", ".join(number_words(c) for c in item["vector"])
        return Measure(said=f"({vector})", quantity="force")
    if kind == "fix":
        dofs: Sequence[str] = item.get("dofs") or DOFS
        return phrase("load.all_dofs") if len(dofs) == len(DOFS) else ", ".join(dofs)
    return [phrase("load.dof_value", dof=dof,
                   value=Measure(said=number_words(value), quantity=DOF_QUANTITY[dof]))
            for dof, value in item["values"].items()]


def region_phrase(name: str, members: str, count: int, made: bool) -> Phrase:
    """``set ELEMS (2 elements)`` / ``LOAD-P2 (1 element, a new set made from the
    selection)``."""
    return phrase("load.region.made" if made else "load.region.named", set=name,
                  members=phrase(f"plan.{members}", count=count))


def item_phrase(item: Mapping[str, Any], region: Phrase, step: str) -> Phrase:
    return phrase(f"load.{item['kind']}", name=str(item["name"]), values=values_phrase(item),
                  region=region, step=step)
