"""What the offline viewport draws over the mesh: an axis triad, node labels on request and
highlighted elements on request (the dock's "highlight the worst elements"). A mixin of
``MeshViewport``, kept apart from the mesh drawing and the plan preview."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QLineF, QPointF
from PySide6.QtGui import QColor, QPainter, QPen
from sam_host_mesh import rotation

NODE_LABELS_MAX = 2_000  # beyond that the labels are an unreadable smear


class ViewportAnnotations:
    """Needs ``geometry_data``, ``yaw``, ``pitch``, ``_screen_transform()``, ``height()`` and
    ``update()`` from the widget it is mixed into."""

    geometry_data: Any
    yaw: float
    pitch: float

    def _init_annotations(self) -> None:
        """Axis triad (always), node labels (on request), highlighted elements (on request)."""
        self.node_labels_shown = False
        self.highlighted: list[list[tuple[float, float, float]]] = []
        self.highlighted_labels: list[int] = []
        self._labelled_part: Any = None

    def _forget_annotations(self, part: Any) -> None:
        if part is not self._labelled_part:
            self.highlighted, self.highlighted_labels = [], []
        self._labelled_part = part

    def set_node_labels(self, shown: bool) -> None:
        self.node_labels_shown = bool(shown)
        self.update()

    def highlight_elements(self, part: Any, labels: list[int]) -> int:
        """Outline the elements ``labels`` of ``part`` in red (``[]`` clears); returns how many
        were found."""
        self._labelled_part = part
        wanted = set(int(label) for label in labels)
        outlines: list[list[tuple[float, float, float]]] = []
        if part is not None and wanted:
            coords = {node.label: tuple(node.coordinates) for node in part.nodes}
            for element in part.elements:
                if element.label in wanted:
                    outlines.append([coords[n] for n in element.connectivity if n in coords])
        self.highlighted = outlines
        self.highlighted_labels = sorted(wanted)
        self.update()
        return len(outlines)

    def _project(self, point: tuple[float, float, float]) -> QPointF:  # noqa: D102
        (cx, cy, cz), _ = self.geometry_data.center_and_radius()
        (a0, a1, a2), (b0, b1, b2), _ = rotation(self.yaw, self.pitch)
        x, y, z = point[0] - cx, point[1] - cy, point[2] - cz
        local = QPointF(a0 * x + a1 * y + a2 * z, b0 * x + b1 * y + b2 * z)
        return self._screen_transform().map(local)  # type: ignore[attr-defined]

    def _draw_annotations(self, painter: QPainter) -> None:
        if self.geometry_data.is_empty:
            return
        self._draw_highlight(painter)
        if self.node_labels_shown:
            self._draw_node_labels(painter)
        self._draw_axis_triad(painter)

    def _draw_axis_triad(self, painter: QPainter) -> None:
        """X, Y, Z as the view rotation shows them, in the bottom-left corner."""
        origin = QPointF(36.0, self.height() - 36.0)
        length = 24.0
        rows = rotation(self.yaw, self.pitch)
        for axis, (name, colour) in enumerate((("X", "#cf222e"), ("Y", "#1a7f37"),
                                               ("Z", "#0550ae"))):
            dx, dy = rows[0][axis] * length, -rows[1][axis] * length
            tip = QPointF(origin.x() + dx, origin.y() + dy)
            painter.setPen(QPen(QColor(colour), 2.0))
            painter.drawLine(QLineF(origin, tip))
            if abs(dx) < 3 and abs(dy) < 3:  # the axis points at the viewer: a dot, not a line
                painter.drawEllipse(origin, 3.0, 3.0)
                painter.drawText(origin + QPointF(-14, 14), name)
                continue
            offset = QPointF(3 if dx >= 0 else -10, 4 if dy >= 0 else -2)
            painter.drawText(tip + offset, name)

    def _draw_node_labels(self, painter: QPainter) -> None:
        part = self._labelled_part
        geometry = self.geometry_data
        if part is None or geometry.node_count > NODE_LABELS_MAX:
            if geometry.node_count > NODE_LABELS_MAX:
                painter.setPen(QColor("#57606a"))
                painter.drawText(QPointF(8, 48), f"node labels: more than {NODE_LABELS_MAX} nodes, "
                                                 "not drawn")
            return
        painter.setPen(QColor("#57606a"))
        for node in part.nodes:
            point = self._project(tuple(node.coordinates))
            painter.drawText(QPointF(point.x() + 3, point.y() - 3), str(node.label))

    def _draw_highlight(self, painter: QPainter) -> None:
        if not self.highlighted:
            return
        pen = QPen(QColor("#ff2d20"), 3.0)
        painter.setPen(pen)
        for outline in self.highlighted:
            points = [self._project(p) for p in outline]
            if len(points) == 2:
                painter.drawLine(QLineF(points[0], points[1]))
            else:
                for a, b in zip(points, points[1:] + points[:1], strict=True):
                    painter.drawLine(QLineF(a, b))
        painter.setPen(QColor("#ff2d20"))
        painter.drawText(QPointF(8, self.height() - 8.0),
                         f"highlighted: {len(self.highlighted)} element(s)")
