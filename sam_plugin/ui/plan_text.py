"""The plan in the analyst's words and language (docs/ui.md "Plan"): operations, nodes,
elements and sets, numbered as the script runs them; no tool names, hashes or "call(s)".

The compilers describe a plan in English for ``plan.json`` (``Plan.lines()``: the raw plan,
one click away in the view). Here the same plan is said again from its data: each line the
compilers write in a known form is re-worded (and translated) with its numbers and names
kept; a line of a form not known here is shown as the compilers wrote it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

from sam_plugin.compilers.plan import Plan, label_runs
from sam_plugin.compilers.plan_words import point
from sam_plugin.ui.i18n import shown_language, tr
from sam_plugin.ui.plain_words import tool_words

Line = tuple[str, str]  # (kind, text); kind as Plan.lines(): destructive, warning, call, ...
_NUM = r"-?[\d.]+(?:e[-+]?\d+)?"
_PT = rf"\({_NUM}, {_NUM}, {_NUM}\)"
# a value's unit, when the plan was made with a unit system (``(40, 0, 0) mm``, ``210000 MPa``)
_UNIT = r"(?: [^\s,()\d][^\s,()]*)?"
_LEN = rf"{_PT}{_UNIT}"
_QTY = rf"{_NUM}{_UNIT}"


def plan_summary(plan: Plan) -> str:
    """``3 operations, 1 destructive, 2 warnings`` (the status line's words)."""
    count = len(plan.calls)
    text = tr("1 operation") if count == 1 else tr("{count} operations").format(count=count)
    comma = tr(", ")  # the list separator of the language ("，" in Chinese)
    if plan.destructive:
        text += comma + (tr("1 destructive") if len(plan.destructive) == 1 else
                        tr("{count} destructive").format(count=len(plan.destructive)))
    if plan.warnings:
        text += comma + (tr("1 warning") if len(plan.warnings) == 1 else
                        tr("{count} warnings").format(count=len(plan.warnings)))
    return text


def worded_lines(plan: Plan) -> list[Line]:
    """The plan as the view shows it: destructive steps and warnings first, then each
    operation with its steps, before → after, and how After was worked out."""
    out: list[Line] = [("destructive", tr("Destructive: {text}").format(
        text=_destructive(plan, t))) for t in plan.destructive]
    out += [("warning", tr("Warning: {text}").format(text=warning_words(t)))
            for t in plan.warnings]
    for call in plan.calls:
        out.append(("call", f"{call.index}. {_capital(tool_words(call.tool))}"
                    f"{origin_words(plan, call)}"))
        out += [("step", "   " + step_words(step, plan.length_unit)) for step in plan.steps
                if step.call == call.index]
        for op in call.operations:
            mark = "  " + tr("[destructive]") if op.destructive else ""
            out.append(("destructive" if op.destructive else "operation",
                        f"   – {operation_words(op, plan.length_unit)}{mark}"))
        out += [("note", f"   {note_words(note)}") for note in call.notes]
    out.append(("state", tr("Before: {state}").format(
        state=state_words(plan.before, plan.length_unit))))
    out.append(("state", tr("After: {state}").format(
        state=state_words(plan.after, plan.length_unit))))
    if plan.prediction:
        out.append(("note", basis_words(plan.prediction)))
    return out


def origin_words(plan: Plan, call: Any) -> str:
    """`` (computed from step 2)`` for a call computed from the confirmed steps."""
    if call.source != "spec":
        return ""
    numbers = sorted({s.step for s in plan.steps if s.call == call.index})
    if not numbers:
        return tr(" (computed from the spec)")
    if len(numbers) == 1:
        return tr(" (computed from step {number})").format(number=numbers[0])
    return tr(" (computed from steps {numbers})").format(
        numbers=tr(", ").join(str(n) for n in numbers))


def step_words(step: Any, length_unit: str = "") -> str:
    """``step 2 ✓ translate set S1 by (5, 0, 0) — 2 elements [1-2]``: a call against the
    step it carries out, and what its scope picked when it runs."""
    text = step.text_zh if shown_language() == "zh" and step.text_zh else step.text
    said = tr("step {number} ✓ {text}").format(number=step.step, text=text)
    return (f"{said} — {touched_words(step.picked, length_unit)}" if step.picked is not None
            else said)


# -- one operation ------------------------------------------------------------------------


def operation_words(op: Any, length_unit: str = "") -> str:
    text = phrase_words(op.text)
    groups = [touched_words(t, length_unit) for t in op.touched]
    if not groups:
        return text
    if op.text in ("adds", "removes", "removes, beyond what the call names"):
        return text.format(what=_and(groups))
    return tr("{what}: {entities}").format(what=text, entities=tr(", ").join(groups))


def touched_words(group: Any, length_unit: str = "") -> str:
    """``16 elements [1-16]`` / ``25 nodes in the box (0, 0, 0) to (40, 40, 0)``."""
    if group.kind == "nodes":
        text = tr("1 node") if group.count == 1 else tr("{count} nodes").format(
            count=group.count)
    else:
        text = tr("1 element") if group.count == 1 else tr("{count} elements").format(
            count=group.count)
    if group.labels is not None and group.count:
        text += " " + label_runs(group.labels)
    if group.box is not None and group.count:
        text += " " + tr("in the box {low} to {high}").format(
            low=point(group.box[0]), high=_with_length(point(group.box[1]), length_unit))
    return text


def _with_length(text: str, length_unit: str) -> str:
    return f"{text} {length_unit}" if length_unit else text


def state_words(state: Any, length_unit: str = "") -> str:
    if not getattr(state, "exists", True):
        return tr("the part does not exist yet")
    text = tr("{nodes} nodes, {elements} elements").format(nodes=state.nodes,
                                                           elements=state.elements)
    shapes = tr(", ").join(f"{v} {k}" for k, v in state.shapes.items() if v not in ("0", ""))
    if shapes:
        text += tr(" ({shapes})").format(shapes=shapes)
    more = []
    if state.sets:
        more.append(tr("sets {names}").format(names=", ".join(state.sets)))
    if state.sections:
        more.append(tr("sections {names}").format(names=", ".join(state.sections)))
    if state.assigned_elements not in (None, "0"):
        more.append(tr("{count} elements with a section").format(count=state.assigned_elements))
    if state.bounding_box is not None:
        more.append(tr("in the box {low} to {high}").format(
            low=point(state.bounding_box[0]),
            high=_with_length(point(state.bounding_box[1]), length_unit)))
    return tr("; ").join([text, *more])


def basis_words(basis: str) -> str:
    """How the After line was worked out."""
    if basis.startswith("exact: the script's own operations run on a copy"):
        return tr("After is exact: these operations were tried on a copy of the part.")
    if basis.startswith("exact: the live part, unchanged, with the sections"):
        return tr("After is exact: the part stays as it is, with the sections assigned.")
    if basis.startswith(("counts predicted by the compilers",
                         "counts and names predicted by the compilers")):
        return tr("After: counts and names worked out from the operations (not tried on a "
                  "copy); the readback checks them.")
    ranges = re.match(r"counts as ranges: (.*)$", basis)
    if ranges:
        return tr("After is a range: {why}").format(why=ranges.group(1))
    known = _known_basis(basis)
    if known:
        return known
    return tr("How After was worked out: {basis}").format(basis=basis)


def _known_basis(basis: str) -> str:
    """The other bases the domain modules write (compilers/*/describe.py), in words."""
    if basis.startswith("read-only:"):
        return tr("After is exact: these operations only read; the part stays as it is.")
    if basis.startswith("exact: the geometry unchanged, the sections"):
        return tr("After is exact: the geometry stays as it is; the elements picked get the "
                  "sections and orientations of these operations, and the definitions they "
                  "write are read back by value.")
    if basis.startswith("the refined elements are gone"):
        return tr("After: the refined elements are replaced by their children and the new "
                  "nodes counted; the rest of the part is compared through its fingerprint.")
    if basis.startswith("counts: the part does not exist after the calls"):
        return tr("After: the part does not exist after these operations.")
    return ""


# -- known forms of the compilers' English ------------------------------------------------


def _selection(text: str, noun: str = "elements") -> str:
    """A selector as the compilers word it (``all``, ``in set S``, ``all QUAD``, …), said with
    what it picks: ``all elements``, ``the nodes in set S``."""
    what = {"elements": tr("elements"), "nodes": tr("nodes"), "beams": tr("beams")}[noun]
    if text == "all":
        return tr("all {noun}").format(noun=what)
    if text.startswith("all "):
        return tr("all {shape} {noun}").format(shape=text[4:], noun=what)
    if text.startswith("in set "):
        return tr("the {noun} in set {name}").format(noun=what, name=text[7:])
    box = re.match(rf"in box ({_PT})\.\.({_PT})$", text)
    if box:
        return tr("the {noun} in the box {low} to {high}").format(
            noun=what, low=box.group(1), high=box.group(2))
    labels = re.match(r"labels (\[.*)$", text)
    if labels:
        return tr("the {noun} with labels {labels}").format(noun=what, labels=labels.group(1))
    return text


def _levels(levels: str) -> str:
    return {"1": tr("once"), "2": tr("twice")}.get(levels) or tr("{n} times").format(n=levels)


_Phrase = tuple[re.Pattern[str], Callable[[re.Match[str]], str]]


def _phrases() -> list[_Phrase]:
    g = re.compile
    return [
        (g(r"^mesh patch (\S+): (\w+) (\d+) x (\d+) cells over corners (.+)$"), lambda m: tr(
            "mesh patch {id}: {nu} x {nv} {shape} elements over the corners {corners}").format(
            id=m[1], shape=m[2], nu=m[3], nv=m[4], corners=m[5])),
        (g(rf"^beam line (\S+): (\d+) BEAM elements from ({_PT}) to ({_PT})( \S+)?$"),
         lambda m: tr("beam line {id}: {n} BEAM elements from {start} to {end}").format(
            id=m[1], n=m[2], start=m[3], end=m[4] + (m[5] or ""))),
        (g(r"^add elements (.+)$"), lambda m: tr("add elements: {shapes}").format(shapes=m[1])),
        (g(r"^coordinate table of (\d+) node\(s\) \(an existing node at a coordinate is "
           r"reused\)$"), lambda m: tr("{n} node positions (a node already at a position is "
                                       "used again)").format(n=m[1])),
        (g(r"^element set (\S+): (\d+) listed element\(s\)$"), lambda m: tr(
            "element set {name} of {n} listed elements").format(name=m[1], n=m[2])),
        (g(r"^element set (\S+): (.+)$"), lambda m: tr("element set {name}: {which}")
         .format(name=m[1], which=_selection(m[2]))),
        (g(r"^clear the whole part \(every node and element\)$"),
         lambda m: tr("clear the whole part (every node and element)")),
        (g(r"^delete elements (.+)$"), lambda m: tr("delete {which}").format(
            which=_selection(m[1]))),
        (g(r"^delete nodes (.+) \(and the elements using them\)$"), lambda m: tr(
            "delete {which} (and the elements that use them)").format(
            which=_selection(m[1], "nodes"))),
        (g(rf"^move node (\d+) to ({_LEN})$"), lambda m: tr("move node {label} to {to}").format(
            label=m[1], to=m[2])),
        (g(rf"^translate by ({_LEN}), (.+)$"), lambda m: tr("move {which} by {vector}").format(
            vector=m[1], which=_selection(m[2]))),
        (g(rf"^copy translated by ({_LEN}), (.+)$"), lambda m: tr(
            "copy {which}, moved by {vector}").format(vector=m[1],
                                                               which=_selection(m[2]))),
        (g(rf"^rotate ({_NUM}) deg about axis ({_PT}) through ({_LEN}), (.+)$"), lambda m: tr(
            "rotate {which} {angle}° about the axis {axis} through {origin}").format(
            angle=m[1], axis=m[2], origin=m[3], which=_selection(m[4]))),
        (g(rf"^mirror (a copy )?in the plane through ({_LEN}) with normal ({_PT}), (.+)$"),
         lambda m: (tr("mirror a copy of {which} in the plane through {origin} (normal "
                       "{normal})") if m[1] else
                    tr("mirror {which} in the plane through {origin} (normal {normal})")).format(
            origin=m[2], normal=m[3], which=_selection(m[4]))),
        (g(rf"^scale by ({_NUM}) about ({_LEN}), (.+)$"), lambda m: tr(
            "scale {which} by {factor} about {origin}").format(factor=m[1], origin=m[2],
                                                                which=_selection(m[3]))),
        (g(rf"^linear array of (\d+) \(step ({_LEN})\), (.+)$"), lambda m: tr(
            "{count} copies of {which} in a row, each moved {step} from the last").format(
            count=m[1], step=m[2], which=_selection(m[3]))),
        (g(rf"^merge coincident nodes within ({_QTY})$"), lambda m: tr(
            "merge nodes closer than {tolerance} (coincident nodes)").format(tolerance=m[1])),
        (g(r"^merge coincident nodes within the part's default tolerance$"),
         lambda m: tr("merge coincident nodes (within the part's default tolerance)")),
        (g(r"^delete duplicate elements$"), lambda m: tr("delete duplicate elements")),
        (g(r"^delete free nodes$"), lambda m: tr("delete free nodes")),
        (g(r"^audit \(read-only\): (.+); writes (\S+)$"), lambda m: tr(
            "audit, read-only: {checks} (report {file})").format(
            checks=_checks(m[1]), file=m[2])),
        (g(r"^audit \(read-only\); writes (\S+)$"), lambda m: tr(
            "audit, read-only (report {file})").format(file=m[1])),
        (g(r"^adds$"), lambda m: tr("adds {what}")),
        (g(r"^removes$"), lambda m: tr("removes {what}")),
        (g(r"^removes, beyond what the call names$"),
         lambda m: tr("also removes {what} (more than the operation names)")),
        (g(r"^refine elements (.+) by (\d+) level\(s\): each parent is replaced by its children "
           r"\(QUAD/TRI x(\d+), BEAM x(\d+)\); sections, orientations and sets are inherited$"),
         lambda m: tr("refine {which} {levels}: each becomes {quad} smaller ones "
                      "({beam} for a beam) that keep its section, orientation and sets").format(
            which=_selection(m[1]), levels=_levels(m[2]), quad=m[3], beam=m[4])),
        (g(rf"^material (\S+): E ({_QTY}), nu ({_NUM})(?:, density ({_QTY}))?$"), lambda m: (
            tr("material {name}: E {E}, ν {nu}, density {density}") if m[4] else
            tr("material {name}: E {E}, ν {nu}")).format(name=m[1], E=m[2], nu=m[3],
                                                          density=m[4])),
        (g(rf"^section (\S+) \(shell, thickness ({_QTY})\) of material (\S+)$"), lambda m: tr(
            "shell section {name}, thickness {thickness}, of material {material}").format(
            name=m[1], thickness=m[2], material=m[3])),
        (g(r"^section (\S+) \(beam, (\S+) profile (.*)\) of material (\S+)$"), lambda m: tr(
            "beam section {name}, {shape} profile {dimensions}, of material {material}").format(
            name=m[1], shape=m[2], dimensions=m[3], material=m[4])),
        (g(r"^assign section (\S+) to elements (.+)$"), lambda m: tr(
            "assign section {name} to {which}").format(name=m[1],
                                                                    which=_selection(m[2]))),
        (g(rf"^orient beams (.+) with n1 ({_PT})$"), lambda m: tr(
            "orient {which} with n1 = {n1}").format(which=_selection(m[1], "beams"), n1=m[2])),
        (g(r"^replaces section (.+) on$"), lambda m: tr("takes section {names} off").format(
            names=m[1])),
    ]


@functools.cache
def compiled_phrases() -> list[_Phrase]:
    """The phrases, compiled once (about 40 ms: the plugin's prewarm thread does it at load,
    so the first plan shown does not stall the GUI); the words are translated at each use."""
    return _phrases()


def phrase_words(text: str) -> str:
    """One line of the compilers' English in words (``{what}`` left for adds/removes)."""
    for pattern, words in compiled_phrases():
        found = pattern.match(text)
        if found:
            return words(found)
    return tr(text)  # a fixed phrase (``leaves nodes with no element (free nodes)``)


def note_words(note: str) -> str:
    refines = re.match(r"^refines (\d+) element\(s\) (\d+) level\(s\): \+(\d+) nodes, (\d+) "
                       r"children replace (\d+) parents$", note)
    if refines:
        return tr("{parents} elements become {children}, with {nodes} new nodes").format(
            parents=refines[5], children=refines[4], nodes=refines[3])
    hanging = re.match(r"^predicted hanging nodes after refinement: (\d+) \((\d+) new on the "
                       r"border with unrefined elements; (\d+) before\)$", note)
    if hanging:
        return tr("hanging nodes after refining: {n} ({new} new at the border with unrefined "
                  "elements; {before} before)").format(n=hanging[1], new=hanging[2],
                                                      before=hanging[3])
    return tr("note: {note}").format(note=note)


def warning_words(text: str) -> str:
    differs = re.match(r"^the spec expects (.+); the calls leave (.+)$", text)
    if differs:
        return tr("the spec expects {expected}; these operations leave {predicted}").format(
            expected=differs[1], predicted=differs[2])
    return text.replace("the calls", tr("these operations"))


def _destructive(plan: Plan, text: str) -> str:
    """A destructive line of the plan: the operation it names, said again from its data."""
    call = re.match(r"^call (\d+) (\w+): (.+)$", text)
    if call:
        ops = [op for c in plan.calls if c.index == int(call[1]) for op in c.operations
               if op.destructive and op.describe(plan.length_unit) == call[3]]
        what = operation_words(ops[0], plan.length_unit) if ops else call[3]
        return tr("operation {n} ({tool}): {what}").format(
            n=call[1], tool=tool_words(call[2]), what=what)
    ranges = re.match(r"^the calls may remove up to (\d+) of the (\d+) (nodes|elements)$", text)
    if ranges:
        return tr("these operations may remove up to {n} of the {total} {noun}").format(
            n=ranges[1], total=ranges[2],
            noun=tr("nodes") if ranges[3] == "nodes" else tr("elements"))
    return text


def _checks(text: str) -> str:
    names = {"counts": tr("counts"), "free_nodes": tr("free nodes"),
             "duplicate_elements": tr("duplicate elements"),
             "coincident_nodes": tr("coincident nodes"),
             "degenerate_elements": tr("degenerate elements"), "quality": tr("quality"),
             "default checks": tr("the usual checks")}
    return tr(", ").join(names.get(part.strip(), part.strip()) for part in text.split(","))


def _and(groups: list[str]) -> str:
    if len(groups) == 1:
        return groups[0]
    return tr("{first} and {last}").format(first=tr(", ").join(groups[:-1]), last=groups[-1])


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
