"""Plugin loading as SAM does it: read ``plugin.json``, import the entry point, call it with a
host object; unloading calls the manifest's ``unload`` with the same host object.

Finding a manifest runs no plugin code (as napari's npe2 finds manifests): an installed
distribution declares ``[project.entry-points."sam.plugins"] name = "package:plugin.json"``,
and ``find_manifest`` locates the package's directory with ``importlib.util.find_spec``,
which does not execute a top-level package.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import json
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import PySide6
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow

# a source checkout's root (stubs/ sits beside sam_plugin/); inside the installed wheel this
# folder is sam_plugin/_offline_sam/ and the parent is the package itself, never put on the path
REPO_ROOT = Path(__file__).resolve().parent.parent
ENTRY_POINT_GROUP = "sam.plugins"

DOCK_AREAS = {
    "left": Qt.DockWidgetArea.LeftDockWidgetArea,
    "right": Qt.DockWidgetArea.RightDockWidgetArea,
    "top": Qt.DockWidgetArea.TopDockWidgetArea,
    "bottom": Qt.DockWidgetArea.BottomDockWidgetArea,
}


class PluginManifestError(ValueError):
    """A ``plugin.json`` that SAM would refuse; the message names the field."""


def find_manifest(package: str = "sam_plugin", resource: str = "plugin.json") -> Path:
    """The manifest file inside ``package``, located without importing it (a source checkout
    that is not installed is looked up from the repository root)."""
    spec = None
    if "." not in package:  # find_spec of a submodule would import its parents
        spec = importlib.util.find_spec(package)
    if spec is not None and spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations))) / resource
    return REPO_ROOT.joinpath(*package.split("."), resource)


def installed_manifests() -> list[Path]:
    """The manifests installed distributions declare in the ``sam.plugins`` entry points."""
    found = []
    for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        package, _, resource = entry.value.partition(":")
        found.append(find_manifest(package.strip(), resource.strip() or "plugin.json"))
    return found


DEFAULT_MANIFEST = find_manifest()


@dataclass
class PluginManifest:
    id: str
    name: str
    entry_point: str
    unload: str
    dock_area: str
    path: Path

    @classmethod
    def read(cls, path: Path) -> PluginManifest:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise PluginManifestError(f"{path}: cannot read plugin manifest ({exc})") from exc
        for key in ("id", "name", "entry_point"):
            if not isinstance(data.get(key), str) or not data[key]:
                raise PluginManifestError(f"{path}: field {key!r} must be a non-empty string")
        for key in ("entry_point", "unload"):
            value = data.get(key, "")
            if value and ":" not in value:
                raise PluginManifestError(
                    f"{path}: field {key!r} must look like 'package.module:function', got {value!r}"
                )
        area = str((data.get("dock") or {}).get("area", "right"))
        if area not in DOCK_AREAS:
            raise PluginManifestError(
                f"{path}: field 'dock.area' is {area!r}; legal values: {', '.join(DOCK_AREAS)}"
            )
        return cls(
            id=data["id"], name=data["name"], entry_point=data["entry_point"],
            unload=data.get("unload", ""), dock_area=area, path=path,
        )


def resolve(reference: str) -> Callable[..., Any]:
    """``"package.module:function"`` → the function (a checkout's root is made importable)."""
    if (REPO_ROOT / "sam_plugin").is_dir() and str(REPO_ROOT) not in sys.path:
        sys.path.append(str(REPO_ROOT))
    module_name, _, attribute = reference.partition(":")
    return getattr(importlib.import_module(module_name), attribute)


@dataclass
class SamHost:
    """What SAM hands a plugin: its main window, dock placement, locale and the ``sam`` module."""

    main_window: QMainWindow
    sam_module: Any
    locale: str = "en_US"
    manifest: PluginManifest | None = None
    docks: list[QDockWidget] = field(default_factory=list)
    host_version: str = "1.0"  # compared with a manifest's min_host_version by the plugin

    def add_dock_widget(self, dock: QDockWidget, area: str | Qt.DockWidgetArea = "right") -> None:
        qt_area = DOCK_AREAS[area] if isinstance(area, str) else area
        self.main_window.addDockWidget(qt_area, dock)
        self.docks.append(dock)

    def remove_dock_widget(self, dock: QDockWidget) -> None:
        self.main_window.removeDockWidget(dock)
        if dock in self.docks:
            self.docks.remove(dock)

    def highlight_elements(self, model_name: str, part_name: str, labels: list[int]) -> int:
        """Optional host service: show elements of a part highlighted in the viewport."""
        return int(self.main_window.highlight_elements(model_name, part_name, labels))

    # Optional host services of the offline host's viewport (plugins feature-detect them):
    # picking, and a plan's preview drawn over the part.
    def selection(self) -> dict[str, Any] | None:
        """``{model_name, part_name, kind: elements|nodes, labels}`` picked now, or None."""
        return self.main_window.selection()  # type: ignore[attr-defined, no-any-return]

    def add_selection_listener(self, callback: Callable[[], Any]) -> None:
        """Call ``callback()`` after every change of what is picked."""
        self.main_window.viewport.selectionChanged.connect(callback)  # type: ignore[attr-defined]

    def remove_selection_listener(self, callback: Callable[[], Any]) -> None:
        try:
            self.main_window.viewport.selectionChanged.disconnect(callback)  # type: ignore
        except (RuntimeError, TypeError):  # already gone
            pass

    def show_plan_preview(self, model_name: str, part_name: str,
                          layers: dict[str, Any]) -> int:
        """Draw outlines ``{touched, added, deleted: [[(x, y, z), …], …]}`` over the part."""
        return int(self.main_window.show_plan_preview(  # type: ignore[attr-defined]
            model_name, part_name, layers))

    def clear_plan_preview(self) -> None:
        self.main_window.clear_plan_preview()  # type: ignore[attr-defined]

    @property
    def dock_area(self) -> str:
        return self.manifest.dock_area if self.manifest else "right"

    @property
    def qt_binding(self) -> str:
        """The binding this host's GUI runs on (a plugin checks it before docking)."""
        return f"PySide6 {PySide6.__version__}"


@dataclass
class LoadedPlugin:
    manifest: PluginManifest
    host: SamHost
    handle: Any


def load_plugin(manifest: PluginManifest, host: SamHost,
                options: Mapping[str, Any] | None = None) -> LoadedPlugin:
    """Call the manifest's entry point with ``host``, as SAM does; ``options`` are keyword
    arguments a caller of the offline host adds (the demo's launch configuration)."""
    host.manifest = manifest
    handle = resolve(manifest.entry_point)(host, **(options or {}))
    return LoadedPlugin(manifest=manifest, host=host, handle=handle)


def unload_plugin(plugin: LoadedPlugin) -> None:
    if plugin.manifest.unload:
        resolve(plugin.manifest.unload)(plugin.host)
