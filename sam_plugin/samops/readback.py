"""Read the live target back: counts, shapes, sets, properties and a geometry fingerprint.

Used before a run (the exact starting point of every prediction), after it (the evidence the
verifier judges) and inside generated Property scripts (the geometry guard).
"""

from __future__ import annotations

import hashlib
from array import array
from typing import Any

from sam_plugin.compilers.evidence import SHAPES, Readback

_CHUNK = 20_000


def find_part(model: Any, part_name: str) -> Any | None:
    """The part called ``part_name`` in ``model``, or ``None`` when it does not exist."""
    if model is None or part_name not in model.parts.keys():
        return None
    return model.parts[part_name]


def geometry_fingerprint(part: Any) -> str:
    """A hash over node labels and coordinates and element labels, shapes and connectivity.

    One pass over each array. Values are packed into typed arrays and hashed as bytes: on a
    200,000-node part that measured 0.47 s against 1.20 s for hashing ``repr`` chunks.
    """
    if part is None:
        return "absent"
    digest = hashlib.blake2b(digest_size=16)
    labels = array("q")
    coordinates = array("d")
    for node in part.nodes:
        labels.append(node.label)
        coordinates.extend(node.coordinates)
        if len(labels) >= _CHUNK:
            _flush(digest, labels, coordinates)
    _flush(digest, labels, coordinates)
    digest.update(b"|elements|")
    shape_codes: dict[str, int] = {}
    rows = array("q")
    for element in part.elements:
        shape = str(element.type)
        code = shape_codes.setdefault(shape, len(shape_codes))
        connectivity = element.connectivity
        rows.extend((element.label, code, len(connectivity)))
        rows.extend(connectivity)
        if len(rows) >= _CHUNK:
            _flush(digest, rows)
    _flush(digest, rows)
    digest.update(repr(sorted(shape_codes.items(), key=lambda item: item[1])).encode())
    return f"{len(part.nodes)}n-{len(part.elements)}e-{digest.hexdigest()}"


def _flush(digest: Any, *buffers: array) -> None:
    for buffer in buffers:
        digest.update(buffer.tobytes())
        del buffer[:]


def read_part(model: Any, part_name: str, *, with_fingerprint: bool = True) -> Readback:
    """Everything the verifier compares, read from the host (never from a script's claims)."""
    part = find_part(model, part_name)
    materials = sorted(model.materials.keys()) if model is not None else []
    sections = sorted(model.sections.keys()) if model is not None else []
    if part is None:
        return Readback(
            part_exists=False,
            materials=materials,
            sections=sections,
            fingerprint=geometry_fingerprint(None),
        )
    shape_counts = dict.fromkeys(SHAPES, 0)
    beam_labels: set[int] = set()
    lo = [float("inf")] * 3
    hi = [float("-inf")] * 3
    for element in part.elements:
        shape = str(element.type)
        shape_counts[shape] = shape_counts.get(shape, 0) + 1
        if shape == "BEAM":
            beam_labels.add(element.label)
    for node in part.nodes:
        for axis, value in enumerate(node.coordinates):
            if value < lo[axis]:
                lo[axis] = value
            if value > hi[axis]:
                hi[axis] = value
    bbox = (tuple(lo), tuple(hi)) if len(part.nodes) else None
    return Readback(
        part_exists=True,
        node_count=len(part.nodes),
        element_count=len(part.elements),
        shape_counts=shape_counts,
        sets=sorted(part.sets.keys()),
        bounding_box=bbox,
        fingerprint=geometry_fingerprint(part) if with_fingerprint else "",
        materials=materials,
        sections=sections,
        assigned_elements=len(_assigned_labels(part)),
        oriented_beams=len(_oriented_labels(part) & beam_labels),
    )


def _region_element_labels(region: Any) -> set[int]:
    """Element labels of a region (a Set, or anything exposing ``elements``)."""
    elements = getattr(region, "elements", None)
    if elements is None:
        return set()
    return {e.label for e in elements}


def _assigned_labels(part: Any) -> set[int]:
    labels: set[int] = set()
    for assignment in part.sectionAssignments:
        labels |= _region_element_labels(assignment.region)
    return labels


def _oriented_labels(part: Any) -> set[int]:
    labels: set[int] = set()
    for orientation in part.beamOrientations:
        labels |= _region_element_labels(orientation.region)
    return labels
