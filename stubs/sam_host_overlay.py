"""The plan preview over the mesh in the offline viewport: what a plugin's plan will touch
(amber), add (green) and delete (red), drawn until the plugin clears it (``SamHost.
show_plan_preview`` / ``clear_plan_preview``). Outlines are point lists in model coordinates,
projected once per rotation (pan and zoom only change the painter's transform); the nodes a
plan deletes (``deleted_nodes``, one point each: a merge's duplicates) are red crosses, and
the legend counts them apart from the elements. The region a plan acts on and leaves as it is
(a load's or condition's: ``acted_on`` outlines, ``acted_on_nodes`` points as dots) is blue,
in the legend only when sent. The view is fitted to the part and the plan
together, centred on both (a build, with no part yet, on the plan alone).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QColor, QPainter, QPen
from sam_host_mesh import MeshGeometry, rotation

Outline = Sequence[Sequence[float]]
OVERLAY_COLOURS = {"touched": QColor("#d4a000"), "added": QColor("#1a7f37"),
                   "deleted": QColor("#cf222e")}
OVERLAY_WORDS = {"touched": "touched", "added": "added", "deleted": "deleted"}
NODE_LAYER = "deleted_nodes"  # points, not outlines
ACTED_COLOUR = QColor("#0969da")
ACTED_LAYER, ACTED_NODES = "acted_on", "acted_on_nodes"  # outlines; points (sent when some)
DOT = 4.0  # a node acted on, in pixels
CROSS = 4.0  # half a node cross, in pixels
FILL = 0.9  # the part and the plan fill 90% of the view, as fit_to_view fills it
OVERLAY_LIMIT = 20_000  # outlines per layer; the count says how many more there are


class ViewportPlanOverlay:
    """Mixed into ``MeshViewport``: needs ``geometry_data``, ``yaw``, ``pitch``,
    ``_screen_transform()``, ``width()`` and ``update()``."""

    geometry_data: MeshGeometry
    yaw: float
    pitch: float

    def _init_overlay(self) -> None:
        self.overlay: dict[str, list[list[tuple[float, float, float]]]] = {}
        self.overlay_counts: dict[str, int] = {}
        self._overlay_lines: tuple[tuple[Any, ...], dict[str, list[QPointF]]] | None = None

    def show_plan_overlay(self, layers: Mapping[str, Sequence[Outline]]) -> int:
        """Draw ``layers`` (``touched``, ``added``, ``deleted``: outlines) over the mesh;
        returns how many outlines are drawn."""
        self.overlay = {
            name: [[(float(p[0]), float(p[1]), float(p[2])) for p in outline]
                   for outline in list(layers.get(name) or [])[:OVERLAY_LIMIT]]
            for name in OVERLAY_COLOURS}
        self.overlay[NODE_LAYER] = [[(float(p[0]), float(p[1]), float(p[2]))]
                                    for p in _points(layers.get(NODE_LAYER))[:OVERLAY_LIMIT]]
        self.overlay_counts = {name: len(layers.get(name) or []) for name in OVERLAY_COLOURS}
        self.overlay_counts[NODE_LAYER] = len(_points(layers.get(NODE_LAYER)))
        if layers.get(ACTED_LAYER):
            self.overlay[ACTED_LAYER] = [
                [(float(p[0]), float(p[1]), float(p[2])) for p in outline]
                for outline in list(layers[ACTED_LAYER])[:OVERLAY_LIMIT]]
            self.overlay_counts[ACTED_LAYER] = len(layers[ACTED_LAYER])
        if layers.get(ACTED_NODES):
            points = _points(layers[ACTED_NODES])
            self.overlay[ACTED_NODES] = [[(float(p[0]), float(p[1]), float(p[2]))]
                                         for p in points[:OVERLAY_LIMIT]]
            self.overlay_counts[ACTED_NODES] = len(points)
        self._overlay_lines = None
        self._fit_overlay()
        self.update()  # type: ignore[attr-defined]
        return sum(len(v) for v in self.overlay.values())

    def _fit_overlay(self) -> None:
        """The part and the plan fit the view together, centred on both: a plan that moves
        or adds beyond the part's own extent (a copy 40 along X) is not drawn off the edge,
        and a build (no part yet) fills the view."""
        self.fit_to_view()  # type: ignore[attr-defined]
        flat = [p for outlines in self.overlay.values() for o in outlines for p in o]
        if not flat:
            return
        geometry = self.geometry_data
        (cx, cy, cz), _ = geometry.center_and_radius()
        if not geometry.is_empty:
            flat += [(x, y, z) for x in (min(geometry.xs), max(geometry.xs))
                     for y in (min(geometry.ys), max(geometry.ys))
                     for z in (min(geometry.zs), max(geometry.zs))]
        row_u, row_v, _ = rotation(self.yaw, self.pitch)
        points = np.asarray(flat, dtype=float) - (cx, cy, cz)
        us, vs = points @ np.asarray(row_u), points @ np.asarray(row_v)
        span_u = max(float(us.max() - us.min()), 1e-9)
        span_v = max(float(vs.max() - vs.min()), 1e-9)
        width = max(1, self.width())  # type: ignore[attr-defined]
        height = max(1, self.height())  # type: ignore[attr-defined]
        scale = FILL * min(width / span_u, height / span_v)
        if not geometry.is_empty:  # never closer than the part alone is shown
            scale = min(scale, self.scale)  # type: ignore[has-type]
        self.scale = scale
        self.pan = QPointF(-(float(us.max()) + float(us.min())) / 2 * scale,
                           (float(vs.max()) + float(vs.min())) / 2 * scale)

    def clear_plan_overlay(self) -> None:
        self.overlay, self.overlay_counts, self._overlay_lines = {}, {}, None
        self.fit_to_view()  # type: ignore[attr-defined]
        self.update()  # type: ignore[attr-defined]

    @property
    def overlay_shown(self) -> bool:
        return any(self.overlay.values())

    def _draw_plan_overlay(self, painter: QPainter) -> None:
        if not self.overlay_shown:
            return
        lines = self._overlay_geometry()
        painter.setTransform(self._screen_transform())  # type: ignore[attr-defined]
        colours = {**OVERLAY_COLOURS, ACTED_LAYER: ACTED_COLOUR}
        for name in (ACTED_LAYER, "deleted", "touched", "added"):
            if lines.get(name):
                pen = QPen(colours[name], 2.5)
                pen.setCosmetic(True)
                painter.setPen(pen)
                painter.drawLines(lines[name])
        transform = painter.transform()
        painter.resetTransform()
        self._draw_node_crosses(painter, [transform.map(p) for p in lines.get(NODE_LAYER, [])])
        self._draw_node_dots(painter, [transform.map(p) for p in lines.get(ACTED_NODES, [])])
        self._draw_overlay_legend(painter)

    @staticmethod
    def _draw_node_crosses(painter: QPainter, centres: Sequence[QPointF]) -> None:
        pen = QPen(OVERLAY_COLOURS["deleted"], 2.0)
        painter.setPen(pen)
        for c in centres:
            painter.drawLine(QPointF(c.x() - CROSS, c.y() - CROSS),
                             QPointF(c.x() + CROSS, c.y() + CROSS))
            painter.drawLine(QPointF(c.x() - CROSS, c.y() + CROSS),
                             QPointF(c.x() + CROSS, c.y() - CROSS))

    @staticmethod
    def _draw_node_dots(painter: QPainter, centres: Sequence[QPointF]) -> None:
        painter.setPen(QPen(ACTED_COLOUR, 1.0))
        painter.setBrush(ACTED_COLOUR)
        for c in centres:
            painter.drawEllipse(c, DOT, DOT)
        painter.setBrush(QColor(0, 0, 0, 0))

    def legend_items(self) -> list[str]:
        """The legend's words after its head, as drawn: ``touched 0``, ``added 16``,
        ``deleted 0`` (elements), then ``deleted nodes 5`` when the plan deletes nodes."""
        say = getattr(self, "words", None) or (lambda text: text)
        items = [f"{say(OVERLAY_WORDS[name])} {self.overlay_counts.get(name, 0)}"
                 for name in OVERLAY_COLOURS]
        if self.overlay_counts.get(NODE_LAYER):
            items.append(f"{say('deleted nodes')} {self.overlay_counts[NODE_LAYER]}")
        if self.overlay_counts.get(ACTED_LAYER):
            items.append(f"{say('acted on (unchanged)')} {self.overlay_counts[ACTED_LAYER]}")
        if self.overlay_counts.get(ACTED_NODES):
            items.append(f"{say('nodes acted on (unchanged)')} "
                         f"{self.overlay_counts[ACTED_NODES]}")
        return items

    def legend_colours(self) -> list[QColor]:
        """Each legend item's colour, in the order of :meth:`legend_items`."""
        found = list(OVERLAY_COLOURS.values())
        found += [OVERLAY_COLOURS["deleted"]] * bool(self.overlay_counts.get(NODE_LAYER))
        found += [ACTED_COLOUR] * (bool(self.overlay_counts.get(ACTED_LAYER))
                                   + bool(self.overlay_counts.get(ACTED_NODES)))
        return found

    def _draw_overlay_legend(self, painter: QPainter) -> None:
        """``plan preview (elements): ■ touched 16 ■ added 0 ■ deleted 0 ■ deleted nodes 5``,
        right-aligned at the bottom (the part's caption and the shapes hold the top)."""
        metrics = painter.fontMetrics()
        say = getattr(self, "words", None) or (lambda text: text)
        head = say("plan preview (elements):")  # the outlines are elements; nodes said apart
        items = self.legend_items()
        colours = self.legend_colours()
        width = metrics.horizontalAdvance(head) + 8 + sum(
            20 + metrics.horizontalAdvance(text) for text in items)
        x = max(8.0, float(self.width()) - width - 8)  # type: ignore[attr-defined]
        base = float(self.height()) - 10  # type: ignore[attr-defined]
        painter.setPen(QColor("#222222"))
        painter.drawText(QPointF(x, base), head)
        x += metrics.horizontalAdvance(head) + 8
        for colour, text in zip(colours, items, strict=True):
            painter.fillRect(QRectF(x, base - 10, 10, 10), colour)
            painter.setPen(QColor("#222222"))
            painter.drawText(QPointF(x + 13, base), text)
            x += 20 + metrics.horizontalAdvance(text)

    def _overlay_geometry(self) -> dict[str, list[QPointF]]:
        """Per layer, the outlines' edges as ``drawLines`` endpoints in view coordinates."""
        key = (id(self.geometry_data), self.yaw, self.pitch)
        if self._overlay_lines is not None and self._overlay_lines[0] == key:
            return self._overlay_lines[1]
        (cx, cy, cz), _ = self.geometry_data.center_and_radius()
        (a0, a1, a2), (b0, b1, b2), _ = rotation(self.yaw, self.pitch)
        found: dict[str, list[QPointF]] = {}
        for name, outlines in self.overlay.items():
            flat = [p for outline in outlines for p in outline]
            if not flat:
                continue
            xyz = np.asarray(flat, dtype=float) - (cx, cy, cz)
            us = (a0 * xyz[:, 0] + a1 * xyz[:, 1] + a2 * xyz[:, 2]).tolist()
            vs = (b0 * xyz[:, 0] + b1 * xyz[:, 1] + b2 * xyz[:, 2]).tolist()
            points = [QPointF(u, v) for u, v in zip(us, vs, strict=True)]
            endpoints: list[QPointF] = []
            start = 0
            for outline in outlines:
                ring = points[start:start + len(outline)]
                start += len(outline)
                if len(ring) == 1:  # a node: its cross or dot is drawn in view pixels
                    endpoints += ring
                elif len(ring) == 2:
                    endpoints += ring
                elif len(ring) > 2:
                    for a, b in zip(ring, ring[1:] + ring[:1], strict=True):
                        endpoints += (a, b)
            found[name] = endpoints
        self._overlay_lines = (key, found)
        return found


def _points(found: Any) -> list[Sequence[float]]:
    """A node layer's points: ``[(x, y, z), …]`` (outlines of one point are taken too)."""
    points = []
    for item in list(found or []):
        point = item[0] if item and isinstance(item[0], Sequence) else item
        if len(point) == 3:
            points.append(point)
    return points
