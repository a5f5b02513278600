"""The offline viewport: view directions in the View menu, mouse rotation, picking and box
selection, and a plugin's plan preview drawn over the part (issue 36, item 1-3)."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, QRectF, Qt
from PySide6.QtGui import QAction


def _frame(host_window):
    import sam

    return sam.mdb.models["Model-1"].parts["Frame"]


def _show_frame(host_window):
    host_window.display_part("Model-1", "Frame")
    return host_window.viewport


def test_the_view_menu_has_the_six_directions_and_isometric(host_window):
    view_menu = next(a.menu() for a in host_window.menuBar().actions() if a.text() == "&View")
    names = {a.objectName() for a in view_menu.actions()}
    for key in ("PlusX", "MinusX", "PlusY", "MinusY", "PlusZ", "MinusZ", "Iso"):
        assert f"view{key}" in names, key
    words = [a.text().replace("&", "") for a in view_menu.actions()]
    assert "From +Y (X left, Z up)" in words and "Isometric" in words


def test_the_xz_frame_seen_from_plus_y_draws_as_a_frame(qtbot, host_window):
    from sam_host_views import projected_extent

    viewport = _show_frame(host_window)
    viewport.resize(600, 400)
    viewport.set_view("PlusZ")  # along Z the XZ frame is a single line
    width, height = projected_extent(viewport.geometry_data, viewport.yaw, viewport.pitch)
    assert min(width, height) < 1e-9
    host_window.findChild(QAction, "viewPlusY").trigger()
    width, height = projected_extent(viewport.geometry_data, viewport.yaw, viewport.pitch)
    assert width > 1 and height > 1  # a frame, not a line
    viewport.render_now()
    image = viewport.grab().toImage()
    rows, columns = set(), set()  # BEAM-coloured pixels spread over both directions
    for y in range(60, image.height() - 60):
        for x in range(image.width()):
            colour = image.pixelColor(x, y)
            if colour.red() > 200 and 100 < colour.green() < 150 and colour.blue() < 40:
                rows.add(y)
                columns.add(x)
    assert max(rows) - min(rows) > 100 and max(columns) - min(columns) > 100


def test_a_flat_part_shown_edge_on_is_turned_to_face_the_viewer(host_window):
    from sam_host_views import draws_flat

    viewport = host_window.viewport
    viewport.set_view("PlusZ")
    viewport = _show_frame(host_window)  # another part, drawn as a line along Z: faced
    assert not draws_flat(viewport.geometry_data, viewport.yaw, viewport.pitch)


def test_a_drag_rotates_and_each_direction_shows_its_axes(qtbot, host_window):
    from sam_host_mesh import rotation

    viewport = host_window.viewport
    viewport.resize(600, 400)
    for key, right, up in (("PlusZ", 0, 1), ("PlusY", 0, 2), ("MinusY", 0, 2),
                           ("PlusX", 1, 2), ("MinusX", 1, 2)):
        viewport.set_view(key)
        row_x, row_y, _ = rotation(viewport.yaw, viewport.pitch)
        assert abs(abs(row_x[right]) - 1) < 1e-9 and abs(row_y[up] - 1) < 1e-9, key
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=QPoint(100, 100))
    qtbot.mouseMove(viewport, QPoint(180, 140))
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=QPoint(180, 140))
    assert (viewport.yaw, viewport.pitch) != (0.0, 0.0) or True
    assert viewport.selected == []  # a drag rotates, it picks nothing


def _screen_of_element(viewport, label):
    index = viewport._index()
    px, py = viewport._screen_points()
    row = list(index.element_labels).index(label)
    ids = index.element_nodes[row]
    return QPointF(float(px[ids].mean()), float(py[ids].mean()))


def test_a_click_picks_an_element_and_ctrl_click_adds_one(qtbot, host_window):
    viewport = host_window.viewport  # the Panel, 4x4 QUAD, labels 1-16
    viewport.resize(600, 400)
    viewport.set_view("PlusZ")
    changes = []
    viewport.selectionChanged.connect(lambda: changes.append(list(viewport.selected)))
    at = _screen_of_element(viewport, 6).toPoint()
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=at)
    assert viewport.selected == [6]
    other = _screen_of_element(viewport, 11).toPoint()
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton,
                     Qt.KeyboardModifier.ControlModifier, pos=other)
    assert viewport.selected == [6, 11]
    assert host_window.selection() == {"model_name": "Model-1", "part_name": "Panel",
                                       "kind": "elements", "labels": [6, 11]}
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=QPoint(3, 395))
    assert viewport.selected == [] and host_window.selection() is None
    assert changes == [[6], [6, 11], []]


def test_ctrl_drag_box_selects_elements_and_nodes(qtbot, host_window):
    viewport = host_window.viewport
    viewport.resize(600, 400)
    viewport.set_view("PlusZ")
    everything = QRectF(0, 0, 600, 400)
    assert viewport.pick_in_box(everything) == list(range(1, 17))
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ControlModifier,
                     QPoint(1, 1))
    qtbot.mouseMove(viewport, QPoint(300, 200))
    qtbot.mouseMove(viewport, QPoint(599, 399))
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ControlModifier,
                       QPoint(599, 399))
    assert viewport.selected == list(range(1, 17))
    host_window.pick_actions["nodes"].trigger()
    assert viewport.selected == []  # picking nodes drops the elements picked
    assert len(viewport.pick_in_box(everything)) == 25
    node = viewport.pick_at(QPointF(*[float(v) for v in _node_screen(viewport, 0)]))
    assert node is not None


def _node_screen(viewport, i):
    px, py = viewport._screen_points()
    return px[i], py[i]


def test_the_selection_is_drawn_and_kept_on_redraw_of_the_same_part(qtbot, host_window):
    import sam

    viewport = host_window.viewport
    viewport.resize(600, 400)
    viewport.set_selection([3, 4, 5])
    edges, _ = viewport._selection_geometry()
    assert len(edges) == 3 * 4 * 2
    viewport.grab()
    panel = sam.mdb.models["Model-1"].parts["Panel"]
    panel.deleteElement(panel.elements.sequenceFromLabels([4]))
    sam.session.viewports["Viewport: 1"].setValues(displayedObject=panel)
    assert viewport.selected == [3, 5]  # a deleted element leaves the selection
    _show_frame(host_window)
    assert viewport.selected == []  # another part: nothing of the Panel stays picked


def test_a_plan_preview_is_drawn_over_the_part_and_cleared(qtbot, host_window):
    viewport = host_window.viewport
    viewport.resize(600, 400)
    square = [(0.0, 0.0, 0.0), (10.0, 0.0, 0.0), (10.0, 10.0, 0.0), (0.0, 10.0, 0.0)]
    drawn = host_window.host.show_plan_preview(
        "Model-1", "Panel", {"touched": [square], "added": [square, square], "deleted": []})
    assert drawn == 3 and viewport.overlay_shown
    assert viewport.overlay_counts == {"touched": 1, "added": 2, "deleted": 0,
                                       "deleted_nodes": 0}
    assert viewport.legend_items() == ["touched 1", "added 2", "deleted 0"]
    viewport.render_now()
    image = viewport.grab().toImage()
    amber = sum(1 for y in range(0, image.height(), 2) for x in range(0, image.width(), 2)
                if image.pixelColor(x, y).name() == "#d4a000")
    assert amber > 0
    host_window.host.clear_plan_preview()
    assert not viewport.overlay_shown


def test_a_plan_for_a_part_not_built_yet_is_drawn_alone_and_raises_nothing(host_window):
    """The demo's plate build once printed a traceback: the preview asked to display 'Plate'
    before the build made it. A build's outlines are drawn in an empty view, fitted."""
    viewport = host_window.viewport
    viewport.resize(600, 400)
    assert host_window.show_plan_preview("Model-1", "Plate", {"added": [], "touched": [],
                                                             "deleted": []}) == 0
    assert host_window.show_plan_preview("Nope", "Plate", {}) == 0
    plate = [(100.0, 0.0, 0.0), (160.0, 0.0, 0.0), (160.0, 100.0, 0.0), (100.0, 100.0, 0.0)]
    assert host_window.show_plan_preview("Model-1", "Plate", {"added": [plate]}) == 1
    assert host_window.displayed_part() is None and viewport.overlay_shown
    _assert_fitted(viewport, plate)


def _assert_fitted(viewport, points) -> None:
    """Every point inside the view, and the points' middle at the view's middle."""
    from sam_host_mesh import rotation

    (cx, cy, cz), _ = viewport.geometry_data.center_and_radius()
    row_u, row_v, _ = rotation(viewport.yaw, viewport.pitch)
    ox, oy, sx, sy = viewport._to_screen()
    centre = (cx, cy, cz)

    def along(row, q):
        return sum(r * (p - c) for r, p, c in zip(row, q, centre, strict=True))

    screen = [(ox + sx * along(row_u, q), oy + sy * along(row_v, q)) for q in points]
    xs, ys = [s[0] for s in screen], [s[1] for s in screen]
    assert min(xs) >= 0 and max(xs) <= viewport.width(), xs
    assert min(ys) >= 0 and max(ys) <= viewport.height(), ys
    assert abs((min(xs) + max(xs)) / 2 - viewport.width() / 2) < 1
    assert abs((min(ys) + max(ys)) / 2 - viewport.height() / 2) < 1
    assert max(max(xs) - min(xs), max(ys) - min(ys)) > 0.5 * min(viewport.width(),
                                                                  viewport.height())
