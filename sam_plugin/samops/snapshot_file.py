"""A snapshot on disk (``snapshot.npz`` in a run directory), for undoing a verified run.

What is kept is a ``snapshot_delta.PartDelta``: the entities the run touched as they were
(docs/architecture.md §5), as flat numpy columns, and everything else as one JSON document
in the same archive. A file is plain data only: it is read without pickle, its member sizes
are checked against limits before anything is decompressed (``Limits``, from the run's
recorded counts), and anything else than what ``save`` writes is refused with a
``ValueError`` in one line. Binding a file to its run (the HMAC seal) is the runtime's
(``runtime/store/snapshot_seal.py``).
"""

from __future__ import annotations

import io
import json
import os
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from sam_plugin.samops.covered import Covered, covering_module
from sam_plugin.samops.mesh_read import HostRead, PartMesh
from sam_plugin.samops.snapshot import Definitions, Snapshot
from sam_plugin.samops.snapshot_delta import NodeColumns, PartDelta, delta_of, expand

FORMAT = "sam-agent-snapshot/2"
_COLUMNS = {  # name -> (dtype, columns per row)
    "moved_positions": ("<i8", 1), "moved_labels": ("<i8", 1), "moved_points": ("<f8", 3),
    "node_tail_labels": ("<i8", 1), "node_tail_points": ("<f8", 3),
    "repointed_positions": ("<i8", 1), "repointed_labels": ("<i8", 1),
    "repointed_lengths": ("<i8", 1),
    "repointed_flat": ("<i8", 1),
    "element_tail_labels": ("<i8", 1), "element_tail_codes": ("|u1", 1),
    "element_tail_lengths": ("<i8", 1), "element_tail_flat": ("<i8", 1),
}
_MAX_NODES_PER_ELEMENT = 4


@dataclass(frozen=True)
class Limits:
    """The most a snapshot of a run may hold: the run's recorded counts before it."""

    nodes: int
    elements: int
    meta_bytes: int

    @classmethod
    def of_counts(cls, nodes: int, elements: int, meta_bytes: int) -> Limits:
        return cls(max(0, nodes), max(0, elements), max(0, meta_bytes))

    def member(self, name: str) -> int:
        """Bytes the member ``name`` may hold (its .npy header included)."""
        header = 256
        if name == "meta":
            return self.meta_bytes + header
        dtype, width = _COLUMNS[name]
        rows = self.nodes if name.startswith(("moved", "node")) else self.elements
        if name.endswith("_flat"):
            rows *= _MAX_NODES_PER_ELEMENT
        return header + rows * width * np.dtype(dtype).itemsize


def save(snapshot: Snapshot, path: Path, model: Any = None, live: HostRead | None = None,
         live_mesh: PartMesh | None = None) -> int:
    """Write what undo needs of ``snapshot``: what differs from the live ``model`` (all of it
    without a model; ``live``: the part's nodes and elements as just read, ``live_mesh`` that
    read's arrays, see ``snapshot_delta.delta_of``). Complete or absent; returns the bytes
    written."""
    delta = delta_of(snapshot, model, live, live_mesh) if model is not None else \
        delta_of(snapshot, _NoModel())
    return save_delta(delta, Path(path))


class _NoModel:
    """A model without the part: the delta then holds the whole saved part."""

    class _Parts:
        @staticmethod
        def keys() -> list[str]:
            return []

    parts = _Parts()


def save_delta(delta: PartDelta, path: Path) -> int:
    shape_names = sorted({shape for _, shape, _ in delta.element_tail})
    code = {name: i for i, name in enumerate(shape_names)}
    arrays = {
        "moved_positions": delta.moved.positions.astype("<i8"),
        "moved_labels": delta.moved.labels.astype("<i8"),
        "moved_points": delta.moved.points.astype("<f8").reshape(-1, 3),
        "node_tail_labels": delta.node_tail.labels.astype("<i8"),
        "node_tail_points": delta.node_tail.points.astype("<f8").reshape(-1, 3),
        "repointed_positions": np.array([p for p, _, _ in delta.repointed], dtype="<i8"),
        "repointed_labels": np.array([k for _, k, _ in delta.repointed], dtype="<i8"),
        "repointed_lengths": np.array([len(r) for _, _, r in delta.repointed], dtype="<i8"),
        "repointed_flat": np.array([k for _, _, r in delta.repointed for k in r],
                                   dtype="<i8"),
        "element_tail_labels": np.array([k for k, _, _ in delta.element_tail], dtype="<i8"),
        "element_tail_codes": np.array([code[s] for _, s, _ in delta.element_tail],
                                       dtype="|u1"),
        "element_tail_lengths": np.array([len(r) for _, _, r in delta.element_tail],
                                         dtype="<i8"),
        "element_tail_flat": np.array([k for _, _, r in delta.element_tail for k in r],
                                      dtype="<i8"),
    }
    meta = {
        "format": FORMAT, "part_name": delta.part_name, "part_existed": delta.part_existed,
        "definitions": _definitions_doc(delta.definitions),
        "node_count": delta.node_count, "node_prefix": delta.node_prefix,
        "element_count": delta.element_count, "element_prefix": delta.element_prefix,
        "shape_names": shape_names,
        "set_names": delta.set_names, "sets_changed": delta.sets_changed,
        "assignments_prefix": delta.assignments_prefix,
        "assignments_tail": delta.assignments_tail,
        "orientations_prefix": delta.orientations_prefix,
        "orientations_tail": delta.orientations_tail,
    }
    if delta.covered:  # absent when no domain adds a repository: files as before
        meta["covered"] = delta.covered
    arrays["meta"] = np.frombuffer(json.dumps(meta).encode("utf-8"), dtype=np.uint8)
    temporary = path.with_name(path.name + ".tmp")
    # 0600 from creation: a snapshot holds the analyst's part (docs/architecture.md §7)
    handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(handle, "wb") as stream:
        # stored, not deflated: zlib measured slower than the whole delta on a big translate
        np.savez(stream, **arrays)  # type: ignore[arg-type]  # named arrays
    os.replace(temporary, path)
    return path.stat().st_size


def member_sizes(path: Path) -> dict[str, int]:
    """Each member's bytes as the archive's directory states them (nothing decompressed)."""
    with zipfile.ZipFile(path) as archive:
        return {info.filename.removesuffix(".npy"): info.file_size
                for info in archive.infolist()}


def load(path: Path, model: Any = None, limits: Limits | None = None) -> Snapshot:
    """The snapshot a file keeps, rebuilt on the live ``model`` (ValueError, one line, for
    anything else: a foreign or damaged file, or one larger than ``limits`` allow)."""
    delta = load_delta(Path(path), limits)
    if model is None:
        if delta.node_prefix or delta.element_prefix:
            raise ValueError(f"snapshot {path}: it keeps only what the run changed; the live "
                             "part is needed to rebuild it")
        model = _NoModel()
    return expand(delta, model)


def load_delta(path: Path, limits: Limits | None = None) -> PartDelta:
    try:
        data = path.read_bytes()
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            infos = {info.filename.removesuffix(".npy"): info for info in archive.infolist()}
            _check_members(path, infos, limits)
            columns = {name: _array(archive, info) for name, info in infos.items()}
        meta = json.loads(columns.pop("meta").tobytes().decode("utf-8"))
        return _delta(meta, columns)
    except ValueError as error:
        raise ValueError(f"snapshot {path}: {_one_line(error)}") from None
    except (OSError, KeyError, TypeError, IndexError, zipfile.BadZipFile, UnicodeError,
            EOFError) as error:
        raise ValueError(f"snapshot {path}: cannot be read ({type(error).__name__}: "
                         f"{_one_line(error)})") from None


def _check_members(path: Path, infos: dict[str, zipfile.ZipInfo], limits: Limits | None) -> None:
    expected = {*_COLUMNS, "meta"}
    if set(infos) != expected:
        missing = sorted(expected - set(infos))
        extra = sorted(set(infos) - expected)
        raise ValueError("not a " + FORMAT + " file" + (f" (missing {', '.join(missing)})"
                         if missing else "") + (f" (unknown {', '.join(extra)})" if extra else ""))
    if limits is None:
        return
    for name, info in infos.items():
        if info.file_size > limits.member(name):
            raise ValueError(f"{name} holds {info.file_size} bytes, more than the run's "
                             f"recorded counts allow ({limits.member(name)})")


def _array(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> np.ndarray:
    with archive.open(info) as stream:
        array = np.lib.format.read_array(stream, allow_pickle=False)
    name = info.filename.removesuffix(".npy")
    if name == "meta":
        if array.dtype != np.uint8 or array.ndim != 1:
            raise ValueError("meta is not a byte column")
        return array
    dtype, width = _COLUMNS[name]
    if array.dtype != np.dtype(dtype) or (array.ndim != (1 if width == 1 else 2)) or (
            width > 1 and array.shape[1] != width):
        raise ValueError(f"{name} is not a {dtype} column of {width}")
    return array


def _delta(meta: Any, columns: dict[str, np.ndarray]) -> PartDelta:
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise ValueError(f"not a {FORMAT} file")
    counts = {k: _count(meta, k) for k in ("node_count", "node_prefix", "element_count",
                                          "element_prefix", "assignments_prefix",
                                          "orientations_prefix")}
    shapes = [str(s) for s in meta["shape_names"]]
    moved = columns["moved_positions"]
    tail_labels = columns["node_tail_labels"]
    if len(moved) != len(columns["moved_points"]) or len(moved) != len(
            columns["moved_labels"]) or len(tail_labels) != len(columns["node_tail_points"]):
        raise ValueError("node columns of different lengths")
    if bool(((moved < 0) | (moved >= counts["node_prefix"])).any()) or \
            counts["node_prefix"] + len(tail_labels) != counts["node_count"]:
        raise ValueError("node positions outside the part")
    return PartDelta(
        part_name=str(meta["part_name"]), part_existed=bool(meta["part_existed"]),
        definitions=_definitions(meta["definitions"]),
        node_count=counts["node_count"], node_prefix=counts["node_prefix"],
        moved=NodeColumns(moved, columns["moved_labels"], columns["moved_points"]),
        node_tail=NodeColumns(labels=tail_labels, points=columns["node_tail_points"]),
        element_count=counts["element_count"], element_prefix=counts["element_prefix"],
        repointed=_labelled(_rows(columns["repointed_positions"], columns["repointed_lengths"],
                                  columns["repointed_flat"], counts["element_prefix"]),
                            columns["repointed_labels"]),
        element_tail=[(label, shapes[code], row) for (label, row), code in zip(
            _rows(columns["element_tail_labels"], columns["element_tail_lengths"],
                  columns["element_tail_flat"], None),
            columns["element_tail_codes"].tolist(), strict=True)],
        set_names=[str(n) for n in meta["set_names"]],
        sets_changed=[(str(n), [int(k) for k in nodes], [int(k) for k in elements])
                      for n, nodes, elements in meta["sets_changed"]],
        assignments_prefix=counts["assignments_prefix"],
        assignments_tail=[(str(section), _region(region))
                          for section, region in meta["assignments_tail"]],
        orientations_prefix=counts["orientations_prefix"],
        orientations_tail=[(str(method), _vector(n1), _region(region))
                           for method, n1, region in meta["orientations_tail"]],
        covered=_covered(meta.get("covered", {})),
    )


def _count(meta: dict[str, Any], key: str) -> int:
    value = meta.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"meta {key} is not a count")
    return value


def _rows(keys: np.ndarray, lengths: np.ndarray, flat: np.ndarray,
          bound: int | None) -> list[Any]:
    if len(keys) != len(lengths) or int(lengths.sum()) != len(flat) or (lengths < 0).any() or (
            lengths > _MAX_NODES_PER_ELEMENT).any():
        raise ValueError("element columns do not fit together")
    if bound is not None and ((keys < 0).any() or (keys >= bound).any()):
        raise ValueError("element positions outside the part")
    ends = np.cumsum(lengths).tolist()
    values = flat.tolist()
    starts = [0, *ends[:-1]] if ends else []
    return [(k, tuple(values[a:b])) for k, a, b in zip(keys.tolist(), starts, ends, strict=True)]


def _labelled(rows: list[Any], labels: np.ndarray) -> list[Any]:
    if len(rows) != len(labels):
        raise ValueError("element columns of different lengths")
    return [(position, label, row) for (position, row), label in zip(rows, labels.tolist(),
                                                                     strict=True)]


def _region(region: Any) -> tuple[str, Any]:
    kind, value = region
    if kind == "set":
        return ("set", str(value))
    if kind == "elements":
        return ("elements", [int(k) for k in value])
    raise ValueError(f"region kind {kind!r}")


def _vector(value: Any) -> tuple[float, float, float]:
    x, y, z = value
    return (float(x), float(y), float(z))


def _covered(doc: Any) -> Covered:
    """The covered repositories a file keeps: each named by a samops module that covers one,
    its entries a list (what they hold is that module's to read)."""
    if not isinstance(doc, dict):
        raise ValueError("covered is not a mapping")
    for name, entries in doc.items():
        covering_module(name)
        if not isinstance(entries, list):
            raise ValueError(f"covered {name!r} is not a list")
    return doc


def _definitions_doc(definitions: Definitions | None) -> dict[str, Any] | None:
    if definitions is None:
        return None
    return {"materials": definitions.materials, "profiles": definitions.profiles,
            "sections": definitions.sections}


def _definitions(doc: dict[str, Any] | None) -> Definitions | None:
    if doc is None:
        return None
    return Definitions(
        materials=[(str(name), _table(elastic), _table(density))
                   for name, elastic, density in doc["materials"]],
        profiles=[(str(name), str(kind), tuple(float(v) for v in values))
                  for name, kind, values in doc["profiles"]],
        sections=[(str(name), str(kind), str(material), detail if isinstance(detail, str)
                   else float(detail)) for name, kind, material, detail in doc["sections"]],
    )


def _table(table: Any) -> Any:
    return None if table is None else tuple(tuple(float(v) for v in row) for row in table)


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split())[:300]
