"""The plan preview over the mesh in the offline viewport: what a plugin's plan will touch
(amber), add (green) and delete (red), and the region it acts on and leaves as it is (blue,
``acted_on``: a load's or condition's elements, a node as a one-point outline drawn as a dot;
in the legend only when sent), drawn until the plugin clears it (``SamHost.
show_plan_preview`` / ``clear_plan_preview``). Outlines are point lists in model coordinates,
projected once per rotation (pan and zoom only change the painter's transform).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from sam_host_mesh import MeshGeometry, rotation

Outline = Sequence[Sequence[float]]
OVERLAY_COLOURS = {"touched": QColor("#d4a000"), "added": QColor("#1a7f37"),
                   "deleted": QColor("#cf222e"), "acted_on": QColor("#0969da")}
OVERLAY_WORDS = {"touched": "touched", "added": "added", "deleted": "deleted",
                 "acted_on": "acted on (unchanged)"}
OPTIONAL_LAYERS = ("acted_on",)  # drawn and counted only when a plugin sends them
DOTS = ".dots"  # a layer's one-point outlines (nodes), drawn as dots
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
        names = [name for name in OVERLAY_COLOURS
                 if name not in OPTIONAL_LAYERS or layers.get(name)]
        self.overlay = {
            name: [[(float(p[0]), float(p[1]), float(p[2])) for p in outline]
                   for outline in list(layers.get(name) or [])[:OVERLAY_LIMIT]]
            for name in names}
        self.overlay_counts = {name: len(layers.get(name) or []) for name in names}
        self._overlay_lines = None
        self._fit_overlay()
        self.update()  # type: ignore[attr-defined]
        return sum(len(v) for v in self.overlay.values())

    def _fit_overlay(self) -> None:
        """The part and the plan fit the view together: a plan that moves or adds beyond
        the part's own extent (a copy 40 along X) is not drawn off the edge."""
        self.fit_to_view()  # type: ignore[attr-defined]
        flat = [p for outlines in self.overlay.values() for o in outlines for p in o]
        if not flat:
            return
        (cx, cy, cz), radius = self.geometry_data.center_and_radius()
        points = np.asarray(flat, dtype=float) - (cx, cy, cz)
        reach = float(np.sqrt((points ** 2).sum(axis=1)).max())
        if reach > radius:
            side = max(1, min(self.width(), self.height()))  # type: ignore[attr-defined]
            self.scale = 0.45 * side / reach  # type: ignore[attr-defined]

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
        for name in ("acted_on", "deleted", "touched", "added"):
            if lines.get(name):
                pen = QPen(OVERLAY_COLOURS[name], 2.5)
                pen.setCosmetic(True)
                painter.setPen(pen)
                painter.drawLines(lines[name])
            if lines.get(name + DOTS):
                pen = QPen(OVERLAY_COLOURS[name], 8.0)
                pen.setCosmetic(True)
                pen.setCapStyle(Qt.PenCapStyle.RoundCap)
                painter.setPen(pen)
                painter.drawPoints(lines[name + DOTS])
        painter.resetTransform()
        self._draw_overlay_legend(painter)

    def _draw_overlay_legend(self, painter: QPainter) -> None:
        """``plan preview: ■ touched 16 ■ added 0 ■ deleted 0``, right-aligned at the top."""
        metrics = painter.fontMetrics()
        say = getattr(self, "words", None) or (lambda text: text)
        # the outlines are elements; a node of a region is a dot
        nodes = any(len(o) == 1 for outlines in self.overlay.values() for o in outlines)
        head = say("plan preview (elements; nodes as dots):" if nodes
                   else "plan preview (elements):")
        items = [f"{say(OVERLAY_WORDS[name])} {count}"
                 for name, count in self.overlay_counts.items()]
        width = metrics.horizontalAdvance(head) + 8 + sum(
            20 + metrics.horizontalAdvance(text) for text in items)
        x = max(8.0, float(self.width()) - width - 8)  # type: ignore[attr-defined]
        painter.setPen(QColor("#222222"))
        painter.drawText(QPointF(x, 16), head)
        x += metrics.horizontalAdvance(head) + 8
        colours = [OVERLAY_COLOURS[name] for name in self.overlay_counts]
        for colour, text in zip(colours, items, strict=True):
            painter.fillRect(QRectF(x, 6, 10, 10), colour)
            painter.setPen(QColor("#222222"))
            painter.drawText(QPointF(x + 13, 16), text)
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
            dots: list[QPointF] = []
            start = 0
            for outline in outlines:
                ring = points[start:start + len(outline)]
                start += len(outline)
                if len(ring) == 1:
                    dots += ring
                elif len(ring) == 2:
                    endpoints += ring
                elif len(ring) > 2:
                    for a, b in zip(ring, ring[1:] + ring[:1], strict=True):
                        endpoints += (a, b)
            found[name] = endpoints
            found[name + DOTS] = dots
        self._overlay_lines = (key, found)
        return found
