"""The outcomes-per-layer bar chart (PNG): matplotlib when installed, else Qt offscreen.

Neither is imported until a chart is drawn, so the evaluation package stays Qt-free. Without
a running Qt application the Qt chart is drawn in a child Python: a QGuiApplication created
here would outlive the chart and stop a later QApplication (the dock, pytest-qt) from being
made in this process.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

CATEGORIES = ("accepted", "design", "provider", "tool_call", "compile", "execution",
              "verification", "acceptance", "timeout", "no_code", "cassette", "runner", "stale",
              "skipped")


def outcome_counts(report: dict[str, Any], kind: str) -> Counter[str]:
    counts: Counter[str] = Counter()
    for task in report["tasks"]:
        entry = task if kind == "pipeline" else task.get("baseline")
        if not entry:
            continue
        if entry["outcome"] in ("skipped", "stale"):
            counts[entry["outcome"]] += 1
        elif entry["accepted"]:
            counts["accepted"] += 1
        else:
            counts[entry.get("layer") or "unknown"] += 1
    return counts


def draw_outcomes(report: dict[str, Any], path: Path) -> bool:
    series = {"pipeline": outcome_counts(report, "pipeline")}
    if "baseline_totals" in report:
        series["free-python"] = outcome_counts(report, "baseline")
    labels = [c for c in CATEGORIES if any(s[c] for s in series.values())]
    labels += sorted({k for s in series.values() for k in s} - set(labels))
    try:
        return _draw_matplotlib(series, labels, path)
    except ImportError:
        pass
    try:
        from PySide6.QtGui import QGuiApplication
    except ImportError:
        return False
    if QGuiApplication.instance() is not None:
        return _draw_qt(series, labels, path)
    return _draw_qt_in_child(series, labels, path)


def _draw_qt_in_child(series: dict[str, Counter[str]], labels: list[str], path: Path) -> bool:
    import json
    import os
    import subprocess
    import sys

    payload = json.dumps({"series": {k: dict(v) for k, v in series.items()}, "labels": labels,
                          "path": str(path)})
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-c", _CHILD], input=payload, text=True, env=env,
                          capture_output=True, timeout=120)
    return done.returncode == 0 and path.is_file()


_CHILD = """
import json, sys
from collections import Counter
from PySide6.QtGui import QGuiApplication
from sam_plugin.evaluation.chart import _draw_qt
data = json.load(sys.stdin)
app = QGuiApplication([])
ok = _draw_qt({k: Counter(v) for k, v in data["series"].items()}, data["labels"], data["path"])
sys.exit(0 if ok else 1)
"""


def _draw_matplotlib(series: dict[str, Counter[str]], labels: list[str], path: Path) -> bool:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(max(6, len(labels) * 0.9), 4))
    width = 0.8 / len(series)
    for i, (name, counts) in enumerate(series.items()):
        xs = [x + i * width for x in range(len(labels))]
        ax.bar(xs, [counts[label] for label in labels], width, label=name)
    ax.set_xticks([x + width * (len(series) - 1) / 2 for x in range(len(labels))], labels,
                  rotation=30)
    ax.set_ylabel("tasks")
    ax.set_title("outcome per layer")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


_COLOURS = ("#3b7dd8", "#e08a2c", "#4caf50")


def _draw_qt(series: dict[str, Counter[str]], labels: list[str], path: Path) -> bool:
    from PySide6.QtCore import QRectF, Qt
    from PySide6.QtGui import QColor, QFont, QImage, QPainter

    slot, bar_area, left, top, bottom = 90, 220, 40, 40, 70
    width = left + slot * max(1, len(labels)) + 20
    image = QImage(width, top + bar_area + bottom, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setFont(QFont("Sans", 8))
    peak = max([1] + [c[label] for c in series.values() for label in labels])
    painter.drawText(QRectF(0, 5, width, 20), Qt.AlignmentFlag.AlignCenter,
                     "outcome per layer (tasks)")
    bar_w = (slot - 20) / len(series)
    for i, label in enumerate(labels):
        x0 = left + i * slot + 10
        for j, (_, counts) in enumerate(series.items()):
            h = bar_area * counts[label] / peak
            rect = QRectF(x0 + j * bar_w, top + bar_area - h, bar_w - 2, h)
            painter.fillRect(rect, QColor(_COLOURS[j % len(_COLOURS)]))
            painter.drawText(QRectF(rect.x(), rect.y() - 14, bar_w, 14),
                             Qt.AlignmentFlag.AlignCenter, str(counts[label]))
        painter.drawText(QRectF(x0 - 10, top + bar_area + 4, slot, 16),
                         Qt.AlignmentFlag.AlignCenter, label)
    for j, name in enumerate(series):
        y = top + bar_area + 30 + j * 16
        painter.fillRect(QRectF(left, y, 12, 12), QColor(_COLOURS[j % len(_COLOURS)]))
        painter.drawText(QRectF(left + 18, y - 2, 200, 16), Qt.AlignmentFlag.AlignLeft, name)
    painter.end()
    return image.save(str(path), "PNG")

