"""The offline SAM host window: the stand-in for SAM's main window (docs/architecture.md §9).

``create_window(workspace=None)`` opens ``workspace`` (a ``*.sam.json``), loads the plugins
named by ``plugin.json`` with a host object, and returns the (not yet shown) main window.
The caller owns the QApplication. ``python stubs/sam_host.py [workspace]`` runs it alone.

This module is only importable with ``stubs/`` on ``sys.path`` (tests, the demo); it is never
installed, because the real SAM provides its own ``sam`` module.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from PySide6.QtCore import QLocale, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QMainWindow,
    QMessageBox,
    QSplitter,
)
from sam_host_plugins import (
    DEFAULT_MANIFEST,
    LoadedPlugin,
    PluginManifest,
    SamHost,
    load_plugin,
    unload_plugin,
)
from sam_host_tree import ModelTree
from sam_host_viewport import MeshViewport
from sam_host_views import VIEWS
from sam_host_words import HostWords

WINDOW_TITLE = "SAM (offline)"
VIEWPORT_NAME = "Viewport: 1"
FILE_FILTER = "SAM workspace (*.sam.json)"


def host_locale() -> str:
    """``SAM_HOST_LOCALE`` (e.g. ``zh_CN``) when set, else the system locale's name."""
    return os.environ.get("SAM_HOST_LOCALE", "").strip() or QLocale.system().name()


class SamMainWindow(QMainWindow):
    """Model tree on the left, mesh viewport in the centre, plugin docks on the right."""

    displayChanged = Signal()  # noqa: N815 (Qt naming); emitted by the viewport listener

    def __init__(self, sam_module: Any, locale: str | None = None) -> None:
        super().__init__()
        self.setObjectName("samMainWindow")
        self.setWindowTitle(WINDOW_TITLE)
        self.resize(1400, 860)
        self.sam = sam_module
        self.workspace_path: Path | None = None
        self._shut_down = False
        self.plugins: list[LoadedPlugin] = []
        self.host = SamHost(main_window=self, sam_module=sam_module,
                            locale=locale or host_locale())
        self.words = HostWords(self.host.locale)  # the host's own words in its locale
        self.model_tree = ModelTree(words=self.words)
        self.viewport = MeshViewport()
        self.viewport.words = self.words
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.model_tree)
        splitter.addWidget(self.viewport)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([260, 800])
        self.setCentralWidget(splitter)
        self._build_menus()
        self.model_tree.partActivated.connect(self.display_part)
        self.displayChanged.connect(self.refresh_from_host)
        self._listening_to: Any = None
        self._listen()
        self._saved_state = self._state()  # the database as last opened or saved
        self.statusBar().showMessage(self.words("Ready"))

    # ------------------------------------------------------------- host sync
    def _viewport(self) -> Any:
        return self.sam.session.viewports[VIEWPORT_NAME]

    def _listen(self) -> None:
        viewport = self._viewport()
        if hasattr(viewport, "addListener"):
            viewport.addListener(self._on_viewport_changed)
            self._listening_to = viewport

    def _on_viewport_changed(self, *args: Any, **kwargs: Any) -> None:
        # The listener may fire inside the one script execution; a signal keeps the redraw on
        # the GUI thread whichever thread called setValues.
        self.displayChanged.emit()

    def displayed_part(self) -> Any:
        return getattr(self._viewport(), "displayedObject", None)

    def refresh_from_host(self) -> None:
        """Re-read the model tree and redraw the displayed part."""
        self.model_tree.refresh(self.sam.mdb)
        self.viewport.show_part(self.displayed_part())

    def display_part(self, model_name: str, part_name: str) -> None:
        part = self.sam.mdb.models[model_name].parts[part_name]
        self._viewport().setValues(displayedObject=part)
        if self._listening_to is None:
            self.refresh_from_host()

    def highlight_elements(self, model_name: str, part_name: str, labels: list[int]) -> int:
        """Display the part and outline ``labels`` in red (what a plugin asks the host to
        show, e.g. an audit's worst elements); returns how many were found."""
        self.display_part(model_name, part_name)
        part = self.sam.mdb.models[model_name].parts[part_name]
        return self.viewport.highlight_elements(part, labels)

    def display_first_meshed_part(self) -> None:
        """After opening a workspace, show the first part that has elements (if any)."""
        for model_name in self.sam.mdb.models.keys():
            parts = self.sam.mdb.models[model_name].parts
            for part_name in parts.keys():
                if len(parts[part_name].elements):
                    self.display_part(model_name, part_name)
                    return
        self.refresh_from_host()

    # ------------------------------------------------------------ workspace
    def open_workspace(self, path: str | os.PathLike[str]) -> None:
        self.sam.openMdb(str(path))
        self.workspace_path = Path(path)
        self.setWindowTitle(f"{WINDOW_TITLE} — {self.workspace_path.name}")
        self._saved_state = self._state()
        self.display_first_meshed_part()
        self.statusBar().showMessage(self.words("Opened {path}").format(
            path=self.workspace_path))

    def save_workspace(self, path: str | os.PathLike[str]) -> None:
        self.sam.mdb.saveAs(str(path))
        self.workspace_path = Path(path)
        self.setWindowTitle(f"{WINDOW_TITLE} — {self.workspace_path.name}")
        self._saved_state = self._state()
        self.statusBar().showMessage(self.words("Saved {path}").format(
            path=self.workspace_path))

    def new_workspace(self) -> None:
        """An empty database (one empty model), as SAM starts."""
        from sam.database import Mdb

        self.sam.mdb = Mdb()
        self.sam.session._reset()
        self.workspace_path = None
        self.setWindowTitle(WINDOW_TITLE)
        self._saved_state = self._state()
        self.display_first_meshed_part()
        self.statusBar().showMessage(self.words("New workspace"))

    def _state(self) -> bytes:
        """The whole database as its file would hold it (what a save would write)."""
        import pydantic_core
        from sam.storage import mdb_doc

        return bytes(pydantic_core.to_json(mdb_doc(self.sam.mdb)))

    def unsaved_changes(self) -> bool:
        """The database differs from the one last opened or saved (a run changed it)."""
        return self._state() != self._saved_state

    def confirm_discard(self, doing: str, then: Callable[[], None]) -> QMessageBox | None:
        """``then`` (quit, open, new) at once without unsaved changes; with them, after asking
        Save, Discard or Cancel (``unsavedChangesDialog``, window-modal and not blocking:
        returned). Save that does not save (Save As cancelled, a failed write) does not go on."""
        if not self.unsaved_changes():
            then()
            return None
        words = self.words
        where = self.workspace_path.name if self.workspace_path else words("a workspace file")
        box = QMessageBox(QMessageBox.Icon.Warning, WINDOW_TITLE,
                          words("The model has changes that are not saved in {where}. Save "
                                "them before you {doing}?").format(where=where,
                                                                  doing=words(doing)),
                          QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                          | QMessageBox.StandardButton.Cancel, self)
        box.setObjectName("unsavedChangesDialog")
        box.setDefaultButton(QMessageBox.StandardButton.Save)

        def answered(button: Any) -> None:
            choice = box.standardButton(button)
            if choice == QMessageBox.StandardButton.Save:
                self._save()
                if self.unsaved_changes():
                    return
            elif choice != QMessageBox.StandardButton.Discard:
                return
            then()

        box.buttonClicked.connect(answered)
        box.finished.connect(box.deleteLater)
        box.open()
        return box

    def _build_menus(self) -> None:
        menu = self.menuBar().addMenu(self.words("&File"))
        for text, shortcut, slot in (
            ("&New", QKeySequence.StandardKey.New, self._ask_new),
            ("&Open…", QKeySequence.StandardKey.Open, self._ask_open),
            ("&Save", QKeySequence.StandardKey.Save, self._save),
            ("Save &As…", QKeySequence.StandardKey.SaveAs, self._ask_save_as),
        ):
            action = QAction(self.words(text), self)
            action.setShortcut(shortcut)
            action.triggered.connect(slot)
            menu.addAction(action)
        menu.addSeparator()
        quit_action = QAction(self.words("&Quit"), self)
        quit_action.triggered.connect(self.close)
        menu.addAction(quit_action)
        view = self.menuBar().addMenu(self.words("&View"))
        fit = QAction(self.words("&Fit to view"), self)
        fit.triggered.connect(self.viewport.fit_to_view)
        view.addAction(fit)
        labels = QAction(self.words("&Node labels"), self)
        labels.setObjectName("nodeLabelsAction")
        labels.setCheckable(True)
        labels.toggled.connect(self.viewport.set_node_labels)
        view.addAction(labels)
        self.node_labels_action = labels
        self._build_view_directions(view)
        self._build_pick_menu()

    def _build_view_directions(self, menu: Any) -> None:
        """View → From +X … Isometric (objectNames ``viewPlusX`` … ``viewIso``)."""
        menu.addSeparator()
        self.view_actions: dict[str, QAction] = {}
        for direction in VIEWS:
            action = QAction(self.words(direction.title), self)
            action.setObjectName(f"view{direction.key}")
            action.triggered.connect(
                lambda _=False, key=direction.key: self.viewport.set_view(key))
            menu.addAction(action)
            self.view_actions[direction.key] = action

    def _build_pick_menu(self) -> None:
        """Select → pick elements or nodes, clear (click, Ctrl+click, Ctrl+drag a box)."""
        menu = self.menuBar().addMenu(self.words("&Select"))
        group = QActionGroup(self)
        self.pick_actions: dict[str, QAction] = {}
        for kind, text in (("elements", "Pick &elements"), ("nodes", "Pick &nodes")):
            action = QAction(self.words(text), self)
            action.setObjectName(f"pick{kind.capitalize()}Action")
            action.setCheckable(True)
            action.setChecked(kind == self.viewport.pick_kind)
            action.triggered.connect(lambda _=False, k=kind: self.viewport.set_pick_kind(k))
            group.addAction(action)
            menu.addAction(action)
            self.pick_actions[kind] = action
        clear = QAction(self.words("&Clear selection"), self)
        clear.setObjectName("clearSelectionAction")
        clear.triggered.connect(lambda: self.viewport.set_selection([]))
        menu.addSeparator()
        menu.addAction(clear)
        hint = QAction(self.words("Click picks, Ctrl+click adds or removes, Ctrl+drag picks a "
                                  "box"), self)
        hint.setEnabled(False)
        menu.addAction(hint)

    # ------------------------------------------------------ plugin services
    def part_names_of(self, part: Any) -> tuple[str, str] | None:
        """(model name, part name) of a part object of the open database, or None."""
        if part is None:
            return None
        for model_name in self.sam.mdb.models.keys():
            parts = self.sam.mdb.models[model_name].parts
            for part_name in parts.keys():
                if parts[part_name] is part:
                    return model_name, part_name
        return None

    def selection(self) -> dict[str, Any] | None:
        """What is picked in the viewport: ``{model_name, part_name, kind, labels}``, or None
        when nothing is."""
        names = self.part_names_of(self.displayed_part())
        if names is None or not self.viewport.selected:
            return None
        return {"model_name": names[0], "part_name": names[1],
                "kind": self.viewport.pick_kind, "labels": list(self.viewport.selected)}

    def show_plan_preview(self, model_name: str, part_name: str,
                          layers: dict[str, Any]) -> int:
        """Draw a plan's ``touched``/``added``/``deleted`` outlines (and ``deleted_nodes``
        points) over the part (displayed first when it is not); returns how many are drawn.
        A part that does not exist yet (a build) is drawn alone in an empty view; a model that
        does not exist draws nothing."""
        model = self.sam.mdb.models.get(model_name)
        if model is None:
            self.viewport.clear_plan_overlay()
            return 0
        if part_name not in model.parts:
            if self.displayed_part() is not None:
                self._viewport().setValues(displayedObject=None)
                self.refresh_from_host()
        elif self.part_names_of(self.displayed_part()) != (model_name, part_name):
            self.display_part(model_name, part_name)
        return self.viewport.show_plan_overlay(layers)

    def clear_plan_preview(self) -> None:
        self.viewport.clear_plan_overlay()

    def _ask_new(self) -> None:
        self.confirm_discard("start a new workspace", self.new_workspace)

    def _ask_open(self) -> None:
        self.confirm_discard("open another workspace", self._choose_and_open)

    def _choose_and_open(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open workspace", "", FILE_FILTER)
        if path:
            self._guarded(self.open_workspace, path)

    def _save(self) -> None:
        if self.workspace_path is None:
            self._ask_save_as()
        else:
            self._guarded(self.save_workspace, self.workspace_path)

    def _ask_save_as(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Save workspace", "", FILE_FILTER)
        if path:
            if not path.endswith(".sam.json"):
                path += ".sam.json"
            self._guarded(self.save_workspace, path)

    def _guarded(self, action: Any, path: Any) -> None:
        try:
            action(path)
        except Exception as exc:  # the analyst sees why, the window stays usable
            QMessageBox.warning(self, WINDOW_TITLE, f"{path}: {exc}")

    # --------------------------------------------------------------- plugins
    def load_plugins(self, manifest_path: Path = DEFAULT_MANIFEST,
                     options: Mapping[str, Any] | None = None) -> None:
        manifest = PluginManifest.read(manifest_path)
        self.plugins.append(load_plugin(manifest, self.host, options))

    def unload_plugins(self) -> None:
        while self.plugins:
            unload_plugin(self.plugins.pop())

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt override)
        """File > Quit and the window's close: ask about unsaved changes first (a window
        never shown, or already shut down, has no one to ask)."""
        if not self._shut_down and self.isVisible() and self.unsaved_changes():
            event.ignore()
            self.confirm_discard("quit", self._close_now)
            return
        self.shutdown()
        super().closeEvent(event)

    def _close_now(self) -> None:
        self.shutdown()  # the question was answered: close without asking again
        self.close()

    def shutdown(self) -> None:
        """Unload plugins and stop listening to the host (idempotent)."""
        self._shut_down = True
        self.unload_plugins()
        if self._listening_to is not None and hasattr(self._listening_to, "removeListener"):
            self._listening_to.removeListener(self._on_viewport_changed)
        self._listening_to = None


def create_window(workspace: str | os.PathLike[str] | None = None, *,
                  load_plugins: bool = True, locale: str | None = None,
                  plugin_options: Mapping[str, Any] | None = None) -> SamMainWindow:
    """The offline host's main window (not shown) with ``workspace`` open and plugins loaded
    (their entry points called with ``plugin_options`` as keyword arguments)."""
    if QApplication.instance() is None:
        raise RuntimeError("create_window: create the QApplication first (the caller owns it)")
    import sam

    window = SamMainWindow(sam, locale=locale)
    if workspace is not None:
        window.open_workspace(workspace)
    else:
        window.refresh_from_host()
    if load_plugins:
        window.load_plugins(options=plugin_options)
    return window


def main(argv: list[str] | None = None) -> int:
    """``python stubs/sam_host.py [workspace.sam.json]``: the host alone, with its plugins."""
    args = list(sys.argv[1:] if argv is None else argv)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    window = create_window(args[0] if args else None)
    window.show()
    QTimer.singleShot(0, window.viewport.fit_to_view)
    return int(app.exec())


if __name__ == "__main__":
    raise SystemExit(main())
