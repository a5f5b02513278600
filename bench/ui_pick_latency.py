"""GUI latency of picking and of the plan drawn in the main viewport, on a 188,356-node part
(434 x 434 nodes, 187,489 QUADs) in the offline host with the dock.

A run on the selection, as the analyst makes it: a click picks an element, Ctrl+drag picks
the first 12 elements in a box, the request acting on them is streamed at 200 chunks per
second, confirmed, its plan drawn in the main viewport, the view dragged while the plan
waits, then executed and verified. Each GUI-thread step the picking and the preview add is
timed: the click and the box each from the mouse button's release (the viewport's own mouse
events, sent) to the frame that shows the selection painted; the dock's hand-over of the
plan to the viewport; what drawing the selection and the plan adds to the slowest frame of a
drag (against the same drag with neither drawn: the viewport's own decimated frame, printed
beside); and the longest stall of a 5 ms heartbeat while the spec streams with the selection
drawn (how late a click then would be answered). The whole-part reads of the run itself
(observation, drift check, the one execution, readback) are the host's work and are printed
apart.

The budget is what a person perceives: an answer within 100 ms of an input feels immediate
(the classic limit for direct manipulation: Card, Moran and Newell, *The Psychology of
Human-Computer Interaction*, 1983; Nielsen, *Usability Engineering*, 1993, ch. 5), so each
step is held to 100 ms: a click or a box answered with its frame, the plan's hand-over, a
drag frame's added drawing, a stall a click could land in. The machine is shared (2 cores
for many): the load is printed beside, and a step measured in wall time moves with it (on a
machine with a load of 5 to 9 the worst step, the click, measured 22-33 ms; its first
frame once paid 40 ms more for numpy's first ``np.unique``, which imports ``numpy.ma``).

    QT_QPA_PLATFORM=offscreen .venv/bin/python bench/ui_pick_latency.py

Last line: ``ratio=<the longest of those steps ms / 100 ms> goal<=1``.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "stubs"))  # the offline SAM, for the benchmark only
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

N = 100 if os.environ.get("BENCH_SMOKE") == "1" else 434  # CI: a small grid
CHUNKS_PER_SECOND = 200
HEARTBEAT_MS = 5
BUDGET_MS = 100.0  # an input answered within it feels immediate (the docstring says why)
DRAG_FRAMES = 12
PICKED = list(range(1, 13))
SPEC: dict[str, Any] = {
    "summary": "Translate the selected elements by (0, 0, 5).",
    "steps": [{"capability": "transform", "action": "translate",
               "scope": {"by": "labels", "labels": PICKED}, "values": {"vector": [0, 0, 5]},
               "text": "Translate the selection by 5 along Z."}]}


def build_grid(sam: Any) -> None:
    from samConstants import QUAD

    part = sam.mdb.models["Model-1"].Part(name="Grid")
    nodes = [part.Node((float(i), float(j), 0.0)) for j in range(N) for i in range(N)]
    for j in range(N - 1):
        for i in range(N - 1):
            a = j * N + i
            part.Element((nodes[a], nodes[a + 1], nodes[a + N + 1], nodes[a + N]), QUAD)


def long_spec() -> str:
    spec = json.loads(json.dumps(SPEC))
    for i in range(12):  # about 500 characters of words: a second and more of streaming
        note = f" Note {i}: only the picked elements move; their neighbours stay."
        if len(spec["summary"]) + len(note) <= 500:
            spec["summary"] += note
    return json.dumps(spec, indent=2)


def timed_ms(action: Any) -> tuple[float, Any]:
    started = time.perf_counter()
    value = action()
    return (time.perf_counter() - started) * 1000, value


def main() -> int:
    from PySide6.QtCore import QEvent, QPointF, QRectF, Qt, QTimer
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])
    work = Path(tempfile.mkdtemp(prefix="sam-agent-bench-"))
    from sam_plugin.demo.examples import WORKSPACE_FILE
    from sam_plugin.demo.loopback import FakeProvider, StreamResponse
    from sam_plugin.demo.streams import openai_stream

    shutil.copyfile(WORKSPACE_FILE, work / "sample.sam.json")
    os.environ["SAM_AGENT_RUNS_DIR"] = str(work / "runs")
    os.environ["SAM_AGENT_SETTINGS_FILE"] = str(work / "settings.json")
    pieces = [p.encode() for p in openai_stream(content=long_spec(), fragment_size=4)]
    provider = FakeProvider(responder=lambda request: StreamResponse(
        pieces, delay=1.0 / CHUNKS_PER_SECOND))
    os.environ.update(SAM_AGENT_BASE_URL=provider.base_url, SAM_AGENT_MODEL="bench",
                      SAM_AGENT_PROFILE="vllm")
    import sam
    import sam_host

    from sam_plugin.ui.automation import pump_until, submit_request
    from sam_plugin.ui.dock import SamAgentDock
    from sam_plugin.ui.host_adapter import instance_for

    window = sam_host.create_window(work / "sample.sam.json")
    window.resize(1400, 900)
    window.show()
    dock = window.findChild(SamAgentDock, "samAgentDock")
    pump_until(instance_for(window.host).prewarm.done.is_set, 60, "the prewarm thread")
    build_grid(sam)
    viewport = window.viewport
    display_ms, _ = timed_ms(lambda: window.display_part("Model-1", "Grid"))
    dock.set_target("part", "Model-1", "Grid")
    viewport.set_view("PlusZ")
    viewport.render_now()
    plain_ms = drag_ms_of(viewport)  # the same drag with nothing picked and no plan drawn
    viewport.set_view("PlusZ")
    viewport.render_now()

    px, py = viewport._screen_points()
    a = N + 66  # the nodes of the element clicked: row 1, column 66
    quad = [a, a + 1, a + N + 1, a + N]
    centre = QPointF(float(px[quad].mean()), float(py[quad].mean()))
    press(viewport, centre)
    click_ms, _ = timed_ms(lambda: answered(viewport, centre))
    clicked = list(viewport.selected)
    corners = [i + j * N for j in (0, 1) for i in range(len(PICKED) + 1)]
    box = QRectF(QPointF(float(px[corners].min()) - 0.3, float(py[corners].min()) - 0.3),
                 QPointF(float(px[corners].max()) + 0.3, float(py[corners].max()) + 0.3))
    control = Qt.KeyboardModifier.ControlModifier
    press(viewport, box.topLeft(), control)
    mouse(viewport, QEvent.Type.MouseMove, box.bottomRight(), control)
    box_ms, _ = timed_ms(lambda: answered(viewport, box.bottomRight(), control))
    if viewport.selected != PICKED:
        print(f"the box picked {viewport.selected[:20]}, not elements 1-12")
        return 1

    beats: list[float] = []
    heartbeat = QTimer()
    heartbeat.setTimerType(Qt.TimerType.PreciseTimer)
    heartbeat.setInterval(HEARTBEAT_MS)
    heartbeat.timeout.connect(lambda: beats.append(time.perf_counter()))
    marks: dict[str, float] = {}

    def on_event(event: Any) -> None:
        now = time.perf_counter()
        if event.name == "design_delta":
            marks.setdefault("streaming", now)
        elif event.name == "design_received":
            marks["streamed"] = now
        elif event.name in ("execution_submitted", "execution_completed"):
            marks[event.name] = now

    dock._ensure_controller().subscribe(on_event)
    heartbeat.start()
    started = time.perf_counter()
    in_review = submit_request(dock, "part", "Model-1", "Grid",
                               "translate the selection by 5 along z", timeout=120)
    review_s = time.perf_counter() - started
    heartbeat.stop()
    stream_ms = _longest_gap_ms(beats, marks.get("streaming"), marks.get("streamed"))
    if not in_review:
        print(f"not in Review: {dock.status_label.text()}")
        return 1

    link = dock.viewport_link
    handed: list[float] = []
    original = link.show_preview

    def timed_preview(*args: Any) -> None:
        ms, _ = timed_ms(lambda: original(*args))
        handed.append(ms)

    link.show_preview = timed_preview  # type: ignore[method-assign]
    started = time.perf_counter()
    dock.confirm_button.click()
    pump_until(lambda: not dock.busy, 120, "the plan")
    plan_s = time.perf_counter() - started
    drawn = viewport.overlay_counts
    drag_ms = drag_ms_of(viewport)  # a drag while the plan waits: selection and plan drawn
    started = time.perf_counter()
    dock.execute_button.click()
    pump_until(lambda: not dock.busy and "Plan" not in dock.status_label.text(), 120,
               "the run to finish")
    execute_s = time.perf_counter() - started
    status = dock.status_label.text()
    cleared = not viewport.overlay_shown
    window.shutdown()
    provider.close()
    app.processEvents()

    exec_ms = (marks["execution_completed"] - marks["execution_submitted"]) * 1000 \
        if {"execution_submitted", "execution_completed"} <= marks.keys() else float("nan")
    preview_ms = max(handed) if handed else float("nan")
    steps = {"click pick": click_ms, "box pick": box_ms, "stream (heartbeat)": stream_ms,
             "plan to viewport": preview_ms,
             "drag frame, added": max(0.0, drag_ms - plain_ms)}
    print(f"status: {status.splitlines()[0] if status else ''}")
    print(f"part: {N * N} nodes, {(N - 1) ** 2} elements; displayed in {display_ms:.0f} ms "
          f"(the host's read); click picked {clicked}; the box picked {len(PICKED)} elements")
    print(f"run (host work, not counted): to Review {review_s:.1f} s, to the plan {plan_s:.1f} s "
          f"(outlines drawn {drawn}), execute+verify {execute_s:.1f} s, "
          f"the one execution {exec_ms:.0f} ms; preview cleared at the end: {cleared}")
    print(f"drag frame (grab) with the selection and the plan drawn {drag_ms:.1f} ms, with "
          f"neither {plain_ms:.1f} ms (the viewport's own decimated frame)")
    for name, ms in steps.items():
        print(f"{name:<22} {ms:8.1f} ms  (budget {BUDGET_MS:.0f} ms)")
    if "Verified" not in status or not cleared:
        print("the run did not verify (or left its preview): the measurement is not valid")
    worst = max(v for v in steps.values() if v == v)
    print(f"ratio={worst / BUDGET_MS:.3f} goal<=1")
    return 0 if "Verified" in status else 1


def mouse(viewport: Any, kind: Any, point: Any, modifiers: Any = None) -> None:
    """The viewport's own mouse event of ``kind`` at ``point`` (the left button), sent."""
    from PySide6.QtCore import QEvent, Qt
    from PySide6.QtGui import QMouseEvent
    from PySide6.QtWidgets import QApplication

    left = Qt.MouseButton.LeftButton
    held = Qt.MouseButton.NoButton if kind == QEvent.Type.MouseButtonRelease else left
    QApplication.sendEvent(viewport, QMouseEvent(
        kind, point, viewport.mapToGlobal(point), left, held,
        modifiers if modifiers is not None else Qt.KeyboardModifier.NoModifier))


def press(viewport: Any, point: Any, modifiers: Any = None) -> None:
    from PySide6.QtCore import QEvent

    mouse(viewport, QEvent.Type.MouseButtonPress, point, modifiers)


def answered(viewport: Any, point: Any, modifiers: Any = None) -> None:
    """The button released at ``point``, then the frame that shows what it picked."""
    from PySide6.QtCore import QEvent

    mouse(viewport, QEvent.Type.MouseButtonRelease, point, modifiers)
    viewport.repaint()


def drag_ms_of(viewport: Any) -> float:
    """The slowest of ``DRAG_FRAMES`` frames of a drag (each a new rotation, then a paint)."""
    frames = []
    for step in range(DRAG_FRAMES):
        viewport.yaw = (viewport.yaw + 7.0) % 360
        viewport.pitch = -3.0 * step
        ms, _ = timed_ms(viewport.grab)
        frames.append(ms)
    return max(frames)


def _longest_gap_ms(beats: list[float], start: float | None, end: float | None) -> float:
    if start is None or end is None:
        return float("nan")
    inside = [b for b in beats if start <= b <= end]
    gaps = [b - a for a, b in zip(inside, inside[1:], strict=False)]
    return max(gaps, default=0.0) * 1000


if __name__ == "__main__":
    raise SystemExit(main())
