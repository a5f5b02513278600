"""The dock's link to the host's main viewport: what is picked there, and the plan's preview
drawn there (docs/ui.md "Picking", "The plan in the viewport").

Both are optional host services (``sam_plugin/host_api.py``): ``selection()`` with
``add_selection_listener``/``remove_selection_listener``, and ``show_plan_preview``/
``clear_plan_preview``. Each is feature-detected: with a host that lacks one, the link does
nothing for it (the dock's own small preview still shows the plan), and a host call that
raises is logged, never let through to the dock.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from PySide6.QtCore import QObject, Signal

from sam_plugin.compilers.protocol import Target
from sam_plugin.runtime.selection import Selection

log = logging.getLogger(__name__)
# the dock preview's layer -> the host's (the moved elements at their new place are touched)
# and the nodes the plan deletes, as points (a host that does not draw them ignores the key)
HOST_LAYERS = {"touched": "moved", "added": "added", "deleted": "deleted",
               "deleted_nodes": "deleted_nodes"}
# sent only when the plan has one: the region the calls act on, left as it is
# (element outlines, and its nodes as points)
HOST_REGION_LAYERS = {"acted_on": "acted_on", "acted_on_nodes": "acted_on_nodes"}
POINT_LAYERS = ("deleted_nodes", "acted_on_nodes")


class ViewportLink(QObject):
    selectionChanged = Signal()  # noqa: N815 (Qt naming): the host's pick changed

    def __init__(self, host: Any = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._host = host
        self.can_pick = all(callable(getattr(host, name, None)) for name in (
            "selection", "add_selection_listener", "remove_selection_listener"))
        self.can_preview = all(callable(getattr(host, name, None)) for name in (
            "show_plan_preview", "clear_plan_preview"))
        self.preview_shown = False
        if self.can_pick:
            self._call("add_selection_listener", self._on_host_selection)

    def _on_host_selection(self, *args: Any) -> None:
        self.selectionChanged.emit()

    def _call(self, name: str, *args: Any) -> Any:
        try:
            return getattr(self._host, name)(*args)
        except Exception:  # noqa: BLE001 - a host's failure must not break the dock
            log.exception("host %s failed", name)
            return None

    # --------------------------------------------------------------- picking
    def selection_for(self, target: Target) -> Selection | None:
        """What is picked now on ``target``'s part (None: nothing, another part, or a host
        that cannot pick)."""
        if not self.can_pick:
            return None
        found = self._call("selection")
        if not isinstance(found, Mapping) or not found.get("labels"):
            return None
        if (found.get("model_name"), found.get("part_name")) != (target.model_name,
                                                                 target.part_name):
            return None
        try:
            return Selection(kind=found.get("kind", "elements"),
                             labels=tuple(int(label) for label in found["labels"]))
        except (TypeError, ValueError):
            log.warning("host selection not understood: %r", found)
            return None

    # ---------------------------------------------------------------- preview
    def show_preview(self, target: Target,
                     layers: Mapping[str, Sequence[Sequence[Sequence[float]]]]) -> None:
        """The dock preview's outlines (``PlanPreview.layers``) drawn over the part in the
        host's viewport: touched amber, added green, deleted red, and the region the calls
        act on (``acted_on``, ``acted_on_nodes``), only when the plan has one."""
        if not self.can_preview:
            return
        # outlines (point lists), and a point layer's points
        host_layers: dict[str, list[Any]] = {
            name: [list(map(list, outline)) for outline in layers.get(ours) or []]
            for name, ours in HOST_LAYERS.items()}
        host_layers.update({name: [list(map(list, outline)) for outline in layers[ours]]
                            for name, ours in HOST_REGION_LAYERS.items() if layers.get(ours)})
        for name in POINT_LAYERS:
            if name in host_layers:
                host_layers[name] = [outline[0] for outline in host_layers[name] if outline]
        self._call("show_plan_preview", target.model_name, target.part_name, host_layers)
        self.preview_shown = True

    def clear_preview(self) -> None:
        if self.can_preview and self.preview_shown:
            self._call("clear_plan_preview")
        self.preview_shown = False

    def detach(self) -> None:
        """Stop listening and take the preview away (the dock is unloaded)."""
        self.clear_preview()
        if self.can_pick:
            self._call("remove_selection_listener", self._on_host_selection)
            self.can_pick = False
