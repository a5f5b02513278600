"""Load and unload the plugin inside a host (SAM or the offline host): nothing else.

``load_plugin(host)`` attaches qasync to the host's running QApplication, installs the
translation for ``host.locale``, creates the dock and docks it. ``unload_plugin(host)`` stops
running work, disconnects every signal and listener the plugin made, removes the dock and
``deleteLater()``s it, and gives the event loop and translator back.

The host object is a ``sam_plugin.host_api.PluginHost`` (required members) with any of
``OptionalHostMembers``; ``sam_plugin.load`` has checked it (``host_check.py``) before this
module, and with it Qt, is imported.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sam_plugin.host_api import PluginHost
from sam_plugin.launch import Launch
from sam_plugin.runtime.config.store import SettingsStore, runs_dir_from_env
from sam_plugin.runtime.provider.choice import ProviderChooser
from sam_plugin.ui.binding_check import binding_problem
from sam_plugin.ui.dock import SamAgentDock
from sam_plugin.ui.event_loop import LoopLease, attach_qasync, release_qasync
from sam_plugin.ui.font_check import font_problem
from sam_plugin.ui.i18n import TsTranslator, install_translator, remove_translator, ui_language
from sam_plugin.ui.prewarm import Prewarm
from sam_plugin.ui.viewport_link import ViewportLink

VIEWPORT_NAME = "Viewport: 1"
log = logging.getLogger(__name__)


@dataclass
class PluginInstance:
    """Everything one load created, so that unload can take all of it back."""

    host: PluginHost
    dock: SamAgentDock
    lease: LoopLease
    translator: TsTranslator | None
    store: SettingsStore
    runs_dir: Path
    prewarm: Prewarm
    chooser: ProviderChooser | None = None
    listeners: list[tuple[Any, Any]] = field(default_factory=list)


_INSTANCES: dict[int, PluginInstance] = {}


def instance_for(host: PluginHost) -> PluginInstance | None:
    return _INSTANCES.get(id(host))


def replay_url(delay: float | None = None) -> str:
    """The bundled replay server's URL (started on first use, pacing its pieces ``delay``
    seconds apart when given)."""
    try:
        from sam_plugin.demo.replay_service import replay_url as start
    except ImportError as error:  # a packaging without the demo
        raise ValueError(f"provider: the replay is not installed ({error}); choose a live "
                         "provider in Settings") from None
    return start(delay)


def make_controller_factory(host: PluginHost, store: SettingsStore, runs_dir: Path,
                            prewarm: Prewarm | None = None,
                            chooser: ProviderChooser | None = None,
                            replay_delay: float | None = None) -> Any:
    """A new controller for the provider chosen now (provider_choice.py: replay, the user's
    environment, or the saved live settings); its providers share the prewarmed HTTP client
    when there is one."""
    chooser = chooser or ProviderChooser(store)

    def provider_factory(settings: Any) -> Any:
        from sam_plugin.runtime.provider.client import ChatProvider

        client = prewarm.http_client if prewarm is not None else None
        return ChatProvider(settings, client=client) if client is not None else ChatProvider(
            settings)

    def factory() -> Any:
        from sam_plugin.runtime.host_gateway import HostGateway
        from sam_plugin.runtime.provider.probe import replay_probe
        from sam_plugin.runtime.run.controller import RunController

        choice = chooser.current()
        saved = store.load()
        return RunController(runs_dir=runs_dir, settings=choice.settings(
                                 lambda: replay_url(replay_delay)),
                             server_probe=replay_probe() if choice.is_replay else None,
                             host=HostGateway(host.sam_module),
                             provider_factory=provider_factory,
                             language=ui_language(getattr(host, "locale", None)),
                             provider_name=choice.name(),
                             max_revisions=_int(saved.get("max_revisions"), 3),
                             policy=store.policy())

    return factory


def _int(value: Any, default: int) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def _open_settings(store: SettingsStore, chooser: ProviderChooser) -> Any:
    def open_dialog(dock: SamAgentDock) -> None:
        from sam_plugin.ui.settings_dialog import SettingsDialog

        dialog = SettingsDialog(store, parent=dock)
        # what was saved is the choice from now on (a --replay start no longer holds)
        dialog.accepted.connect(chooser.chosen_in_settings)
        dialog.accepted.connect(dock.reset_controller)
        dialog.accepted.connect(dock.refresh_provider)
        dialog.accepted.connect(lambda: _apply_mcp(dock))
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()

    return open_dialog


def load_plugin(host: PluginHost, launch: Launch | None = None) -> PluginInstance:
    """Create and dock the SAM Agent dock in ``host`` (a second load replaces the first);
    ``launch`` is what the demo says instead of the environment (sam_plugin/launch.py)."""
    launch = launch or Launch()
    if id(host) in _INSTANCES:
        unload_plugin(host)
    lease = attach_qasync()
    translator = install_translator(getattr(host, "locale", None))
    store = SettingsStore()
    runs_dir = launch.runs_dir or runs_dir_from_env()
    prewarm = Prewarm().start()
    chooser = ProviderChooser(store, force_replay=launch.replay,
                              default_replay=launch.replay_by_default)
    dock = SamAgentDock(
        sam_module=host.sam_module,
        controller_factory=make_controller_factory(host, store, runs_dir, prewarm, chooser,
                                                   launch.replay_delay),
        runs_dir=runs_dir,
        open_settings=_open_settings(store, chooser),
        prewarm=prewarm,
        provider_choice=chooser.current,
        settings_store=store,
        highlight=getattr(host, "highlight_elements", None),
        viewport=ViewportLink(host),
        parent=host.main_window,
    )
    dock.set_examples(_bundled_examples(ui_language(getattr(host, "locale", None))))
    problem = binding_problem()
    if problem:
        log.error(problem)
        dock.show_binding_problem(problem)
    unreadable = font_problem(ui_language(getattr(host, "locale", None)))
    if unreadable:
        log.warning(unreadable)
        dock.show_font_problem(unreadable)
    instance = PluginInstance(host=host, dock=dock, lease=lease, translator=translator,
                              store=store, runs_dir=runs_dir, prewarm=prewarm, chooser=chooser)
    _listen_to_viewport(instance)
    host.add_dock_widget(dock, getattr(host, "dock_area", "right"))
    _INSTANCES[id(host)] = instance
    from sam_plugin.ui.mcp_dock import DockMcp

    dock.mcp = DockMcp(dock, host.sam_module, runs_dir, store)  # off unless Settings say on
    _apply_mcp(dock)
    return instance


def _apply_mcp(dock: SamAgentDock) -> None:
    """Start or stop the dock's MCP server as saved; the status line says what became of it."""
    import asyncio

    async def apply() -> None:
        said = await dock.mcp.apply()
        if dock.mcp.service is not None or dock.mcp.problem:
            dock.set_status(said)

    dock.mcp_task = asyncio.ensure_future(apply())


def unload_plugin(host: PluginHost) -> None:
    """Stop work, disconnect everything, remove and delete the dock (idempotent)."""
    instance = _INSTANCES.pop(id(host), None)
    if instance is None:
        return
    for source, callback in instance.listeners:
        remover = getattr(source, "removeListener", None)
        if remover is not None:
            remover(callback)
    instance.listeners.clear()
    _stop_mcp(instance.dock)
    instance.dock.shutdown()
    host.remove_dock_widget(instance.dock)
    instance.dock.hide()
    instance.dock.setParent(None)
    instance.dock.deleteLater()
    instance.prewarm.close()
    _close_replay()
    remove_translator(instance.translator)
    release_qasync(instance.lease)


def _stop_mcp(dock: SamAgentDock) -> None:
    """The MCP server stops with the dock (its waiting plans stay kept in their runs)."""
    mcp = getattr(dock, "mcp", None)
    if mcp is None:
        return
    mcp.detach()  # the dock no longer offers or shows what an MCP client asks
    if mcp.service is None:
        return
    import asyncio

    service, mcp.service = mcp.service, None
    service.gate.close()
    asyncio.ensure_future(service.stop())


def _close_replay() -> None:
    try:
        from sam_plugin.demo.replay_service import close_replay
    except ImportError:
        return
    close_replay()


def _listen_to_viewport(instance: PluginInstance) -> None:
    """Follow ``openMdb`` and scripts: the displayed object changes → refresh the L0 target
    lists. SAM may lack listeners; then the dock refreshes after each run only."""
    try:
        viewport = instance.host.sam_module.session.viewports[VIEWPORT_NAME]
    except (AttributeError, KeyError):
        return
    if not hasattr(viewport, "addListener"):
        return
    dock = instance.dock

    def on_display_changed(*args: Any, **kwargs: Any) -> None:
        dock.refresh_targets()

    viewport.addListener(on_display_changed)
    instance.listeners.append((viewport, on_display_changed))


def _bundled_examples(language: str = "en") -> list[dict[str, str]]:
    """The examples in the UI's language (a zh_CN dock lists the Chinese requests, which the
    replay answers with recorded Chinese specs)."""
    try:
        from sam_plugin.demo.examples import load_examples
    except ImportError:
        return []
    return [example.picker_entry(language) for example in load_examples()]
