"""Plain facts about the target for the design request, so the model cannot miss them."""

from __future__ import annotations

from typing import Any


def target_state_note(observation: Any, part_name: str) -> str:
    """A line saying whether the target part exists and what it holds.

    A second "build a plate" on a part that now has nodes must not be answered with "build the
    new part": the model is told the part exists, and that building again needs an edit or a
    new part name.
    """
    readback = observation.readback
    if not readback.part_exists:
        return f"Target state: part {part_name!r} does not exist yet (it will be created)."
    if observation.target_is_empty:
        return f"Target state: part {part_name!r} exists but has no nodes and no elements."
    return (f"Target state: part {part_name!r} ALREADY EXISTS with {readback.node_count} nodes "
            f"and {readback.element_count} elements; it is not a new part. Building it again "
            "is not possible: propose an edit of the existing part, or say that a new part "
            "name is needed.")
