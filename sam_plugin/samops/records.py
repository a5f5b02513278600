"""The words samops shares with the layers above it: shape names, nodes per shape, and the
plain record a readback returns.

A leaf: standard library only, so the host-side code needs nothing but what SAM ships, and
the compilers and the runtime may import it without samops importing them back. The runtime
turns a ``PartRecord`` into its pydantic ``Readback`` (``compilers.evidence``) at the host
gateway.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

ShapeName = Literal["QUAD", "TRI", "BEAM"]
SHAPES: tuple[ShapeName, ...] = ("QUAD", "TRI", "BEAM")
NODES_PER_SHAPE: dict[str, int] = {"QUAD": 4, "TRI": 3, "BEAM": 2}

Point = tuple[float, float, float]


def _no_shapes() -> dict[ShapeName, int]:
    return dict.fromkeys(SHAPES, 0)


@dataclass
class PartRecord:
    """What the live model says about a target part, read after (or before) a run."""

    part_exists: bool
    node_count: int = 0
    element_count: int = 0
    shape_counts: dict[ShapeName, int] = field(default_factory=_no_shapes)
    sets: list[str] = field(default_factory=list)
    bounding_box: tuple[Point, Point] | None = None
    fingerprint: str = ""  # the part fingerprint: every record (samops.fingerprint)
    geometry_fingerprint: str = ""  # its node and element records alone
    materials: list[str] = field(default_factory=list)
    sections: list[str] = field(default_factory=list)
    assigned_elements: int = 0
    oriented_beams: int = 0
    hanging_nodes: int | None = None  # read only when a prediction asks for it
    non_finite: list[str] = field(default_factory=list)  # entities with a NaN or infinity


def plain_exponent(words: str) -> str:
    """A written number with no leading zero or ``+`` in its exponent: ``7.85e-9``, not
    ``7.85e-09`` (llama.cpp's JSON number rule ends an exponent at its first ``0``, so a
    model copying ``e-09`` under a grammar writes ``e-0``)."""
    mantissa, e, exponent = words.partition("e")
    return f"{mantissa}e{int(exponent)}" if e else words
