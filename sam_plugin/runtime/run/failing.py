"""A step of a design asked again before Review (docs/architecture.md §4 "One repair before
Review"): which, why in its words, and what its answer is held to."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FailingStep:
    """The first step that does not compute or compile: its 0-based ``index``, the
    diagnostic in its words, the earlier step its remedy makes it one with (``joins``,
    0-based: "refining them twice is one step"), if any, and what its remedy has it state
    (``needs``), which the step asked again is held to."""

    index: int
    reason: str
    joins: int | None = None
    needs: tuple[str, ...] = ()  # what the answer must state (``scope``)

    @property
    def other_action(self) -> bool:
        """Whether its remedy is a step of another action (a report alone, or an action
        the request's words name): the design asked in parts planned its action already."""
        return any(n in ("read_only", "changing") or n.startswith("action=")
                   for n in self.needs)
