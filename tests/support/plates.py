"""Unit-QUAD plates built through the offline SAM's host API (labels from 1 on each part)."""

from __future__ import annotations

from typing import Any


def quad_plate(model: Any, name: str, n: int, x0: float = 0.0) -> Any:
    """An n x n plate of unit QUADs from (x0, 0, 0), its labels row by row from 1."""
    from samConstants import QUAD

    part = model.Part(name=name)
    nodes = [part.Node(coordinates=(x0 + i, float(j), 0.0))
             for j in range(n + 1) for i in range(n + 1)]
    for j in range(n):
        for i in range(n):
            a = j * (n + 1) + i
            part.Element(nodes=(nodes[a], nodes[a + 1], nodes[a + n + 2], nodes[a + n + 1]),
                         elemShape=QUAD)
    return part


def plates(model: Any, sizes: dict[str, int], spacing: float = 10.0) -> None:
    """One ``quad_plate`` per name (its n), each ``spacing`` further along X."""
    for offset, (name, n) in enumerate(sizes.items()):
        quad_plate(model, name, n, x0=spacing * offset)
