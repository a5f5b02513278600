"""The plan's preview (objectName ``planPreview``): the predicted change over the current part.

Before anything runs, the elements the plan will add, delete and move are drawn over the
current part in distinct colours, with a legend: current part grey, added green, deleted red,
moved amber (at their predicted place; their current place stays grey); the nodes the plan
deletes (a merge's duplicates) are red crosses; what the plan acts on and leaves as it is
(the region a call applies something to) is blue, its elements' outlines and its nodes
as dots, with a legend entry only when there is one. A plain projection on the plane of the
part's two largest extents; at most ``DRAWN_LIMIT`` outlines per layer.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from sam_plugin.ui.i18n import tr

Outline = list[tuple[float, float, float]]
PREVIEW_COLOURS = {"current": "#8c959f", "added": "#1a7f37", "deleted": "#cf222e",
                   "moved": "#d4a000",  # amber, as the host viewport draws it
                   "acted_on": "#0969da"}
DRAWN_LIMIT = 20_000
PREVIEW_MIN_HEIGHT = 110  # the legend and a readable sketch; a 640-px screen has no more
LAYER_ORDER = ("current", "acted_on", "acted_on_nodes", "deleted", "moved", "added",
               "deleted_nodes")
CROSS = 3.0  # half a deleted node's cross, in pixels
DOT = 3.0  # the radius of a node acted on, in pixels
# what a legend entry stands for, when it is said only if the plan has one
SHOWN_WHEN_DRAWN = {"acted_on": ("acted_on", "acted_on_nodes")}


def legend_words() -> dict[str, str]:
    return {"current": tr("current part"), "added": tr("added"), "deleted": tr("deleted"),
            "moved": tr("moved (new place)"), "acted_on": tr("acted on (unchanged)")}


class PlanPreview(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("planPreview")
        self.setMinimumHeight(PREVIEW_MIN_HEIGHT)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.layers: dict[str, list[Outline]] = {name: [] for name in LAYER_ORDER}
        self._axes = (0, 1)
        self.hide()

    def show_preview(self, part: Any, preview: Any) -> None:
        """``part``: the live host part (or None); ``preview``: the plan's Preview."""
        deleted = set(preview.deleted)
        moved = set(preview.moved)
        acted = set(getattr(preview, "acted_on", ()))
        current: list[Outline] = []
        gone: list[Outline] = []
        region: list[Outline] = []
        dots: list[Outline] = []
        if part is not None:
            coordinates = {n.label: tuple(n.coordinates) for n in part.nodes}
            for element in part.elements:
                outline = [coordinates[k] for k in element.connectivity if k in coordinates]
                if element.label in deleted:
                    gone.append(outline)
                elif len(current) < DRAWN_LIMIT:
                    current.append(outline)
                if element.label in acted:
                    region.append(outline)
            dots = [[coordinates[k]] for k in getattr(preview, "acted_on_nodes", ())
                    if k in coordinates]
        self.layers = {
            "current": current,
            "acted_on": region[:DRAWN_LIMIT],
            "acted_on_nodes": dots[:DRAWN_LIMIT],
            "deleted": gone[:DRAWN_LIMIT],
            "moved": [list(map(tuple, o)) for o in preview.moved_to[:DRAWN_LIMIT]],
            "added": [list(map(tuple, o)) for o in preview.added[:DRAWN_LIMIT]],
            # one point each: drawn as a cross, sent to the host's viewport as its points
            "deleted_nodes": [[tuple(p)] for p in
                              getattr(preview, "deleted_nodes", [])[:DRAWN_LIMIT]],
        }
        self.moved_count = len(moved)
        self._axes = self._projection_axes()
        self.show()
        self.update()

    def clear_preview(self) -> None:
        self.layers = {name: [] for name in LAYER_ORDER}
        self.hide()

    def _projection_axes(self) -> tuple[int, int]:
        points = [p for layer in self.layers.values() for o in layer for p in o]
        if not points:
            return (0, 1)
        spans = [max(p[i] for p in points) - min(p[i] for p in points) for i in range(3)]
        first, second = sorted(range(3), key=lambda i: -spans[i])[:2]
        return (min(first, second), max(first, second))

    def _frame(self) -> tuple[float, float, float, float, float]:
        a, b = self._axes
        points = [p for layer in self.layers.values() for o in layer for p in o]
        xs = [p[a] for p in points] or [0.0]
        ys = [p[b] for p in points] or [0.0]
        width = max(max(xs) - min(xs), 1e-12)
        height = max(max(ys) - min(ys), 1e-12)
        area = QRectF(self.rect()).adjusted(8, 24, -8, -8)
        scale = min(area.width() / width, area.height() / height)
        return min(xs), max(ys), scale, area.left(), area.top()

    def paintEvent(self, event: Any) -> None:  # noqa: N802 (Qt override)
        painter = QPainter(self)
        painter.fillRect(self.rect(), QColor("#ffffff"))
        x0, y1, scale, left, top = self._frame()
        a, b = self._axes

        def screen(p: tuple[float, float, float]) -> QPointF:
            return QPointF(left + (p[a] - x0) * scale, top + (y1 - p[b]) * scale)

        for name in LAYER_ORDER:
            pen = QPen(QColor(PREVIEW_COLOURS[_colour_of(name)]))
            pen.setWidthF(1.0 if name == "current" else 2.0)
            painter.setPen(pen)
            for outline in self.layers[name]:
                points = [screen(p) for p in outline]
                if len(points) == 1 and name == "acted_on_nodes":
                    painter.drawEllipse(points[0], DOT, DOT)
                elif len(points) == 1:
                    _cross(painter, points[0])
                elif len(points) == 2:
                    painter.drawLine(points[0], points[1])
                elif points:
                    painter.drawPolygon(points)
        self._draw_legend(painter)
        painter.end()

    def _draw_legend(self, painter: QPainter) -> None:
        x = 8.0
        for name, words in legend_words().items():
            drawn_as = SHOWN_WHEN_DRAWN.get(name)
            if drawn_as is not None and not any(self.layers.get(k) for k in drawn_as):
                continue
            colour = QColor(PREVIEW_COLOURS[name])
            painter.fillRect(QRectF(x, 6, 12, 12), colour)
            painter.setPen(QColor("#24292f"))
            painter.drawText(QRectF(x + 16, 2, 140, 20), Qt.AlignmentFlag.AlignVCenter, words)
            x += 24 + painter.fontMetrics().horizontalAdvance(words)


def _colour_of(layer: str) -> str:
    return {"deleted_nodes": "deleted", "acted_on_nodes": "acted_on"}.get(layer, layer)


def _cross(painter: QPainter, at: QPointF) -> None:
    painter.drawLine(QPointF(at.x() - CROSS, at.y() - CROSS), QPointF(at.x() + CROSS,
                                                                      at.y() + CROSS))
    painter.drawLine(QPointF(at.x() - CROSS, at.y() + CROSS), QPointF(at.x() + CROSS,
                                                                      at.y() - CROSS))
