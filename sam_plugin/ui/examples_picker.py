"""The Examples picker names the example that runs, or none (docs/ui.md "A run in the dock").

A run started another way than by picking (History's Run again, a request typed or edited)
must not leave a different example showing: the picker then shows the example with this very
mode, target and request, or its "(choose an example request)" line.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QComboBox

from sam_plugin.compilers.protocol import Target


def matching_example(combo: QComboBox, mode: str, target: Target, request: str) -> int:
    """The index of the example with this mode, target and request; 0 (the prompt) when none."""
    wanted = " ".join(request.split())
    for index in range(combo.count()):
        example: Any = combo.itemData(index)
        if not isinstance(example, dict):
            continue
        if (example.get("mode") == mode and example.get("model") == target.model_name
                and example.get("part") == target.part_name
                and " ".join(str(example.get("request", "")).split()) == wanted):
            return index
    return 0


def select_example(combo: QComboBox, mode: str, target: Target, request: str) -> None:
    """Show the example this run is (or none), without running the picker's own action."""
    index = matching_example(combo, mode, target, request)
    if combo.currentIndex() != index:
        combo.blockSignals(True)
        try:
            combo.setCurrentIndex(index)
        finally:
            combo.blockSignals(False)
