"""The plan in the analyst's words and language (docs/ui.md "Plan"): operations, nodes,
elements and sets, numbered as the script runs them; no tool names, hashes or "call(s)".

The compilers keep each line of a plan as a phrase (``sam_plugin/words/phrase.py``: a key
and its values) beside its English for ``plan.json`` (``Plan.lines()``: the raw plan, one
click away in the view). Here the phrases are rendered in the dock's language and the plan's
units; a plan written before phrases shows its stored English, as any line made without one.
"""

from __future__ import annotations

from typing import Any

from sam_plugin.compilers.plan import Plan, domain_words, every_domain_words, label_runs, said
from sam_plugin.compilers.plan_phrases import operation_phrase, text_phrase
from sam_plugin.compilers.plan_words import point
from sam_plugin.ui.i18n import shown_language, tr
from sam_plugin.ui.plain_words import tool_words
from sam_plugin.words.phrase import Phrase, Units, recorded, render

Line = tuple[str, str]  # (kind, text); kind as Plan.lines(): destructive, warning, call, ...


def language() -> str:
    """The catalogue language the dock shows (``zh_CN`` while Chinese is installed)."""
    return "zh_CN" if shown_language() == "zh" else "en"


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
    units = plan.unit_table()
    domain_words(plan.module)
    shown = language()
    out: list[Line] = [("destructive", tr("Destructive: {text}").format(text=text))
                       for text in said(plan.destructive_phrases, plan.destructive, shown,
                                        units)]
    out += [("warning", tr("Warning: {text}").format(text=text))
            for text in said(plan.warning_phrases, plan.warnings, shown, units)]
    for call in plan.calls:
        out.append(("call", f"{call.index}. {_capital(tool_words(call.tool))}"
                    f"{origin_words(plan, call)}"))
        out += [("step", "   " + step_words(step, units)) for step in plan.steps
                if step.call == call.index]
        for op in call.operations:
            mark = "  " + tr("[destructive]") if op.destructive else ""
            out.append(("destructive" if op.destructive else "operation",
                        f"   – {operation_words(op, units)}{mark}"))
        out += [("note", f"   {text}") for text in _notes(call, units)]
    out.append(("state", tr("Before: {state}").format(
        state=state_words(plan.before, plan.length_unit))))
    out.append(("state", tr("After: {state}").format(
        state=state_words(plan.after, plan.length_unit))))
    if plan.prediction:
        out.append(("note", basis_words(plan.prediction_phrase or plan.prediction, units)))
    return out


def _notes(call: Any, units: Units | None) -> list[str]:
    if len(call.note_phrases) == len(call.notes):
        return [render(p, language(), units) for p in call.note_phrases]
    return [tr("note: {note}").format(note=note) for note in call.notes]


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


def step_words(step: Any, units: Units | None = None) -> str:
    """``step 2 ✓ translate set S1 by (5, 0, 0) — 2 elements [1-2]``: a call against the
    step it carries out, and what its scope picked when it runs."""
    text = render(step.phrase, language(), units) if step.phrase is not None else step.text
    said_ = tr("step {number} ✓ {text}").format(number=step.step, text=text)
    length_unit = (units or {}).get("length", "")
    return (f"{said_} — {touched_words(step.picked, length_unit)}" if step.picked is not None
            else said_)


# -- one operation ------------------------------------------------------------------------


def operation_words(op: Any, units: Units | None = None) -> str:
    """One operation with what it touches; one made without a phrase (a plan written before
    phrases) says its stored English, in words where a catalogue has that exact line."""
    if op.phrase is not None:
        return render(op.words(), language(), units)
    every_domain_words()
    text = recorded(op.text) or text_phrase(tr(op.text))
    return render(operation_phrase(text, [t.phrase() for t in op.touched]), language(), units)


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


def basis_words(basis: Phrase | str, units: Units | None = None) -> str:
    """How the After line was worked out; a plan written before phrases says its stored
    English, in words where a catalogue has that exact line."""
    if not isinstance(basis, Phrase):
        every_domain_words()
    said_ = basis if isinstance(basis, Phrase) else recorded(basis)
    if said_ is None:
        said_ = Phrase(key="basis.other", values={"text": str(basis)})
    return render(said_, language(), units)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
