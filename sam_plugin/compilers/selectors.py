"""The Selector IR (docs/architecture.md §4), its compile-time checks and its prediction helpers.

Checks run against the live part (read-only) and the predicted state of the run, so a set
created by an earlier call of the same run is accepted. Prediction helpers use the same
resolver the generated scripts call (``sam_plugin.samops.selection``).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, field_validator, model_validator

from sam_plugin.compilers.evidence import Prediction
from sam_plugin.compilers.ir_common import IR_CONFIG, Name, ShapeName, Vec3
from sam_plugin.compilers.protocol import Diagnostic
from sam_plugin.errors import SelectionError
from sam_plugin.samops import selection

SelectorKind = Literal["elements", "nodes"]


class AllSelector(BaseModel):
    model_config = IR_CONFIG
    by: Literal["all"]


class LabelsSelector(BaseModel):
    model_config = IR_CONFIG
    by: Literal["labels"]
    labels: tuple[Annotated[int, Field(ge=1)], ...] = Field(min_length=1)

    @field_validator("labels")
    @classmethod
    def _sorted_unique(cls, labels: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(sorted(set(labels)))


class SetSelector(BaseModel):
    model_config = IR_CONFIG
    by: Literal["set"]
    name: Name


class ShapeSelector(BaseModel):
    model_config = IR_CONFIG
    by: Literal["shape"]
    shape: ShapeName


class BoxSelector(BaseModel):
    model_config = IR_CONFIG
    by: Literal["box"]
    min: Vec3
    max: Vec3

    @model_validator(mode="after")
    def _ordered(self) -> BoxSelector:
        for axis, lo, hi in zip("xyz", self.min, self.max, strict=True):
            if lo > hi:
                raise ValueError(f"box min {axis}={lo} exceeds max {axis}={hi}; "
                                 "min holds the smallest x, y, z")
        return self


Selector = Annotated[
    AllSelector | LabelsSelector | SetSelector | ShapeSelector | BoxSelector,
    Field(discriminator="by"),
]
SELECT_ALL = AllSelector(by="all")


def selector_literal(selector: BaseModel) -> dict[str, Any]:
    """The normalized selector as plain data (tuples), ready for ``repr`` into a script."""
    return selector.model_dump(mode="python")


def check_selector(selector: BaseModel, part: Any, path: str, kind: SelectorKind,
                   state: Prediction | None = None) -> list[Diagnostic]:
    """Labels and sets the selector names must exist (in the part or earlier in this run)."""
    if isinstance(selector, LabelsSelector):
        noun = "element" if kind == "elements" else "node"
        array = [] if part is None else (part.elements if kind == "elements" else part.nodes)
        existing = {item.label for item in array}
        missing = [label for label in selector.labels if label not in existing]
        if missing:
            shown = ", ".join(str(m) for m in missing[:10])
            more = f" (+{len(missing) - 10} more)" if len(missing) > 10 else ""
            return [Diagnostic(
                path=f"{path}.labels",
                message=f"unknown {noun} label(s) {shown}{more}; "
                f"{selection.label_range(existing, noun)}",
            )]
    if isinstance(selector, SetSelector):
        live = set(part.sets.keys()) if part is not None else set()
        planned = set(state.sets_present) if state is not None else set()
        if selector.name not in live | planned:
            names = sorted(live | planned)
            legal = f"existing sets: {', '.join(names)}" if names else "the part has no sets"
            return [Diagnostic(path=f"{path}.name",
                               message=f"unknown set {selector.name!r}; {legal}")]
    return []


def count_selected(selector: BaseModel, part: Any, kind: SelectorKind) -> int:
    """How many elements (or nodes) the selector picks in the live part now."""
    if part is None:
        return 0
    literal = selector_literal(selector)
    try:
        if kind == "elements":
            return len(selection.select_elements(part, literal))
        return len(selection.select_nodes(part, literal))
    except SelectionError:
        return 0


def selected_shape_counts(selector: BaseModel, part: Any) -> dict[str, int]:
    counts = {"QUAD": 0, "TRI": 0, "BEAM": 0}
    if part is None:
        return counts
    try:
        elements = selection.select_elements(part, selector_literal(selector))
    except SelectionError:
        return counts
    for element in elements:
        counts[str(element.type)] = counts.get(str(element.type), 0) + 1
    return counts
