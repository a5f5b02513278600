"""The host object SAM hands to ``sam_plugin.load(host)``: what the plugin needs of it.

``PluginHost`` lists the members every host must have; ``OptionalHostMembers`` lists those
a host may leave out, each with what the plugin does without it (``OPTIONAL_DEFAULTS``).
A host does not inherit from either: any object with these members will do (the offline
host is ``stubs/sam_host_plugins.py:SamHost``). ``docs/install.md`` is the integrator's
account of the same page. This module imports no Qt, so that the load check can run before
anything imports PySide6 (docs/architecture.md §9).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from PySide6.QtWidgets import QDockWidget, QMainWindow


class PluginHost(Protocol):
    """Required: a host without one of these is refused at load with one line naming it."""

    #: the host's main window, a PySide6 ``QMainWindow``; the dock is parented to it
    main_window: QMainWindow
    #: the host's ``sam`` module (``mdb``, ``session``, ``openMdb``: docs/architecture.md §3)
    sam_module: Any

    def add_dock_widget(self, dock: QDockWidget, area: str) -> None:
        """Dock ``dock`` in the main window; ``area`` is ``left|right|top|bottom``."""

    def remove_dock_widget(self, dock: QDockWidget) -> None:
        """Take ``dock`` out of the main window again (unload deletes it afterwards)."""


class OptionalHostMembers(Protocol):
    """Optional: each may be absent; ``OPTIONAL_DEFAULTS`` says what happens then."""

    #: the UI language, a Qt locale name such as ``en_US`` or ``zh_CN``
    locale: str
    #: where the host wants the dock (the manifest's ``dock.area``)
    dock_area: str
    #: the host's version, compared with the manifest's ``min_host_version`` at load
    host_version: str
    #: the Qt binding the host's GUI runs on, e.g. ``"PySide6 6.11.3"`` or ``"PyQt5 5.15.10"``
    qt_binding: str

    def highlight_elements(self, model_name: str, part_name: str, labels: list[int]) -> int:
        """Show these elements highlighted in the viewport; returns how many were shown."""

    def selection(self) -> dict[str, Any] | None:
        """What is picked in the viewport: ``{model_name, part_name, kind: "elements" |
        "nodes", labels: [int, ...]}``, or None when nothing is."""

    def add_selection_listener(self, callback: Callable[[], Any]) -> None:
        """Call ``callback()`` after every change of what is picked."""

    def remove_selection_listener(self, callback: Callable[[], Any]) -> None:
        """Stop calling ``callback`` (unload)."""

    def show_plan_preview(self, model_name: str, part_name: str,
                          layers: dict[str, Any]) -> int:
        """Draw a plan's outlines over the part, ``{touched, added, deleted: [[[x, y, z],
        ...], ...]}`` (amber, green, red), and the nodes it deletes, ``deleted_nodes: [[x, y,
        z], ...]`` (red points; a host may ignore the key), until ``clear_plan_preview``; a
        part that does not exist yet (a build) is drawn on its own. Fit the view to the part
        and the plan together; returns how many are drawn. A plan that acts on a region and
        leaves it as it is (applies something to it) sends it as ``acted_on`` (element
        outlines) and ``acted_on_nodes`` (points), each only when it has one; a host may
        ignore them."""

    def clear_plan_preview(self) -> None:
        """Take the plan's outlines away again."""


REQUIRED_MEMBERS: tuple[str, ...] = (
    "main_window", "sam_module", "add_dock_widget", "remove_dock_widget")

OPTIONAL_DEFAULTS: dict[str, str] = {
    "locale": "en_US (the English UI)",
    "dock_area": "right",
    "host_version": "not compared: the host checks min_host_version itself",
    "qt_binding": "read from the class of main_window",
    "highlight_elements": "the dock lists labels instead of showing them",
    "selection": "requests cannot act on a selection (the dock shows no selection row)",
    "add_selection_listener": "as without selection",
    "remove_selection_listener": "as without selection",
    "show_plan_preview": "the plan is drawn in the dock's own small preview only",
    "clear_plan_preview": "as without show_plan_preview",
}
