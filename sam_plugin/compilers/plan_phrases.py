"""The generic words of a plan, as phrases (``sam_plugin/words/phrase.py``): the entities an
operation touches, selectors, the operations' frame, destructive lines, warnings the runtime
makes, notes and how After was worked out. A domain's own operations are in its package
(``compilers/<domain>/phrases.py``).

Each entry has the ``record`` (the English ``plan.json`` keeps, byte for byte as before),
and the dock's words in ``en`` and ``zh_CN``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sam_plugin.words.phrase import (
    Catalogue,
    Measure,
    Phrase,
    Value,
    known,
    phrase,
    register,
)

CATALOGUE: Catalogue = {
    "plan.text": {"record": "{text}", "en": "{text}", "zh_CN": "{text}"},
    "plan.and": {"record": "{first} and {last}", "en": "{first} and {last}",
                 "zh_CN": "{first} 和 {last}"},
    # -- what an operation touches --
    "plan.nodes": {"record": ("1 node", "{count} nodes"), "en": ("1 node", "{count} nodes"),
                   "zh_CN": ("1 个节点", "{count} 个节点")},
    "plan.elements": {"record": ("1 element", "{count} elements"),
                      "en": ("1 element", "{count} elements"),
                      "zh_CN": ("1 个单元", "{count} 个单元")},
    "plan.labelled": {"record": "{group} {labels}", "en": "{group} {labels}",
                      "zh_CN": "{group} {labels}"},
    "plan.boxed": {"record": "{group} in box {low}..{high}",
                   "en": "{group} in the box {low} to {high}",
                   "zh_CN": "{group} 位于 {low} 到 {high} 的范围内"},
    # -- one operation: its words, then what it touches --
    "plan.operation": {"record": "{text}", "en": "{text}", "zh_CN": "{text}"},
    "plan.operation.touched": {"record": "{text}: {touched|, }", "en": "{text}: {touched}",
                               "zh_CN": "{text}：{touched}"},
    # adds/removes: the dock says what inside the operation's words
    "plan.operation.change": {"record": "{text}: {touched|, }", "en": "{text}",
                              "zh_CN": "{text}"},
    "plan.adds": {"record": "adds", "en": "adds {what}", "zh_CN": "新增 {what}"},
    "plan.removes": {"record": "removes", "en": "removes {what}", "zh_CN": "删除 {what}"},
    "plan.removes_beyond": {
        "record": "removes, beyond what the call names",
        "en": "also removes {what} (more than the operation names)",
        "zh_CN": "还会删除 {what}（超出该操作所指定的范围）"},
    "plan.audit": {"record": "audit (read-only); writes {file}",
                   "en": "audit, read-only (report {file})", "zh_CN": "审计，只读（报告 {file}）"},
    # -- what a selector picks (``noun``: what the operation calls its members) --
    "noun.elements": {"record": "elements", "en": "elements", "zh_CN": "单元"},
    "noun.nodes": {"record": "nodes", "en": "nodes", "zh_CN": "节点"},
    "noun.beams": {"record": "beams", "en": "beams", "zh_CN": "梁"},
    "selector.all": {"record": "all", "en": "all {noun}", "zh_CN": "全部{noun}"},
    "selector.shape": {"record": "all {shape}", "en": "all {shape} {noun}",
                       "zh_CN": "全部 {shape} {noun}"},
    "selector.set": {"record": "in set {name}", "en": "the {noun} in set {name}",
                     "zh_CN": "集合 {name} 中的{noun}"},
    "selector.box": {"record": "in box {low}..{high}",
                     "en": "the {noun} in the box {low} to {high}",
                     "zh_CN": "位于 {low} 到 {high} 范围内的{noun}"},
    "selector.labels": {"record": "labels {labels}", "en": "the {noun} with labels {labels}",
                        "zh_CN": "编号为 {labels} 的{noun}"},
    # -- destructive lines --
    "plan.destructive.call": {"record": "call {n} {tool}: {what}",
                              "en": "operation {n} ({tool}): {what}",
                              "zh_CN": "操作 {n}（{tool}）：{what}"},
    "plan.destructive.fewer": {
        "record": "the calls may remove up to {n} of the {total} {noun}",
        "en": "these operations may remove up to {n} of the {total} {noun}",
        "zh_CN": "这些操作最多可能删除 {total} 个{noun}中的 {n} 个"},
    # -- warnings: the spec's expectations against the prediction --
    "plan.spec_differs": {
        "record": "the spec expects {expected}; the calls leave {predicted}",
        "en": "the spec expects {expected}; these operations leave {predicted}",
        "zh_CN": "规格预期 {expected}；这些操作之后为 {predicted}"},
    "plan.count": {"record": "{count} {noun}", "en": "{count} {noun}",
                   "zh_CN": "{count} 个{noun}"},
    "plan.shape_count": {"record": "{count} {shape} elements",
                         "en": "{count} {shape} elements", "zh_CN": "{count} 个 {shape} 单元"},
    "plan.set_missing": {
        "record": "a set {name}", "en": "a set {name}", "zh_CN": "集合 {name}"},
    "plan.no_set": {"record": "no set {name} (sets after: {sets})",
                    "en": "no set {name} (sets after: {sets})",
                    "zh_CN": "没有集合 {name}（之后的集合：{sets}）"},
    "plan.none": {"record": "none", "en": "none", "zh_CN": "无"},
    "plan.spec_acts_on": {
        "record": "the spec expects its steps to act on {wanted}; the calls act on {count} "
                  "{kind} (call {n} {tool}: {text})",
        "en": "the spec expects its steps to act on {wanted}; these operations act on "
              "{count} {kind} (call {n} {tool}: {text})",
        "zh_CN": "规格预期其步骤作用于 {wanted} 个；这些操作作用于 {count} 个{kind}"
                 "（调用 {n} {tool}：{text}）"},
    "plan.claim": {
        "record": "step {step} counts {key} {wanted}; the calls make {got} (the step's count "
                  "is the model's arithmetic: check it)",
        "en": "step {step} counts {key} {wanted}; these operations make {got} (the step's "
              "count is the model's arithmetic: check it)",
        "zh_CN": "步骤 {step} 的计数 {key} 为 {wanted}；这些操作得到 {got}（步骤中的计数是模型"
                 "自己算的：请核对）"},
    # -- warnings: what the request said against what the plan does --
    "plan.empties_part": {
        "record": "the plan leaves the part with no elements ({count} → 0)",
        "en": "the plan leaves the part with no elements ({count} → 0)",
        "zh_CN": "该计划会使部件没有任何单元（{count} → 0）"},
    "plan.changes_despite_request": {
        "record": "the request says “{said}”, and the plan changes the part",
        "en": "the request says “{said}”, and the plan changes the part",
        "zh_CN": "请求中说“{said}”，而该计划会修改部件"},
    "plan.removes_kept_set": {
        "record": "the request asks to keep set {name}, and the plan leaves no set {name}",
        "en": "the request asks to keep set {name}, and the plan leaves no set {name}",
        "zh_CN": "请求要求保留集合 {name}，而该计划之后没有集合 {name}"},
    "plan.empties_kept_set": {
        "record": "the request asks to keep set {name}, and the plan leaves set {name} empty "
                  "(it deletes every member of {name})",
        "en": "the request asks to keep set {name}, and the plan leaves set {name} empty "
              "(it deletes every member of {name})",
        "zh_CN": "请求要求保留集合 {name}，而该计划会使集合 {name} 为空（删除其全部成员）"},
    # -- notes --
    "plan.note": {"record": "{text}", "en": "note: {text}", "zh_CN": "说明：{text}"},
    # -- how After was worked out --
    "basis.exact_copy": {
        "record": "exact: the script's own operations run on a copy of the part",
        "en": "After is exact: these operations were tried on a copy of the part.",
        "zh_CN": "“之后”是精确的：这些操作已在部件的副本上试运行。"},
    "basis.ranges": {"record": "counts as ranges: {why}", "en": "After is a range: {why}",
                     "zh_CN": "之后为一个范围：{why}"},
    "basis.read_only": {
        "record": "read-only: the part stays as it is (fingerprint unchanged)",
        "en": "After is exact: these operations only read; the part stays as it is.",
        "zh_CN": "“之后”是精确的：这些操作只读取；部件保持不变。"},
    "basis.gone": {"record": "counts: the part does not exist after the calls",
                   "en": "After: the part does not exist after these operations.",
                   "zh_CN": "“之后”：这些操作之后部件不存在。"},
    "basis.compilers": {
        "record": "counts predicted by the compilers",
        "en": "After: counts and names worked out from the operations (not tried on a "
              "copy); the readback checks them.",
        "zh_CN": "之后：数量和名称由操作推算（未在副本上试运行）；回读时会检查。"},
    "basis.compilers_names": {
        "record": "counts and names predicted by the compilers{more}",
        "en": "After: counts and names worked out from the operations (not tried on a "
              "copy); the readback checks them.",
        "zh_CN": "之后：数量和名称由操作推算（未在副本上试运行）；回读时会检查。"},
    "basis.other": {"record": "{text}", "en": "How After was worked out: {text}",
                    "zh_CN": "“之后”的推算方式：{text}"},
}
register(CATALOGUE)

NOUNS = {"elements": "noun.elements", "nodes": "noun.nodes", "beams": "noun.beams"}


def text_phrase(text: str) -> Phrase:
    """A line no catalogue words: its text, said as it is in every language."""
    return phrase("plan.text", text=text)


def length(said: str) -> Measure:
    return Measure(said=said, quantity="length")


def _point(values: Sequence[float]) -> str:
    return "(" + ", ".join(f"{float(v):.6g}" for v in values) + ")"


def selector_phrase(literal: Mapping[str, Any] | None, noun: str = "elements") -> Phrase:
    """A selector literal as ``plan_words.selector_words`` says it, with what it picks."""
    what = phrase(NOUNS[noun])
    kind = literal.get("by") if literal else None
    if not literal or kind not in ("labels", "set", "shape", "box"):
        return phrase("selector.all", noun=what)
    if kind == "labels":
        labels = list(literal["labels"])
        more = f" (+{len(labels) - 20} more)" if len(labels) > 20 else ""
        return phrase("selector.labels", noun=what, labels=f"{labels[:20]}{more}")
    if kind == "set":
        return phrase("selector.set", noun=what, name=str(literal["name"]))
    if kind == "shape":
        return phrase("selector.shape", noun=what, shape=str(literal["shape"]))
    return phrase("selector.box", noun=what, low=_point(literal["min"]),
                  high=length(_point(literal["max"])))


def touched_phrase(kind: str, count: int, labels: str = "",
                   box: tuple[Sequence[float], Sequence[float]] | None = None) -> Phrase:
    """``16 elements [1-16]`` / ``25 nodes in box (0, 0, 0)..(40, 40, 0) mm``."""
    said = phrase(f"plan.{kind}", count=count)
    if labels and count:
        said = phrase("plan.labelled", group=said, labels=labels)
    if box is not None and count:
        said = phrase("plan.boxed", group=said, low=_point(box[0]),
                      high=length(_point(box[1])))
    return said


def tool_phrase(tool: str) -> Value:
    """A tool in words, where its domain words it (else its name)."""
    return phrase(f"tool.{tool}") if known(f"tool.{tool}") else tool


CHANGES = ("plan.adds", "plan.removes", "plan.removes_beyond")


def operation_phrase(text: Phrase, touched: Sequence[Phrase]) -> Phrase:
    """One operation with what it touches: ``delete elements all: 4 elements [1-4]``."""
    if not touched:
        return phrase("plan.operation", text=text)
    if text.key in CHANGES:
        what: Value = (touched[0] if len(touched) == 1 else
                       phrase("plan.and", first=list(touched[:-1]), last=touched[-1]))
        return phrase("plan.operation.change", touched=list(touched),
                      text=Phrase(key=text.key, values={**text.values, "what": what}))
    return phrase("plan.operation.touched", text=text, touched=list(touched))
