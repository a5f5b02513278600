"""What the analyst picked in the host's viewport, when a request acts on it (docs/ui.md
"Picking"): the kind (elements or nodes) and the labels, frozen with the target at submit.

Said to the model as one line after the request, and only when there is a selection: a run
without one sends the very bytes it always did. A spec step on the selection has the scope
``{"by": "labels", "labels": [...]}`` with exactly these labels; the spec's words then say
"the 12 selected elements". A selection changed after submit is drift (``run/drift.py``).
"""

from __future__ import annotations

import json
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from sam_plugin.compilers.spec.values import LABELS_MAX, label_words

SelectionKind = Literal["elements", "nodes"]
# a spec's label list holds at most this many (compilers/spec/values.py): more picked
# entities cannot be the scope of a step
MAX_SELECTED = LABELS_MAX


class Selection(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: SelectionKind
    labels: tuple[Annotated[int, Field(ge=1)], ...] = Field(min_length=1)

    @field_validator("labels")
    @classmethod
    def _sorted_unique(cls, labels: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(sorted(set(labels)))

    @property
    def count(self) -> int:
        return len(self.labels)

    @property
    def too_large(self) -> bool:
        """More labels than one step's scope may name."""
        return self.count > MAX_SELECTED

    def words(self) -> str:
        """``12 elements (labels 3-14)``: for logs and the drift message."""
        noun = self.kind if self.count != 1 else self.kind[:-1]
        return f"{self.count} {noun} (labels {label_words(self.labels)})"

    def prompt_line(self) -> str:
        """The one line the design request gains (after the request)."""
        scope = json.dumps({"by": "labels", "labels": list(self.labels)},
                           separators=(",", ":"))
        return (f"Selection (picked in the viewport; \"the selection\", \"selected\"): "
                f"{self.count} {self.kind}, scope {scope}")


def changed_words(frozen: Selection | None, now: Selection | None) -> str | None:
    """Why the selection drifted since submit, or None when it did not."""
    if frozen is None or frozen == now:
        return None
    shown = now.words() if now is not None else "nothing"
    return f"the selection changed since submit: {frozen.words()} then, {shown} now"
