"""A snapshot on disk (``snapshot.npz`` in a run directory), for undoing a verified run.

Plain data only: the mesh as flat numpy columns, everything else as one JSON document in
the same archive. Loaded without pickle; shape names map back to the host's constants.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np

from sam_plugin.samops.snapshot import Definitions, PartState, Snapshot

FORMAT = "sam-agent-snapshot/1"


def save(snapshot: Snapshot, path: Path) -> int:
    """Write ``snapshot`` to ``path`` (complete or absent); returns the bytes written."""
    if not snapshot.usable:
        raise ValueError("an unusable snapshot (the host lacks " + ", ".join(snapshot.missing)
                         + ") cannot be kept")
    path = Path(path)
    meta: dict[str, Any] = {"format": FORMAT, "part_name": snapshot.part_name,
                            "part_exists": snapshot.part is not None,
                            "definitions": _definitions_doc(snapshot.definitions)}
    arrays: dict[str, np.ndarray] = {}
    state = snapshot.part
    if state is not None:
        names = sorted({str(t) for t in state.element_types})
        code = {name: i for i, name in enumerate(names)}
        lengths = np.fromiter(map(len, state.connectivity), dtype=np.int64,
                              count=len(state.connectivity))
        arrays = {
            "node_labels": np.asarray(state.node_labels, dtype=np.int64),
            "coordinates": np.asarray(state.coordinates, dtype=np.float64).reshape(-1, 3),
            "element_labels": np.asarray(state.element_labels, dtype=np.int64),
            "element_codes": np.fromiter((code[str(t)] for t in state.element_types),
                                         dtype=np.uint8, count=len(state.element_types)),
            "element_lengths": lengths,
            "connectivity": np.fromiter((label for row in state.connectivity for label in row),
                                        dtype=np.int64, count=int(lengths.sum())),
        }
        meta.update(shape_names=names, sets=state.sets, assignments=state.assignments,
                    orientations=state.orientations)
    arrays["meta"] = np.frombuffer(json.dumps(meta).encode("utf-8"), dtype=np.uint8)
    temporary = path.with_name(path.name + ".tmp")
    with open(temporary, "wb") as stream:
        np.savez(stream, **arrays)  # type: ignore[arg-type]  # named arrays, not allow_pickle
    os.replace(temporary, path)
    return path.stat().st_size


def load(path: Path) -> Snapshot:
    """The snapshot written by ``save``; a foreign or damaged file raises ValueError."""
    import samConstants

    try:
        with np.load(Path(path), allow_pickle=False) as archive:
            columns = {name: archive[name] for name in archive.files}
    except (OSError, ValueError, KeyError) as error:
        raise ValueError(f"snapshot {path}: cannot be read ({error})") from None
    meta = json.loads(columns["meta"].tobytes().decode("utf-8"))
    if meta.get("format") != FORMAT:
        raise ValueError(f"snapshot {path}: not a {FORMAT} file")
    definitions = _definitions(meta["definitions"])
    if not meta["part_exists"]:
        return Snapshot(part_name=meta["part_name"], part=None, definitions=definitions)
    shapes = [getattr(samConstants, name) for name in meta["shape_names"]]
    lengths = columns["element_lengths"]
    flat = columns["connectivity"].tolist()
    if len(lengths) and (lengths == lengths[0]).all():
        column = iter(flat)
        connectivity = list(zip(*([column] * int(lengths[0])), strict=False))
    else:
        ends = np.cumsum(lengths).tolist()
        starts = [0, *ends[:-1]]
        connectivity = [tuple(flat[a:b]) for a, b in zip(starts, ends, strict=True)]
    state = PartState(
        node_labels=columns["node_labels"].tolist(),
        coordinates=list(map(tuple, columns["coordinates"].tolist())),
        element_labels=columns["element_labels"].tolist(),
        element_types=[shapes[c] for c in columns["element_codes"].tolist()],
        connectivity=connectivity,
        sets=[(name, nodes, elements) for name, nodes, elements in meta["sets"]],
        assignments=[(section, _region(region)) for section, region in meta["assignments"]],
        orientations=[(method, tuple(n1), _region(region))
                      for method, n1, region in meta["orientations"]],
    )
    return Snapshot(part_name=meta["part_name"], part=state, definitions=definitions)


def _region(region: list[Any]) -> tuple[str, Any]:
    return (region[0], region[1])


def _definitions_doc(definitions: Definitions | None) -> dict[str, Any] | None:
    if definitions is None:
        return None
    return {"materials": definitions.materials, "profiles": definitions.profiles,
            "sections": definitions.sections}


def _definitions(doc: dict[str, Any] | None) -> Definitions | None:
    if doc is None:
        return None
    return Definitions(
        materials=[(name, _rows(elastic), _rows(density))
                   for name, elastic, density in doc["materials"]],
        profiles=[(name, kind, tuple(values)) for name, kind, values in doc["profiles"]],
        sections=[(name, kind, material, detail) for name, kind, material, detail
                  in doc["sections"]],
    )


def _rows(table: Any) -> Any:
    return None if table is None else tuple(tuple(row) for row in table)
