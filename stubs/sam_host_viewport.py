"""The offline host's mesh viewport: element edges and nodes, QUAD/TRI/BEAM in distinct colours.

Responsive on a 190k-element part because paintEvent never walks the full mesh while the
user is dragging: the full-detail picture is rendered once into a cached image (batched
``drawLines`` per shape, projection cached per rotation) after the view has been still for
a moment; during a drag a decimated preview (at most ``PREVIEW_EDGES`` edges) is drawn.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Iterator
from typing import Any

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QImage, QMouseEvent, QPainter, QPen, QTransform, QWheelEvent
from PySide6.QtWidgets import QSizePolicy, QWidget
from sam_host_annotations import ViewportAnnotations
from sam_host_mesh import SHAPE_ORDER, MeshGeometry, read_geometry, rotation
from sam_host_overlay import ViewportPlanOverlay
from sam_host_picking import CLICK_SLOP_PX, ViewportPicking
from sam_host_views import VIEWS_BY_KEY, draws_flat, face_on_view

SHAPE_COLOURS = {"QUAD": QColor("#2f6fdf"), "TRI": QColor("#23a35a"), "BEAM": QColor("#e07b00")}
NODE_COLOUR = QColor("#333333")
BACKGROUND = QColor("#f4f6f8")
PREVIEW_EDGES = 3_000
BATCH = 8_000  # points or edges per event-loop turn in the full render
FREEZE_ABOVE_NODES = 50_000
MAX_DRAWN_NODES = 25_000
SETTLE_MS = 120


class MeshViewport(ViewportAnnotations, ViewportPicking, ViewportPlanOverlay, QWidget):
    """Draws ``displayedObject``; left-drag rotates, right/middle-drag (or Shift+drag) pans,
    wheel zooms; a click picks, Ctrl+click adds or removes, Ctrl+drag box-selects
    (``sam_host_picking.py``); ``set_view`` looks along an axis (``sam_host_views.py``)."""

    selectionChanged = Signal()  # noqa: N815 (Qt naming)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("meshViewport")
        self.setMinimumSize(320, 240)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.geometry_data = MeshGeometry()
        self.yaw = 0.0
        self.pitch = 0.0
        self.scale = 1.0
        self.pan = QPointF(0.0, 0.0)
        self.fitted = True
        self.last_render_ms = 0.0
        self.last_preview_ms = 0.0
        self._pairs: tuple[list[QPointF], dict[str, list[QPointF]]] = ([], {})
        self._pairs_key: tuple[Any, ...] | None = None
        self._preview: dict[str, list[tuple[int, int]]] = {}
        self._preview_local = _PreviewMesh([], [], [], {})
        self._cache: QImage | None = None
        self._cache_key: tuple[Any, ...] | None = None
        self._drag_origin: QPointF | None = None
        self._press_at: QPointF | None = None
        self._drag_button = Qt.MouseButton.NoButton
        self._shown_name: str | None = None
        self._settle = QTimer(self)
        self._settle.setSingleShot(True)
        self._settle.setInterval(SETTLE_MS)
        self._settle.timeout.connect(self._render_full)
        self._job: Iterator[None] | None = None
        self._job_timer = QTimer(self)
        self._job_timer.setInterval(0)
        self._job_timer.timeout.connect(self._render_next_batch)
        self._init_annotations()
        self._init_picking()
        self._init_overlay()

    # ----------------------------------------------------------------- data
    def show_part(self, part: Any) -> None:
        """Read the part's mesh once and fit it to the view."""
        self._forget_annotations(part)
        self.set_geometry(read_geometry(part) if part is not None else MeshGeometry())
        self._keep_selection_of(part)
        if self.geometry_data.part_name != self._shown_name:  # another part: face it
            self._shown_name = self.geometry_data.part_name
            if draws_flat(self.geometry_data, self.yaw, self.pitch):
                view = face_on_view(self.geometry_data)
                self.yaw, self.pitch = view.yaw, view.pitch
                self._view_changed()

    def set_view(self, key: str) -> None:
        """Look from one side (``PlusX`` … ``MinusZ``, ``Iso``; ``sam_host_views.VIEWS``) and
        fit the part."""
        view = VIEWS_BY_KEY[key]
        self.yaw, self.pitch = view.yaw % 360, view.pitch
        self.fit_to_view()

    def set_geometry(self, geometry: MeshGeometry) -> None:
        self.geometry_data = geometry
        self._preview = _decimate(geometry.edges, PREVIEW_EDGES)
        self._preview_local = _PreviewMesh.of(geometry, self._preview)
        self._pairs_key = None
        self.fit_to_view()

    def fit_to_view(self) -> None:
        """Centre the part and scale it to fill 90% of the smaller widget side."""
        _, radius = self.geometry_data.center_and_radius()
        side = max(1, min(self.width(), self.height()))
        self.scale = 0.45 * side / radius
        self.pan = QPointF(0.0, 0.0)
        self.fitted = True  # until the analyst zooms or pans, a resize fits the part again
        self._view_changed()

    # ------------------------------------------------------------ rendering
    def _view_key(self) -> tuple[Any, ...]:
        return (
            id(self.geometry_data), self.yaw, self.pitch, self.scale,
            self.pan.x(), self.pan.y(), self.width(), self.height(),
        )

    def _view_changed(self) -> None:
        self.update()
        self._settle.start()

    def _to_screen(self) -> tuple[float, float, float, float]:
        ox = self.width() / 2 + self.pan.x()
        oy = self.height() / 2 + self.pan.y()
        return ox, oy, self.scale, -self.scale

    def _screen_transform(self) -> QTransform:
        ox, oy, sx, sy = self._to_screen()
        return QTransform(sx, 0.0, 0.0, sy, ox, oy)

    def _pairs_steps(self) -> Iterator[None]:
        """Build the projected points and, per shape, the flat endpoint list ``drawLines``
        takes, yielding every ``BATCH`` items; cached per rotation.

        Creating Python-side Qt objects is the slow part (measured 0.43 s for 381k QLineF
        against 0.09 s for shared QPointF pairs); pan and zoom only change the painter
        transform, so they never rebuild this.
        """
        geometry, yaw, pitch = self.geometry_data, self.yaw, self.pitch
        key = (id(geometry), yaw, pitch)
        if self._pairs_key == key:
            return
        (cx, cy, cz), _ = geometry.center_and_radius()
        (a0, a1, a2), (b0, b1, b2), _ = rotation(yaw, pitch)
        points: list[QPointF] = []
        for first in range(0, geometry.node_count, BATCH):
            last = first + BATCH
            points.extend(
                QPointF(a0 * (x - cx) + a1 * (y - cy) + a2 * (z - cz),
                        b0 * (x - cx) + b1 * (y - cy) + b2 * (z - cz))
                for x, y, z in zip(geometry.xs[first:last], geometry.ys[first:last],
                                   geometry.zs[first:last], strict=True))
            yield
        pairs: dict[str, list[QPointF]] = {}
        for shape, edges in geometry.edges.items():
            endpoints: list[QPointF] = []
            for first in range(0, len(edges), BATCH):
                endpoints.extend(points[i] for edge in edges[first:first + BATCH] for i in edge)
                yield
            pairs[shape] = endpoints
        self._pairs = (points, pairs)
        self._pairs_key = key
        if geometry.node_count > FREEZE_ABOVE_NODES:
            # Hundreds of thousands of long-lived QPointF wrappers made every later full
            # garbage collection rescan them (0.16-0.26 s turns measured on rotation); frozen,
            # they are skipped (still freed by reference counting). Offline host only.
            gc.freeze()

    def _point_pairs(self) -> tuple[list[QPointF], dict[str, list[QPointF]]]:
        for _ in self._pairs_steps():
            pass
        return self._pairs

    def _draw_pairs(self, painter: QPainter, pairs: dict[str, list[QPointF]],
                    points: list[QPointF] | None) -> None:
        painter.setTransform(self._screen_transform())
        for shape in SHAPE_ORDER:
            self._draw_shape(painter, shape, pairs.get(shape) or [])
        if points and len(points) <= MAX_DRAWN_NODES:
            self._draw_nodes(painter, points)
        painter.resetTransform()

    @staticmethod
    def _draw_shape(painter: QPainter, shape: str, endpoints: list[QPointF]) -> None:
        if not endpoints:
            return
        pen = QPen(SHAPE_COLOURS.get(shape, NODE_COLOUR), 2.0 if shape == "BEAM" else 1.0)
        pen.setCosmetic(True)  # widths in pixels whatever the zoom
        painter.setPen(pen)
        painter.drawLines(endpoints)

    @staticmethod
    def _draw_nodes(painter: QPainter, points: list[QPointF]) -> None:
        pen = QPen(NODE_COLOUR, 3.0)
        pen.setCosmetic(True)
        painter.setPen(pen)
        painter.drawPoints(points)

    def _render_steps(self) -> Iterator[None]:
        """The full-detail picture into the cached image, in batches (one event-loop turn
        each when run by the timer); abandoned when the view changes meanwhile."""
        started = time.perf_counter()
        view_key = self._view_key()
        for _ in self._pairs_steps():
            yield
            if self._view_key() != view_key:
                return
        points, pairs = self._pairs
        image = QImage(max(1, self.width()), max(1, self.height()), QImage.Format.Format_RGB32)
        image.fill(BACKGROUND)
        transform = self._screen_transform()
        for shape in SHAPE_ORDER:
            endpoints = pairs.get(shape) or []
            for first in range(0, len(endpoints), 4 * BATCH):
                painter = QPainter(image)
                painter.setTransform(transform)
                self._draw_shape(painter, shape, endpoints[first:first + 4 * BATCH])
                painter.end()
                yield
                if self._view_key() != view_key:
                    return
        if points and len(points) <= MAX_DRAWN_NODES:
            painter = QPainter(image)
            painter.setTransform(transform)
            self._draw_nodes(painter, points)
            painter.end()
        self._cache = image
        self._cache_key = view_key
        self.last_render_ms = (time.perf_counter() - started) * 1000
        self.update()

    def _render_full(self) -> None:
        """Start (or restart) the batched full render; the timer runs one batch a turn."""
        self._job = self._render_steps()
        self._job_timer.start()

    def _render_next_batch(self) -> None:
        if self._job is None or next(self._job, StopIteration) is StopIteration:
            self._job = None
            self._job_timer.stop()

    def render_now(self) -> None:
        """Render full detail immediately (screenshots, tests)."""
        self._settle.stop()
        self._job_timer.stop()
        self._job = None
        for _ in self._render_steps():
            pass

    def paintEvent(self, event: Any) -> None:  # noqa: N802 (Qt override)
        painter = QPainter(self)
        if self._cache is not None and self._cache_key == self._view_key():
            painter.drawImage(0, 0, self._cache)
        else:
            painter.fillRect(self.rect(), BACKGROUND)
            if self.geometry_data.edges:
                started = time.perf_counter()
                self._draw_pairs(painter, self._preview_pairs(), None)
                self.last_preview_ms = (time.perf_counter() - started) * 1000
            if not self._settle.isActive():
                self._settle.start()
        self._draw_legend(painter)
        self._draw_plan_overlay(painter)
        self._draw_selection(painter)
        self._draw_annotations(painter)
        painter.end()

    def _preview_pairs(self) -> dict[str, list[QPointF]]:
        """Endpoints of the decimated edges at the current rotation (a small mesh: all)."""
        if self._preview is self.geometry_data.edges:
            return self._point_pairs()[1]
        return self._preview_local.pairs(self.yaw, self.pitch)

    def _say(self, text: str) -> str:
        """The host's words in its locale (``SamMainWindow`` sets ``words``)."""
        words = getattr(self, "words", None)
        return words(text) if words is not None else text

    def _draw_legend(self, painter: QPainter) -> None:
        geometry = self.geometry_data
        painter.setPen(QColor("#222222"))
        if geometry.is_empty and not geometry.part_name and self.overlay_shown:
            painter.drawText(QPointF(8, 16), self._say("No part yet: the plan builds it"))
            return
        if geometry.is_empty and not geometry.part_name:
            painter.drawText(QRectF(self.rect()), Qt.AlignmentFlag.AlignCenter,
                             self._say("No part displayed"))
            return
        text = self._say("{part}: {nodes} nodes, {elements} elements").format(
            part=geometry.part_name, nodes=geometry.node_count, elements=geometry.element_count)
        painter.drawText(QPointF(8, 16), text)
        x = 8.0
        for shape in SHAPE_ORDER:
            painter.setPen(QPen(SHAPE_COLOURS[shape], 3.0))
            painter.drawLine(QLineF(x, 28, x + 16, 28))
            painter.setPen(QColor("#222222"))
            painter.drawText(QPointF(x + 20, 32), shape)
            x += 70

    def resizeEvent(self, event: Any) -> None:  # noqa: N802
        super().resizeEvent(event)
        if self.fitted:  # the plan, when one is drawn, is fitted with the part
            self._fit_overlay() if self.overlay_shown else self.fit_to_view()
        else:
            self._view_changed()

    # --------------------------------------------------------------- mouse
    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        self._drag_origin = self._press_at = event.position()
        self._drag_button = event.button()
        if self._boxing(event):
            self._start_box(event.position())

    def _boxing(self, event: QMouseEvent) -> bool:
        return self._drag_button == Qt.MouseButton.LeftButton and bool(
            event.modifiers() & Qt.KeyboardModifier.ControlModifier)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if self._drag_origin is None:
            return
        if self._box is not None:
            self._drag_box(event.position())
            return
        delta = event.position() - self._drag_origin
        self._drag_origin = event.position()
        rotate = self._drag_button == Qt.MouseButton.LeftButton and not (
            event.modifiers() & Qt.KeyboardModifier.ShiftModifier
        )
        if rotate:
            self.yaw = (self.yaw + delta.x() * 0.5) % 360
            self.pitch = max(-180.0, min(180.0, self.pitch + delta.y() * 0.5))
        else:
            self.pan = self.pan + delta
        self.fitted = False
        self._view_changed()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        pressed, button = self._press_at, self._drag_button
        self._drag_origin = self._press_at = None
        self._drag_button = Qt.MouseButton.NoButton
        if pressed is None or button != Qt.MouseButton.LeftButton:
            return
        moved = event.position() - pressed
        click = abs(moved.x()) + abs(moved.y()) < CLICK_SLOP_PX
        toggle = bool(event.modifiers() & Qt.KeyboardModifier.ControlModifier)
        if click:
            self._box = None
            self._pick_click(event.position(), toggle)
        elif self._box is not None:
            self._finish_box()

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        self.yaw = self.pitch = 0.0
        self.fit_to_view()

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802
        factor = 1.0015 ** event.angleDelta().y()
        # Zoom about the cursor: the model point under it stays under it.
        centre = QPointF(self.width() / 2, self.height() / 2) + self.pan
        offset = event.position() - centre
        self.pan = self.pan + offset - offset * factor
        self.scale *= factor
        self.fitted = False
        self._view_changed()

    def keyPressEvent(self, event: Any) -> None:  # noqa: N802
        if event.key() == Qt.Key.Key_F:
            self.fit_to_view()
        else:
            super().keyPressEvent(event)


def _decimate(
    edges: dict[str, list[tuple[int, int]]], budget: int
) -> dict[str, list[tuple[int, int]]]:
    total = sum(len(v) for v in edges.values())
    if total <= budget:
        return edges
    step = total // budget + 1
    return {shape: bucket[::step] for shape, bucket in edges.items()}


class _PreviewMesh:
    """The decimated edges re-indexed onto their own few nodes, centred once per geometry,
    so that a drag on a 190k-element part projects only a few thousand points."""

    def __init__(self, xs: list[float], ys: list[float], zs: list[float],
                 edges: dict[str, list[tuple[int, int]]]) -> None:
        self.xs, self.ys, self.zs, self.edges = xs, ys, zs, edges

    @classmethod
    def of(cls, geometry: MeshGeometry, edges: dict[str, list[tuple[int, int]]]) -> _PreviewMesh:
        (cx, cy, cz), _ = geometry.center_and_radius()
        local: dict[int, int] = {}
        for bucket in edges.values():
            for pair in bucket:
                for i in pair:
                    local.setdefault(i, len(local))
        order = sorted(local, key=local.__getitem__)
        return cls(
            [geometry.xs[i] - cx for i in order], [geometry.ys[i] - cy for i in order],
            [geometry.zs[i] - cz for i in order],
            {shape: [(local[a], local[b]) for a, b in bucket] for shape, bucket in edges.items()},
        )

    def pairs(self, yaw: float, pitch: float) -> dict[str, list[QPointF]]:
        (a0, a1, a2), (b0, b1, b2), _ = rotation(yaw, pitch)
        points = [QPointF(a0 * x + a1 * y + a2 * z, b0 * x + b1 * y + b2 * z)
                  for x, y, z in zip(self.xs, self.ys, self.zs, strict=True)]
        return {shape: [points[i] for edge in bucket for i in edge]
                for shape, bucket in self.edges.items()}
