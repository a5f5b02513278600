"""The spec IR (docs/architecture.md §4 "The spec"): what the analyst confirms, as data.

``summary``; ``steps`` (each: ``capability``, ``action`` from the mode's vocabulary, ``scope``
a tool-IR Selector or absent, ``values`` the numbers, names and labels it commits to, and
``text``); ``expected`` results, every field optional. Generic over modes: which actions and
values a step may carry is the mode's vocabulary (``compilers/spec/reading.py`` checks it);
values are held normalized (``compilers/spec/values.py``), so ``spec.json`` round-trips.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from sam_plugin.compilers.expectations import Expectations
from sam_plugin.compilers.ir_common import Name, ShapeName
from sam_plugin.compilers.selectors import Selector

SPEC_CONFIG = ConfigDict(frozen=True, extra="forbid")
Count = Annotated[int, Field(ge=0)]


class Expected(BaseModel):
    """What the spec expects of the whole part after the run; absent = not stated.

    ``selected`` is how many elements (or nodes) the change acts on."""

    model_config = SPEC_CONFIG

    nodes: Count | None = None
    elements: Count | None = None
    shapes: dict[ShapeName, Count] = Field(default_factory=dict)
    sets: tuple[Name, ...] = ()
    selected: Count | None = None

    @property
    def empty(self) -> bool:
        return (self.nodes is None and self.elements is None and not self.shapes
                and not self.sets and self.selected is None)

    @classmethod
    def from_line(cls, line: Expectations) -> Expected:
        """An old prose spec's expected-results line (run directories before the spec IR)."""
        selected = line.selected.get("elements", line.selected.get("nodes"))
        return cls(nodes=line.nodes, elements=line.elements,
                   shapes={k: v for k, v in line.shapes.items() if k in ("QUAD", "TRI", "BEAM")},
                   sets=tuple(line.sets), selected=selected)

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        for key in ("nodes", "elements"):
            if getattr(self, key) is not None:
                data[key] = getattr(self, key)
        if self.shapes:
            data["shapes"] = dict(self.shapes)
        if self.sets:
            data["sets"] = list(self.sets)
        if self.selected is not None:
            data["selected"] = self.selected
        return data


class Step(BaseModel):
    """One step the analyst confirms; every mutating operation of the calls carries one out."""

    model_config = SPEC_CONFIG

    capability: str
    action: str
    scope: Selector | None = None
    values: dict[str, Any] = Field(default_factory=dict)
    text: str = ""

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"capability": self.capability, "action": self.action}
        if self.scope is not None:
            data["scope"] = self.scope.model_dump(mode="json")
        data["values"] = dict(self.values)
        data["text"] = self.text
        return data


class Spec(BaseModel):
    """The confirmed spec: stored as ``spec.json``, rendered as ``design.txt``."""

    model_config = SPEC_CONFIG

    summary: str
    steps: tuple[Step, ...] = Field(min_length=1)
    expected: Expected = Field(default_factory=Expected)

    def capabilities(self) -> list[str]:
        """The steps' capabilities, each once, in the order the steps first name them."""
        return list(dict.fromkeys(step.capability for step in self.steps))

    def as_json(self) -> dict[str, Any]:
        """The spec as ``spec.json`` holds it (absent scope and unstated expectations left
        out, as the model may leave them out)."""
        data: dict[str, Any] = {"summary": self.summary,
                                "steps": [step.as_json() for step in self.steps]}
        expected = self.expected.as_json()
        if expected:
            data["expected"] = expected
        return data
