"""Read the live target back: counts, shapes, sets, properties and the part fingerprint.

Used before a run (the exact starting point of every prediction), after it (the evidence the
verifier judges) and inside generated Property scripts (the geometry guard).

Speed: the part is read once (``part_contents.read_contents``: the mesh into flat numpy
arrays, ``mesh_read``, then sets, assignments, orientations and definitions); the
fingerprint (``samops.fingerprint``), the L1 numbers and the L2 region index
(``runtime/observe/regions.py``) all work on that read, and the verifier compares the live part
with the plan on it. The read is kept by its fingerprint (``recent_contents``): the same
fingerprint means the same records, so a later reader of the same part skips the read.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from typing import Any

import numpy as np

from sam_plugin.errors import NonFiniteValue
from sam_plugin.samops.mesh_read import PartMesh, mesh_of, read_mesh, read_nodes, run_start
from sam_plugin.samops.part_contents import PartContents, read_contents
from sam_plugin.samops.part_scope import among, unique
from sam_plugin.samops.records import SHAPES, PartRecord, Point, ShapeName

__all__ = ["PartMesh", "find_part", "geometry_fingerprint", "mesh_of", "read_mesh",
           "read_nodes", "read_part", "recent_contents", "recent_mesh", "remember_mesh",
           "run_start"]

_RECENT_SIZE = 3

# -- the last reads, by fingerprint ---------------------------------------------------------

_RECENT: OrderedDict[str, PartMesh | PartContents] = OrderedDict()
_RECENT_LOCK = threading.Lock()


def remember_mesh(fingerprint: str, read: PartMesh | PartContents) -> None:
    """Keep ``read`` for a later ``recent_mesh`` / ``recent_contents(fingerprint)`` (the last
    few only). ``fingerprint`` must be derived from this read: the same fingerprint then means
    the same part, so a later reader of the same part can skip the read."""
    with _RECENT_LOCK:
        _RECENT[fingerprint] = read
        _RECENT.move_to_end(fingerprint)
        while len(_RECENT) > _RECENT_SIZE:
            _RECENT.popitem(last=False)


def recent_mesh(fingerprint: str) -> PartMesh | None:
    with _RECENT_LOCK:
        read = _RECENT.get(fingerprint)
    return read.mesh if isinstance(read, PartContents) else read


def recent_contents(fingerprint: str) -> PartContents | None:
    with _RECENT_LOCK:
        read = _RECENT.get(fingerprint)
    return read if isinstance(read, PartContents) else None


# -- the readback ---------------------------------------------------------------------------


def find_part(model: Any, part_name: str) -> Any | None:
    """The part called ``part_name`` in ``model``, or ``None`` when it does not exist."""
    if model is None or part_name not in model.parts.keys():
        return None
    return model.parts[part_name]


def absent_fingerprint(model: Any) -> str:
    """``absent-<32 hex>`` for a part that does not exist: the model's definitions are all
    there is to see (a material changed meanwhile is drift too)."""
    from sam_plugin.samops.mesh_read import mesh_of
    from sam_plugin.samops.part_contents import read_definitions

    digest = PartContents(mesh=mesh_of((), ()), definitions=read_definitions(model)).digest()
    return f"absent-{digest.hex}"


def geometry_fingerprint(part: Any) -> str:
    """The fingerprint of the node and element records alone (``samops.fingerprint``):
    ``"{n}n-{m}e-{hex}"``, or ``"absent"`` when there is no part. Any change of a label, a
    coordinate bit, a shape or a connectivity entry changes it; the host's order does not."""
    if part is None:
        return "absent"
    return read_mesh(part).fingerprint()


def read_part(
    model: Any, part_name: str, *, with_fingerprint: bool = True, hanging_nodes: bool = False
) -> PartRecord:
    """Everything the verifier compares, read from the host (never from a script's claims).

    ``fingerprint`` is the part fingerprint (every record: ``samops.fingerprint``); the read
    is kept by it (``recent_contents``), so that the verifier compares the live part on this
    very read. Hashing costs a few percent of the read, so it is always done now;
    ``with_fingerprint`` is kept for callers written when it was not.
    """
    part = find_part(model, part_name)
    materials = sorted(model.materials.keys()) if model is not None else []
    sections = sorted(model.sections.keys()) if model is not None else []
    if part is None:
        return PartRecord(part_exists=False, materials=materials, sections=sections,
                          fingerprint=absent_fingerprint(model), geometry_fingerprint="absent")
    contents = read_contents(model, part)
    try:
        fingerprint = str(contents.digest())
    except NonFiniteValue as refused:
        text = non_finite_fingerprint(contents)
        return record_of(contents, materials, sections, text, geometry=text,
                         non_finite=refused.entities)
    remember_mesh(fingerprint, contents)
    return record_of(contents, materials, sections, fingerprint,
                     _hanging_node_count(part) if hanging_nodes else None)


def non_finite_fingerprint(contents: PartContents) -> str:
    """What stands for the fingerprint of a read with a NaN or infinite value (refused by
    the fingerprint): ``"{n}n-{m}e-non-finite-{32 hex}"`` over the read's raw bytes, so that
    any change still shows (drift, a restore's proof), yet it equals no fingerprint."""
    mesh = contents.mesh
    h = hashlib.sha256(b"non-finite read\x00")
    for array in (mesh.node_labels, mesh.coordinates, mesh.element_labels, mesh.shape_codes,
                  mesh.offsets, mesh.connectivity):
        h.update(np.ascontiguousarray(array).tobytes())
    h.update(repr((mesh.shape_names, contents.set_names, contents.definitions)).encode())
    for records in (contents.set_nodes, contents.set_elements, contents.assignments,
                    contents.orientations):
        h.update(repr(records.keys).encode())
        h.update(records.owner.tobytes() + records.labels.tobytes())
    return f"{mesh.node_count}n-{mesh.element_count}e-non-finite-{h.hexdigest()[:32]}"


def record_of(contents: PartContents, materials: list[str], sections: list[str],
              fingerprint: str, hanging_nodes: int | None = None,
              geometry: str = "", non_finite: list[str] | None = None) -> PartRecord:
    """The plain readback record of one read."""
    mesh = contents.mesh
    counts = np.bincount(mesh.shape_codes, minlength=len(mesh.shape_names))
    found = dict(zip(mesh.shape_names, map(int, counts), strict=True))
    shape_counts: dict[ShapeName, int] = {shape: found.get(shape, 0) for shape in SHAPES}
    bbox: tuple[Point, Point] | None = mesh.bounds
    return PartRecord(
        part_exists=True,
        node_count=mesh.node_count,
        element_count=mesh.element_count,
        shape_counts=shape_counts,
        sets=sorted(contents.set_names),
        bounding_box=bbox,
        fingerprint=fingerprint,
        geometry_fingerprint=geometry or read_geometry(contents),
        materials=materials,
        sections=sections,
        assigned_elements=distinct_count(contents.assignments.labels),
        oriented_beams=_oriented_beams(contents),
        hanging_nodes=hanging_nodes,
        non_finite=non_finite or [],
    )


def distinct_count(labels: np.ndarray) -> int:
    """How many different labels (a sort: numpy's hashed ``unique`` measured 20x slower)."""
    if not len(labels):
        return 0
    ordered = np.sort(labels)
    return int(np.count_nonzero(ordered[1:] != ordered[:-1])) + 1


def read_geometry(contents: PartContents) -> str:
    return contents.mesh.fingerprint()


def _hanging_node_count(part: Any) -> int:
    """Nodes lying inside another element's edge (what a partial refinement leaves)."""
    from sam_plugin.samops import mesh_audit, mesh_ops

    return len(mesh_audit.hanging_nodes(mesh_ops.read_mesh_data(part)))


def _oriented_beams(contents: PartContents) -> int:
    mesh = contents.mesh
    oriented = contents.orientations.labels
    if not len(oriented) or "BEAM" not in mesh.shape_names:
        return 0
    beams = mesh.element_labels[mesh.shape_codes == mesh.shape_names.index("BEAM")]
    return int(among(beams, unique(oriented)).sum())
