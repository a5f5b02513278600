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
NEAREST_CANDIDATES = 16  # elements whose centroids are nearest a click, tested for the hit


@dataclass
class PickIndex:
    """Labels and node indices of one geometry, in the geometry's node order."""

    node_labels: np.ndarray
    element_labels: np.ndarray
    element_nodes: np.ndarray  # (elements, 4) node indices; shorter ones repeat their last
    xyz: np.ndarray  # (nodes, 3), centred on the geometry's centre as the view is
    centroids: np.ndarray  # (elements, 3), centred likewise

    @classmethod
    def of(cls, geometry: MeshGeometry) -> PickIndex:
        """From what ``read_geometry`` read in its one pass (no second walk of the part)."""
        (cx, cy, cz), _ = geometry.center_and_radius()
        xyz = np.column_stack((np.asarray(geometry.xs) - cx, np.asarray(geometry.ys) - cy,
                               np.asarray(geometry.zs) - cz)).reshape(-1, 3)
        nodes = np.frombuffer(geometry.element_ids, dtype=np.int64).reshape(-1, 4)
        return cls(np.frombuffer(geometry.node_labels, dtype=np.int64),
                   np.frombuffer(geometry.element_labels, dtype=np.int64), nodes, xyz,
                   xyz[nodes].mean(axis=1) if len(nodes) else np.zeros((0, 3)))

    def screen(self, points: np.ndarray, yaw: float, pitch: float,
               to_screen: tuple[float, float, float, float]) -> tuple[np.ndarray, np.ndarray]:
        """``points`` (centred, (k, 3)) in widget pixels at this view."""
        (a0, a1, a2), (b0, b1, b2), _ = rotation(yaw, pitch)
        ox, oy, sx, sy = to_screen
        x, y, z = points[:, 0], points[:, 1], points[:, 2]
        return ox + sx * (a0 * x + a1 * y + a2 * z), oy + sy * (b0 * x + b1 * y + b2 * z)


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
        self._selection_base: tuple[tuple[Any, ...], np.ndarray, list[list[int]]] | None = None

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
        self._index()  # with the picture, so that the first click finds it ready
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

    def _screen_points(self, points: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Every node's (or these centred ``points``') position in widget pixels now."""
        index = self._index()
        return index.screen(index.xyz if points is None else points, self.yaw, self.pitch,
                            self._to_screen())  # type: ignore[attr-defined]

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
        # the nearest centroids first, then the first whose outline's box holds the click
        cx, cy = self._screen_points(index.centroids)
        distance = np.hypot(cx - point.x(), cy - point.y())
        nearest = np.argsort(distance)[:NEAREST_CANDIDATES] if len(distance) <= \
            NEAREST_CANDIDATES else np.argpartition(distance, NEAREST_CANDIDATES)[
                :NEAREST_CANDIDATES]
        nearest = nearest[np.argsort(distance[nearest])]
        ex, ey = px[index.element_nodes[nearest]], py[index.element_nodes[nearest]]
        slop = CLICK_SLOP_PX
        inside = ((ex.min(axis=1) - slop <= point.x()) & (point.x() <= ex.max(axis=1) + slop)
                  & (ey.min(axis=1) - slop <= point.y()) & (point.y() <= ey.max(axis=1) + slop))
        hits = np.flatnonzero(inside)
        return int(index.element_labels[nearest[hits[0]]]) if len(hits) else None

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

    def _selected_entities(self) -> tuple[np.ndarray, list[list[int]]]:
        """Node indices of the selection, and per selected element its four node indices."""
        key = (id(self.geometry_data), self.pick_kind, tuple(self.selected))
        if self._selection_base is not None and self._selection_base[0] == key:
            return self._selection_base[1], self._selection_base[2]
        index = self._index()
        wanted = np.asarray(self.selected[:DRAWN_SELECTION_LIMIT], dtype=np.int64)
        labels = index.node_labels if self.pick_kind == "nodes" else index.element_labels
        found = np.flatnonzero(np.isin(labels, wanted))
        if self.pick_kind == "nodes":
            ids, rows = found, []
        else:
            # marked in a table of the nodes: np.unique's first call imports numpy.ma (40 ms
            # of the first click's frame, bench/ui_pick_latency.py)
            used = np.zeros(len(index.node_labels), dtype=bool)
            used[index.element_nodes[found].ravel()] = True
            ids = np.flatnonzero(used)
            rows = index.element_nodes[found].tolist()
        self._selection_base = (key, ids, rows)
        return ids, rows

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
        """The selected elements' edges (or nodes' points) in view coordinates, per rotation
        (which entities they are is looked up once per selection)."""
        key = (id(self.geometry_data), self.yaw, self.pitch, self.pick_kind, len(self.selected))
        if self._selection_lines is not None and self._selection_lines[0] == key:
            return self._selection_lines[1], self._selection_lines[2]
        ids, rows = self._selected_entities()
        index = self._index()
        (a0, a1, a2), (b0, b1, b2), _ = rotation(self.yaw, self.pitch)
        xyz = index.xyz[ids]
        us = (a0 * xyz[:, 0] + a1 * xyz[:, 1] + a2 * xyz[:, 2]).tolist()
        vs = (b0 * xyz[:, 0] + b1 * xyz[:, 1] + b2 * xyz[:, 2]).tolist()
        local = {int(i): QPointF(u, v) for i, u, v in zip(ids.tolist(), us, vs, strict=True)}
        edges: list[QPointF] = []
        points: list[QPointF] = []
        if self.pick_kind == "nodes":
            points = [local[int(i)] for i in ids.tolist()]
        else:
            for row in rows:
                ring = list(dict.fromkeys(row))  # the padding repeats the last node
                pairs = [(ring[0], ring[1])] if len(ring) == 2 else list(
                    zip(ring, ring[1:] + ring[:1], strict=True))
                for a, b in pairs:
                    edges += (local[a], local[b])
        self._selection_lines = (key, edges, points)
        return edges, points
