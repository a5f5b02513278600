"""The part a plan predicts, scoped to what it touches (docs/architecture.md §5 "Plan").

A ``PredictedPart`` is a scope (``samops.part_scope.Scope``: the entities and names the calls
may change, and every new label), the records the calls leave inside it (``image``), and the
bucket digests of everything outside it as it was before the run (``rest``). The
after-fingerprint follows from the before read and the touched entities alone: the rest with
the buckets the scope or the image reach hashed again over their untouched records and the
image's (``samops.fingerprint``). Verification compares the touched entities exactly and the
rest through the fingerprint (``runtime/verify/part_comparison.py``).

Nothing here copies the part: the before records come from the observation's read (kept by
its fingerprint, ``samops.readback.recent_contents``), the touched ones from the shadow run.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from sam_plugin.samops import readback
from sam_plugin.samops.fingerprint import Digests, Fingerprint, Key
from sam_plugin.samops.mesh_read import column_box, mesh_of, run_start
from sam_plugin.samops.part_contents import PartContents, read_contents
from sam_plugin.samops.part_scope import Scope, among, unique

Vec3 = tuple[float, float, float]
Box = tuple[Vec3, Vec3]
# what an image may leave to other checks (then said in the comparison): the definitions it
# writes (read back by value), or the entities the host creates (counted by ranges)
DEFINITIONS = "definitions"
NEW_ENTITIES = "new entities"


@dataclass(eq=False)
class PredictedPart:
    """See the module doc. ``rest``: the bucket digests of the records outside the scope
    before the run (None: the whole part, known by its fingerprint ``before`` alone);
    ``outside``: the untouched records of the buckets the scope or the image reach (their
    after-digests are hashed from them and the image); ``base``: the before read itself (to
    name what differs); ``unpredicted``: what in scope the image leaves to other checks."""

    scope: Scope
    image: PartContents
    rest: Digests | None
    before: Fingerprint
    base: PartContents | None = None
    box: Box | None = None
    unpredicted: frozenset[str] = frozenset()
    notes: list[str] = field(default_factory=list)
    outside: PartContents | None = None
    touched: dict[str, set[Key]] = field(default_factory=dict)

    @property
    def after(self) -> Fingerprint | None:
        """The predicted after-fingerprint, when the image predicts everything in scope."""
        if self.unpredicted:
            return None
        if self.rest is None:
            empty = not (self.image.mesh.node_count or self.image.mesh.element_count)
            return self.before if empty else None
        return self._after

    @cached_property
    def _after(self) -> Fingerprint:
        assert self.rest is not None and self.outside is not None
        fresh = self.outside.joined(self.image)
        image = self.image.mesh
        return self.rest.replaced(
            {kind: (keys, fresh.buckets(kind)) for kind, keys in self.touched.items()},
            self.rest.nodes + image.node_count,
            self.rest.elements + image.element_count).fingerprint()

    def bounding_box(self) -> Box | None:
        return self.box

    def size(self) -> float:
        """The part's size after the run: the largest extent of its bounding box."""
        if self.box is None:
            return 0.0
        low, high = self.box
        return max(h - lo for lo, h in zip(low, high, strict=True))


def sorted_labels(labels: np.ndarray) -> np.ndarray:
    """``labels`` sorted and unique (an ascending run as it is, without a sort)."""
    if run_start(labels) is not None:
        return labels
    return unique(labels)


def before_contents(model: Any, part: Any, fingerprint: str = "") -> PartContents:
    """The part as observed: the read kept by its fingerprint, else read now."""
    kept = readback.recent_contents(fingerprint) if fingerprint else None
    return kept if kept is not None else read_contents(model, part)


def unchanged(before: PartContents | None, before_fingerprint: str) -> PredictedPart | None:
    """A run that touches nothing: the whole part is the rest, unchanged."""
    if before is None:
        whole = Fingerprint.parse(before_fingerprint)
        if whole is None:
            return None
        empty = np.zeros(0, dtype=np.int64)
        return PredictedPart(scope=Scope(prior_nodes=empty, prior_elements=empty),
                             image=PartContents(mesh=mesh_of((), ())), rest=None, before=whole)
    scope = Scope(prior_nodes=sorted_labels(before.mesh.node_labels),
                  prior_elements=sorted_labels(before.mesh.element_labels))
    return scoped(before, scope, PartContents(mesh=mesh_of((), ())))


def scoped(before: PartContents, scope: Scope, image: PartContents,
           unpredicted: Iterable[str] = ()) -> PredictedPart:
    """A prediction of ``image`` inside ``scope``; the rest from the before read."""
    rest = scope.rest(before, also=image.bucket_keys())
    return PredictedPart(scope=scope, image=image, rest=rest.digests, before=before.digest(),
                         base=before, box=_box_after(before, scope, image),
                         unpredicted=frozenset(unpredicted), outside=rest.outside,
                         touched=rest.touched)


def _box_after(before: PartContents, scope: Scope, image: PartContents) -> Box | None:
    """The untouched nodes' box joined with the predicted touched and new nodes. The untouched
    box is the whole box unless touched nodes held all of one of its faces."""
    mesh = before.mesh
    whole = mesh.bounds
    kept = whole
    if whole is not None and len(scope.nodes):
        touched = among(mesh.node_labels, scope.nodes)
        if touched.any():
            kept = _untouched_box(mesh.coordinates, touched, whole)
    boxes = [kept] if kept is not None else []
    if image.mesh.node_count:
        boxes.append(column_box(image.mesh.coordinates))
    if not boxes:
        return None
    low = tuple(min(b[0][axis] for b in boxes) for axis in range(3))
    high = tuple(max(b[1][axis] for b in boxes) for axis in range(3))
    return (low[0], low[1], low[2]), (high[0], high[1], high[2])


def _untouched_box(xyz: np.ndarray, touched: np.ndarray, whole: Box) -> Box | None:
    """A face of the whole box stays while any untouched node lies on it."""
    rest = ~touched
    if not rest.any():
        return None
    low, high = list(whole[0]), list(whole[1])
    for axis in range(3):
        column = xyz[:, axis]
        if not (column[rest] == low[axis]).any():
            low[axis] = float(column[rest].min())
        if not (column[rest] == high[axis]).any():
            high[axis] = float(column[rest].max())
    return (low[0], low[1], low[2]), (high[0], high[1], high[2])
