"""The plan an analyst approves before anything runs (docs/architecture.md §5 "Plan"), as data.

A domain module describes its compiled calls (``DomainModule.describe``): per call, each
operation with its numbers and the entities it touches, destructive ones marked, and, where
its shadow run can tell, the predicted part (``predicted_part.PredictedPart``: what the calls
touch, and the fingerprint of the rest) the verifier later compares the live part with
(I13). The runtime adds the before → after summary, the spec's own expectations and the
script's SHA-256, and writes it all to ``plan.json``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, Field

from sam_plugin.compilers.plan_phrases import operation_phrase, text_phrase, touched_phrase
from sam_plugin.compilers.predicted_part import Box, PredictedPart, Vec3
from sam_plugin.samops.mesh_read import column_box
from sam_plugin.words.phrase import RECORD, Phrase, phrase, render

__all__ = ["Box", "PlanCall", "PlanDetail", "PlanOperation", "PlanState", "PredictedPart",
           "Preview", "Touched", "Vec3", "touched"]
# A plan names at most this many labels of a touched group; beyond, a count and a box.
LABELS_SHOWN = 20


class Touched(BaseModel):
    """The entities one operation acts on: labels when few, else a count and a bounding box."""

    kind: Literal["nodes", "elements"]
    count: int
    labels: list[int] | None = None
    box: Box | None = None

    def describe(self, length_unit: str = "") -> str:
        noun = self.kind if self.count != 1 else self.kind[:-1]
        text = f"{self.count} {noun}"
        if self.labels is not None and self.count:
            text += " " + label_runs(self.labels)
        if self.box is not None and self.count:
            text += f" in box {_box(self.box, length_unit)}"
        return text

    def phrase(self) -> Phrase:
        """The group as a phrase (its record is :meth:`describe`)."""
        return touched_phrase(self.kind, self.count,
                              label_runs(self.labels) if self.labels is not None else "",
                              self.box)


def _no_phrase(value: object) -> bool:
    return not value


class PlanOperation(BaseModel):
    text: str
    destructive: bool = False
    touched: list[Touched] = Field(default_factory=list)
    # ``text`` as a phrase (its record); None in plans written before phrases
    phrase: Phrase | None = Field(default=None, exclude_if=_no_phrase)

    def words(self) -> Phrase:
        """The operation with what it touches, as a phrase (its record is :meth:`describe`)."""
        return operation_phrase(self.phrase or text_phrase(self.text),
                                [t.phrase() for t in self.touched])

    def describe(self, length_unit: str = "") -> str:
        parts = [self.text, *(t.describe(length_unit) for t in self.touched)]
        return ": ".join([parts[0], ", ".join(parts[1:])]) if len(parts) > 1 else parts[0]


class PlanCall(BaseModel):
    index: int  # 1-based, in the script's order
    tool: str
    operations: list[PlanOperation] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    # the notes as phrases, one each, in order (empty in plans written before phrases)
    note_phrases: list[Phrase] = Field(default_factory=list, exclude_if=_no_phrase)
    # where the call came from (``tool_calls.json``'s source: spec, model, text, mcp, ...)
    source: str = ""


class PlanStep(BaseModel):
    """A step of the confirmed spec and the call that carries it out (docs/architecture.md §4
    "The spec"): ``step 2 ✓ translate set S1 by (5, 0, 0)``."""

    step: int  # 1-based, in the spec
    call: int  # 1-based, PlanCall.index
    path: str = ""  # where in the call's arguments (``operations[1]``)
    text: str  # the step in words, as confirmed
    # the step as its phrase (worded by its action in any language); None before phrases
    phrase: Phrase | None = Field(default=None, exclude_if=_no_phrase)
    # what the call's scope picked when it runs (after the earlier operations), if resolved
    picked: Touched | None = None

    def describe(self, length_unit: str = "", units: Mapping[str, str] | None = None) -> str:
        words = render(self.phrase, RECORD, units) if self.phrase is not None else self.text
        said = f"step {self.step} ✓ {words}"
        return (f"{said} — {self.picked.describe(length_unit)}" if self.picked is not None
                else said)


class PlanState(BaseModel):
    """Before or after: counts (``"12"`` or a range ``"10..12"``), names, bounding box."""

    nodes: str
    elements: str
    shapes: dict[str, str]
    sets: list[str] = Field(default_factory=list)
    sections: list[str] = Field(default_factory=list)
    assigned_elements: str | None = None
    bounding_box: Box | None = None
    exists: bool = True  # False: a part the run makes (Before: it does not exist yet)


class Preview(BaseModel):
    """What the viewport shows over the current part before execution (element outlines).

    ``added`` are predicted outlines (point lists); ``deleted`` and ``moved`` are labels of
    the live part's elements; ``moved_to`` the moved elements' predicted outlines;
    ``deleted_nodes`` the points of the nodes the plan deletes (a merge's duplicates, which
    may be nodes the plan itself added), as many as the plan says it removes;
    ``acted_on`` and ``acted_on_nodes`` the labels of the elements and nodes the calls act
    on and leave as they are (the region a call applies something to).
    """

    added: list[list[Vec3]] = Field(default_factory=list)
    deleted: list[int] = Field(default_factory=list)
    deleted_nodes: list[Vec3] = Field(default_factory=list)
    moved: list[int] = Field(default_factory=list)
    moved_to: list[list[Vec3]] = Field(default_factory=list)
    truncated: bool = False
    acted_on: list[int] = Field(default_factory=list, exclude_if=lambda labels: not labels)
    acted_on_nodes: list[int] = Field(default_factory=list,
                                      exclude_if=lambda labels: not labels)


class Plan(BaseModel):
    """``plan.json``: what will run, in the analyst's terms, with the script's hash (I11)."""

    run_id: str
    module: str
    target: dict[str, str]
    script_sha256: str
    calls: list[PlanCall]
    before: PlanState
    after: PlanState
    destructive: list[str] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)
    expectations: dict[str, Any] = Field(default_factory=dict)
    prediction: str = ""  # how the after state was predicted (exact shadow run, or ranges)
    preview: Preview | None = None
    # every call is read-only: no snapshot is taken and the run cannot be undone
    read_only: bool = False
    steps: list[PlanStep] = Field(default_factory=list)  # each call against its step
    # the unit of its coordinates and boxes, for people; "" (and left out of plan.json) when
    # the run was given no unit system
    length_unit: str = Field(default="", exclude_if=lambda unit: not unit)
    # the destructive lines, warnings and prediction as phrases (one each, in order); empty
    # in plans written before phrases, which show their stored English
    destructive_phrases: list[Phrase] = Field(default_factory=list, exclude_if=_no_phrase)
    warning_phrases: list[Phrase] = Field(default_factory=list, exclude_if=_no_phrase)
    prediction_phrase: Phrase | None = Field(default=None, exclude_if=_no_phrase)
    # the unit system the plan's values are said in (quantity -> unit), for its phrases
    units: dict[str, str] = Field(default_factory=dict, exclude_if=_no_phrase)

    @property
    def needs_attention(self) -> bool:
        return bool(self.destructive or self.warnings)

    def summary(self) -> str:
        """One line for the status bar: ``3 call(s), 1 destructive, 2 warning(s)``."""
        text = f"{len(self.calls)} call(s)"
        if self.destructive:
            text += f", {len(self.destructive)} destructive"
        if self.warnings:
            text += f", {len(self.warnings)} warning(s)"
        return text

    def lines(self, hash_name: str = "plan_sha256") -> list[tuple[str, str]]:
        """(kind, text) lines, destructive ones and warnings first; kind is ``destructive``,
        ``warning``, ``call``, ``step``, ``operation``, ``state`` or ``note``. The last names
        the script's SHA-256 as ``hash_name``: ``plan_sha256``, its one name wherever the
        plan is read (``plan.json`` and ``result.json`` keep the field ``script_sha256``)."""
        units = self.unit_table()
        domain_words(self.module)
        out = [("destructive", f"DESTRUCTIVE: {text}")
               for text in said(self.destructive_phrases, self.destructive, RECORD, units)]
        out += [("warning", f"WARNING: {text}")
                for text in said(self.warning_phrases, self.warnings, RECORD, units)]
        for call in self.calls:
            out.append(("call", f"{call.index}. {call.tool}{self._origin(call)}"))
            out += [("step", f"   {step.describe(self.length_unit, units)}")
                    for step in self.steps if step.call == call.index]
            for op in call.operations:
                mark = "  [destructive]" if op.destructive else ""
                text = (render(op.words(), RECORD, units) if op.phrase is not None
                        else op.describe(self.length_unit))
                out.append(("destructive" if op.destructive else "operation",
                            f"   - {text}{mark}"))
            out += [("note", f"   note: {note}")
                    for note in said(call.note_phrases, call.notes, RECORD, units)]
        out.append(("state", "before: " + _state_text(self.before, self.length_unit)))
        out.append(("state", "after:  " + _state_text(self.after, self.length_unit)))
        if self.prediction:
            basis = (render(self.prediction_phrase, RECORD, units)
                     if self.prediction_phrase is not None else self.prediction)
            out.append(("note", f"prediction: {basis}"))
        out.append(("note", f"{hash_name}: {self.script_sha256}"))
        return out

    def unit_table(self) -> dict[str, str] | None:
        """The units its phrases are rendered with (quantity -> unit); a plan written before
        phrases knows its length unit alone."""
        if self.units:
            return self.units
        return {"length": self.length_unit} if self.length_unit else None

    def text(self, hash_name: str = "plan_sha256") -> str:
        return "\n".join(line for _, line in self.lines(hash_name))

    def _origin(self, call: PlanCall) -> str:
        """`` (computed from step 2)`` for a call computed from the confirmed steps."""
        if call.source != "spec":
            return ""
        numbers = sorted({s.step for s in self.steps if s.call == call.index})
        if not numbers:
            return " (computed from the spec)"
        said = ", ".join(str(n) for n in numbers)
        return f" (computed from step{'s' if len(numbers) > 1 else ''} {said})"


@dataclass
class PlanDetail:
    """What ``DomainModule.describe`` returns: the calls in words, and the predicted part."""

    calls: list[PlanCall]
    predicted: PredictedPart | None = None
    basis: str = ""  # how the prediction was made, or why there is none
    preview: Preview | None = None
    warnings: list[str] = field(default_factory=list)
    # ``basis`` and ``warnings`` as phrases (a domain may give none: its English is shown)
    basis_phrase: Phrase | None = None
    warning_phrases: list[Phrase] = field(default_factory=list)
    # the sets the calls leave with no member (a deletion can empty a set it does not name)
    empty_sets: list[str] = field(default_factory=list)
    # the nodes the calls leave with no element that had one (free nodes the verifier reads)
    free_nodes: list[int] = field(default_factory=list)


def domain_words(mode: str) -> None:
    """Make sure ``mode``'s domain has registered its words (a plan read from ``plan.json``
    in a process that has not used the domain yet); an unknown mode has none."""
    from sam_plugin.compilers.registry import MODES, get_module

    if mode in MODES:
        get_module(mode)


def every_domain_words() -> None:
    """Every registered domain's words (a line of a plan written before phrases is looked up
    among them all)."""
    from sam_plugin.compilers.registry import MODES

    for mode in MODES:
        domain_words(mode)


def said(phrases: Sequence[Phrase], stored: Sequence[str], language: str,
         units: Mapping[str, str] | None) -> list[str]:
    """Lines in ``language`` from their phrases; a plan written before phrases (or a line
    made without one) keeps its stored English."""
    if len(phrases) != len(stored):
        return list(stored)
    return [render(p, language, units) for p in phrases]


def call_notes(notes: Sequence[str], phrases: Mapping[str, Phrase]) -> list[Phrase]:
    """Each note as its phrase (a note given none is said as it is)."""
    return [phrases.get(note) or phrase("plan.note", text=note) for note in notes]


def touched(kind: Literal["nodes", "elements"], labels: list[int],
            points: Sequence[Vec3] | np.ndarray | None = None, *,
            labels_known: bool = True) -> Touched:
    """A Touched group: labels when at most LABELS_SHOWN, else a count and a bounding box.

    ``labels_known=False`` for entities the run creates: the host numbers them, so the plan
    gives their count and box, never a guessed label. The box is computed only when shown."""
    labels = sorted(labels)
    if labels_known and len(labels) <= LABELS_SHOWN:
        return Touched(kind=kind, count=len(labels), labels=labels, box=None)
    box = None
    if points is not None and len(points):
        box = column_box(np.asarray(points, dtype=np.float64).reshape(-1, 3))
    return Touched(kind=kind, count=len(labels), labels=None, box=box)


def _num(value: float) -> str:
    return f"{value:.6g}"


def _point(p: Vec3) -> str:
    return "(" + ", ".join(_num(v) for v in p) + ")"


def _box(box: Box, length_unit: str = "") -> str:
    """``(0, 0, 0)..(40, 40, 0)``, then its unit when the plan has one."""
    said = f"{_point(box[0])}..{_point(box[1])}"
    return f"{said} {length_unit}" if length_unit else said


def label_runs(labels: list[int]) -> str:
    """``[1-16, 20]``: sorted labels with consecutive ones as ranges (the plan's words, also
    the dock's)."""
    if not labels:
        return ""
    runs: list[str] = []
    start = prev = labels[0]
    for label in [*labels[1:], None]:
        if label is not None and label == prev + 1:
            prev = label
            continue
        runs.append(str(start) if start == prev else f"{start}-{prev}")
        if label is not None:
            start = prev = label
    return "[" + ", ".join(runs) + "]"


def _state_text(state: PlanState, length_unit: str = "") -> str:
    if not state.exists:
        return "the part does not exist yet"
    shapes = ", ".join(f"{k} {v}" for k, v in state.shapes.items() if v not in ("0", ""))
    text = f"{state.nodes} nodes, {state.elements} elements"
    if shapes:
        text += f" ({shapes})"
    if state.sets:
        text += f"; sets {', '.join(state.sets)}"
    if state.sections:
        text += f"; sections {', '.join(state.sections)}"
    if state.assigned_elements is not None:
        text += f"; {state.assigned_elements} elements with a section"
    if state.bounding_box is not None:
        text += f"; box {_box(state.bounding_box, length_unit)}"
    return text


def generic_detail(fragments: Any, ctx: Any) -> PlanDetail:
    """Calls described by their normalized arguments, without a predicted part: for modules
    whose changes a shadow run does not predict (the verifier then checks what it can)."""
    calls = []
    for index, fragment in enumerate(fragments, start=1):
        operations = [PlanOperation(text=(said := f"{key}: {_compact(value)}"),
                                    phrase=text_phrase(said))
                      for key, value in fragment.normalized.items() if value not in (None, [], {})]
        calls.append(PlanCall(index=index, tool=fragment.tool, operations=operations,
                              notes=list(fragment.notes),
                              note_phrases=call_notes(fragment.notes, fragment.note_phrases)))
    return PlanDetail(calls=calls, basis="counts and names predicted by the compilers",
                      basis_phrase=phrase("basis.compilers_names", more=""))


def _compact(value: Any, limit: int = 240) -> str:
    import json

    text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "), default=str)
    return text if len(text) <= limit else text[: limit - 3] + "..."
