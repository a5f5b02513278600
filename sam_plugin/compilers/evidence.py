"""Predicted and observed part state: what compilers promise and what readback finds.

A compiler never claims a result; it predicts a range. The verifier compares the
prediction with a readback of the live model taken after the one script ran.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    model_serializer,
    model_validator,
)

from sam_plugin.compilers import check_phrases as _check_words  # noqa: F401 (registers the words)
from sam_plugin.compilers.units import Quantity
from sam_plugin.samops.records import SHAPES, PartRecord, ShapeName
from sam_plugin.words.phrase import RECORD, Phrase, render

__all__ = ["SHAPES", "Check", "Prediction", "Range", "Readback", "ShapeName", "ValueRow"]


class Range(BaseModel):
    """An inclusive integer range; ``min == max`` means the value is known exactly."""

    model_config = ConfigDict(frozen=True)

    min: int
    max: int

    @model_validator(mode="after")
    def _ordered(self) -> Range:
        if self.min > self.max:
            raise ValueError(f"range min {self.min} exceeds max {self.max}")
        return self

    @classmethod
    def exact(cls, value: int) -> Range:
        return cls(min=value, max=value)

    @property
    def is_exact(self) -> bool:
        return self.min == self.max

    def contains(self, value: int) -> bool:
        return self.min <= value <= self.max

    def plus(self, low: int, high: int | None = None) -> Range:
        """Shift by ``low`` (or by ``low..high`` when the change itself is uncertain)."""
        high = low if high is None else high
        return Range(min=max(0, self.min + low), max=max(0, self.max + high))

    def describe(self) -> str:
        return str(self.min) if self.is_exact else f"{self.min}..{self.max}"


class Readback(BaseModel):
    """What the live model says about the target part, read after (or before) a run: the
    typed ``samops/records.py:PartRecord``, field for field (a field the record has and this
    lacks is refused, never dropped; tests/compilers/test_shape_parity.py)."""

    model_config = ConfigDict(extra="forbid")

    part_exists: bool
    node_count: int = 0
    element_count: int = 0
    shape_counts: dict[ShapeName, int] = Field(
        default_factory=lambda: dict.fromkeys(SHAPES, 0)
    )
    sets: list[str] = Field(default_factory=list)
    bounding_box: tuple[tuple[float, float, float], tuple[float, float, float]] | None = None
    fingerprint: str = ""  # the part fingerprint: every record (samops.fingerprint)
    geometry_fingerprint: str = ""  # its node and element records alone
    materials: list[str] = Field(default_factory=list)
    sections: list[str] = Field(default_factory=list)
    assigned_elements: int = 0
    oriented_beams: int = 0
    hanging_nodes: int | None = None  # read only when a prediction asks for it
    non_finite: list[str] = Field(default_factory=list)  # entities with a NaN or infinity

    @classmethod
    def from_record(cls, record: PartRecord) -> Readback:
        """The typed form of what ``samops.readback.read_part`` read on the host."""
        return cls.model_validate(asdict(record))


class Prediction(BaseModel):
    """The state a compiler predicts after its call; ``None`` fields are not predicted."""

    node_count: Range
    element_count: Range
    shape_counts: dict[ShapeName, Range]
    sets_present: list[str] = Field(default_factory=list)
    geometry_unchanged: bool = False
    materials_present: list[str] = Field(default_factory=list)
    sections_present: list[str] = Field(default_factory=list)
    assigned_elements: Range | None = None
    oriented_beams: Range | None = None
    hanging_nodes: Range | None = None  # nodes inside another element's edge (refinement)
    files: list[str] = Field(default_factory=list)

    @classmethod
    def from_readback(cls, readback: Readback) -> Prediction:
        """The exact starting point: nothing has run yet, so the readback is the truth."""
        return cls(
            node_count=Range.exact(readback.node_count),
            element_count=Range.exact(readback.element_count),
            shape_counts={s: Range.exact(readback.shape_counts.get(s, 0)) for s in SHAPES},
            sets_present=list(readback.sets),
            geometry_unchanged=True,
            materials_present=list(readback.materials),
            sections_present=list(readback.sections),
            assigned_elements=Range.exact(readback.assigned_elements),
            oriented_beams=Range.exact(readback.oriented_beams),
        )


class Check(BaseModel):
    """One verification line, as written to ``result.json`` (docs/architecture.md §7).

    ``quantity`` says what ``expected`` and ``actual`` measure, so that the words for people
    give them their unit; it is written only when there is one (a count or a name has none).
    """

    name: str
    expected: str
    actual: str
    ok: bool
    quantity: Quantity | None = None
    # ``name``, ``expected`` and ``actual`` as phrases, each written only when there is one
    # (docs/architecture.md "Messages as data"): a value with none (a number, a range, a list
    # of differences) and a check of a run written before phrases are shown as recorded
    name_phrase: Phrase | None = None
    expected_phrase: Phrase | None = None
    actual_phrase: Phrase | None = None

    @classmethod
    def said(cls, name: Phrase, expected: Phrase | str, actual: Phrase | str, ok: bool,
             quantity: Quantity | None = None) -> Check:
        """A check made from phrases: its English (the record) is rendered from them."""
        return cls(name=render(name, RECORD), expected=_record(expected),
                   actual=_record(actual), ok=ok, quantity=quantity, name_phrase=name,
                   expected_phrase=expected if isinstance(expected, Phrase) else None,
                   actual_phrase=actual if isinstance(actual, Phrase) else None)

    @model_serializer(mode="wrap")
    def _quantity_when_known(self, handler: SerializerFunctionWrapHandler,
                             info: SerializationInfo) -> Any:
        """``quantity`` only when known; the phrases only in JSON (``result.json``, MCP):
        a Python dump keeps the four fields its readers compare."""
        dumped = handler(self)
        if isinstance(dumped, dict):
            for optional in ("quantity", *_PHRASES):
                if dumped.get(optional) is None or (optional in _PHRASES
                                                    and not info.mode_is_json()):
                    dumped.pop(optional, None)
        return dumped


_PHRASES = ("name_phrase", "expected_phrase", "actual_phrase")


def _record(value: Phrase | str) -> str:
    return render(value, RECORD) if isinstance(value, Phrase) else value


class ValueRow(BaseModel):
    """A value a run set, before and after it (the dock's before/after values table)."""

    model_config = ConfigDict(frozen=True)

    name: str
    before: str
    after: str
    quantity: Quantity | None = None
