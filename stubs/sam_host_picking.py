"""Picking in the offline viewport: a click selects the element (or node) under the cursor,
Ctrl+click adds or removes one, Ctrl+drag selects every one inside the box (an element when
all its nodes are inside), a click on empty space clears. What is picked is drawn outlined in
violet; the host window hands it to plugins (``SamHost.selection``).

The pick index (node labels, element labels and their node indices as numpy arrays) comes
from the geometry's one read of the part, once per geometry: a click on a 188k-element part
projects with numpy, never with a Python loop over the mesh.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from sam_host_mesh import MeshGeometry, rotation

PickKind = Literal["elements", "nodes"]
SELECTION_COLOUR = QColor("#8250df")
CLICK_SLOP_PX = 4.0  # a press and release closer than this is a click, not a drag
NODE_PICK_PX = 8.0
DRAWN_SELECTION_LIMIT = 20_000


@dataclass
class PickIndex:
    """Labels and node indices of one geometry, in the geometry's node order."""

    node_labels: np.ndarray
    element_labels: np.ndarray
    element_nodes: np.ndarray  # (elements, 4) node indices; shorter ones repeat their last

    @classmethod
    def of(cls, geometry: MeshGeometry) -> PickIndex:
        """From what ``read_geometry`` read in its one pass (no second walk of the part)."""
        return cls(np.asarray(geometry.node_labels, dtype=np.int64),
                   np.asarray(geometry.element_labels, dtype=np.int64),
                   np.asarray(geometry.element_ids, dtype=np.int64).reshape(-1, 4))


class ViewportPicking:
    """Mixed into ``MeshViewport``: needs ``geometry_data``, ``yaw``, ``pitch``,
    ``_screen_transform()``, ``update()`` and a ``selectionChanged`` signal."""

    geometry_data: MeshGeometry
    yaw: float
    pitch: float
    selectionChanged: Any  # noqa: N815 (the widget's Qt signal)

    def _init_picking(self) -> None:
        self.pick_kind: PickKind = "elements"
        self.selected: list[int] = []
        self._pick_part: Any = None
        self._pick_index: PickIndex | None = None
        self._pick_key: int | None = None
        self._box: QRectF | None = None
        self._selection_lines: tuple[tuple[Any, ...], list[QPointF], list[QPointF]] | None = None

    # ------------------------------------------------------------- state
    def set_pick_kind(self, kind: PickKind) -> None:
        """Pick elements or nodes from now on; what was picked of the other kind is cleared."""
        if kind != self.pick_kind:
            self.pick_kind = kind
            self.set_selection([])

    def set_selection(self, labels: list[int], kind: PickKind | None = None) -> None:
        """Select these labels of the displayed part (``[]`` clears); signals a change."""
        if kind is not None:
            self.pick_kind = kind
        wanted = sorted(set(int(label) for label in labels))
        if wanted == self.selected:
            return
        self.selected = wanted
        self._selection_lines = None
        self.update()  # type: ignore[attr-defined]
        self.selectionChanged.emit()

    def _keep_selection_of(self, part: Any) -> None:
        """A new picture of ``part``: another part clears the selection; the same part keeps
        the labels it still has (a run may have deleted some)."""
        self._pick_index, self._pick_key, self._selection_lines = None, None, None
        if part is not self._pick_part:
            self._pick_part = part
            self.set_selection([])
        elif self.selected:
            index = self._index()
            labels = index.node_labels if self.pick_kind == "nodes" else index.element_labels
            kept = np.asarray(self.selected, dtype=np.int64)
            self.set_selection(kept[np.isin(kept, labels)].tolist())

    # ----------------------------------------------------------- geometry
    def _index(self) -> PickIndex:
        key = id(self.geometry_data)
        if self._pick_index is None or self._pick_key != key:
            self._pick_index = PickIndex.of(self.geometry_data)
            self._pick_key = key
        return self._pick_index

    def _screen_points(self) -> tuple[np.ndarray, np.ndarray]:
        """Every node's position in widget pixels at the current view."""
        geometry = self.geometry_data
        if geometry.is_empty:
            return np.zeros(0), np.zeros(0)
        (cx, cy, cz), _ = geometry.center_and_radius()
        (a0, a1, a2), (b0, b1, b2), _ = rotation(self.yaw, self.pitch)
        xs = np.asarray(geometry.xs) - cx
        ys = np.asarray(geometry.ys) - cy
        zs = np.asarray(geometry.zs) - cz
        ox, oy, sx, sy = self._to_screen()  # type: ignore[attr-defined]
        return ox + sx * (a0 * xs + a1 * ys + a2 * zs), oy + sy * (b0 * xs + b1 * ys + b2 * zs)

    def pick_at(self, point: QPointF) -> int | None:
        """The label of the entity under ``point`` (widget pixels), or None."""
        if self.geometry_data.is_empty:
            return None
        index = self._index()
        px, py = self._screen_points()
        if self.pick_kind == "nodes":
            if len(index.node_labels) == 0:
                return None
            distance = np.hypot(px - point.x(), py - point.y())
            nearest = int(np.argmin(distance))
            return int(index.node_labels[nearest]) if distance[nearest] <= NODE_PICK_PX else None
        if len(index.element_labels) == 0:
            return None
        ex, ey = px[index.element_nodes], py[index.element_nodes]
        slop = CLICK_SLOP_PX
        inside = ((ex.min(axis=1) - slop <= point.x()) & (point.x() <= ex.max(axis=1) + slop)
                  & (ey.min(axis=1) - slop <= point.y()) & (point.y() <= ey.max(axis=1) + slop))
        hits = np.flatnonzero(inside)
        if len(hits) == 0:
            return None
        centre = np.hypot(ex[hits].mean(axis=1) - point.x(), ey[hits].mean(axis=1) - point.y())
        return int(index.element_labels[hits[int(np.argmin(centre))]])

    def pick_in_box(self, box: QRectF) -> list[int]:
        """Labels of the entities inside ``box`` (an element when all its nodes are)."""
        if self.geometry_data.is_empty:
            return []
        index = self._index()
        px, py = self._screen_points()
        within = ((box.left() <= px) & (px <= box.right()) & (box.top() <= py)
                  & (py <= box.bottom()))
        if self.pick_kind == "nodes":
            return [int(label) for label in index.node_labels[within]]
        if len(index.element_labels) == 0:
            return []
        return [int(label) for label in index.element_labels[within[index.element_nodes]
                                                                   .all(axis=1)]]

    # -------------------------------------------------------------- mouse
    def _pick_click(self, point: QPointF, toggle: bool) -> None:
        label = self.pick_at(point)
        if toggle:
            if label is None:
                return
            chosen = set(self.selected) ^ {label}
            self.set_selection(sorted(chosen))
        else:
            self.set_selection([] if label is None else [label])

    def _start_box(self, point: QPointF) -> None:
        self._box = QRectF(point, point)

    def _drag_box(self, point: QPointF) -> None:
        if self._box is not None:
            self._box = QRectF(self._box.topLeft(), point)
            self.update()  # type: ignore[attr-defined]

    def _finish_box(self) -> None:
        box, self._box = self._box, None
        if box is not None:
            self.set_selection(self.pick_in_box(box.normalized()))

    # ------------------------------------------------------------ drawing
    def _draw_selection(self, painter: QPainter) -> None:
        if self._box is not None:
            pen = QPen(SELECTION_COLOUR, 1.0, Qt.PenStyle.DashLine)
            painter.setPen(pen)
            painter.drawRect(self._box.normalized())
        if not self.selected or self.geometry_data.is_empty:
            return
        edges, points = self._selection_geometry()
        painter.setTransform(self._screen_transform())  # type: ignore[attr-defined]
        pen = QPen(SELECTION_COLOUR, 3.0)
        pen.setCosmetic(True)
        painter.setPen(pen)
        if edges:
            painter.drawLines(edges)
        if points:
            dots = QPen(SELECTION_COLOUR, 8.0)
            dots.setCosmetic(True)
            dots.setCapStyle(Qt.PenCapStyle.RoundCap)
            painter.setPen(dots)
            painter.drawPoints(points)
        painter.resetTransform()
        painter.setPen(SELECTION_COLOUR)
        noun = "node" if self.pick_kind == "nodes" else "element"
        count = len(self.selected)
        painter.drawText(QPointF(8, 64), f"selected: {count} {noun}{'' if count == 1 else 's'}")

    def _selection_geometry(self) -> tuple[list[QPointF], list[QPointF]]:
        """The selected elements' edges (or nodes' points) in view coordinates, per rotation."""
        key = (id(self.geometry_data), self.yaw, self.pitch, self.pick_kind, len(self.selected))
        if self._selection_lines is not None and self._selection_lines[0] == key:
            return self._selection_lines[1], self._selection_lines[2]
        index = self._index()
        geometry = self.geometry_data
        (cx, cy, cz), _ = geometry.center_and_radius()
        (a0, a1, a2), (b0, b1, b2), _ = rotation(self.yaw, self.pitch)
        wanted = np.asarray(self.selected[:DRAWN_SELECTION_LIMIT], dtype=np.int64)
        labels = index.node_labels if self.pick_kind == "nodes" else index.element_labels
        rows = np.flatnonzero(np.isin(labels, wanted))
        if self.pick_kind == "nodes":
            ids = rows
        else:
            ids = np.unique(index.element_nodes[rows].ravel())
        xs = np.asarray(geometry.xs)[ids] - cx
        ys = np.asarray(geometry.ys)[ids] - cy
        zs = np.asarray(geometry.zs)[ids] - cz
        us, vs = (a0 * xs + a1 * ys + a2 * zs).tolist(), (b0 * xs + b1 * ys + b2 * zs).tolist()
        local = {int(i): QPointF(u, v) for i, u, v in zip(ids.tolist(), us, vs, strict=True)}
        edges: list[QPointF] = []
        points: list[QPointF] = []
        if self.pick_kind == "nodes":
            points = [local[int(i)] for i in ids.tolist()]
        else:
            for row in index.element_nodes[rows].tolist():
                ring = list(dict.fromkeys(row))  # the padding repeats the last node
                pairs = [(ring[0], ring[1])] if len(ring) == 2 else list(
                    zip(ring, ring[1:] + ring[:1], strict=True))
                for a, b in pairs:
                    edges += (local[a], local[b])
        self._selection_lines = (key, edges, points)
        return edges, points
