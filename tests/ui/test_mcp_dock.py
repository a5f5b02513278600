"""Inside SAM: Settings turn the MCP server on (off by default); a plan an MCP client asks to
execute waits in the dock's planView, executeButton approves it, and the server stops with the
dock (docs/mcp.md "Inside SAM")."""

from __future__ import annotations

import asyncio
import json
import socket
import sys
import threading
from pathlib import Path

import pytest

MCP_TESTS = str(Path(__file__).resolve().parents[1] / "mcp")
if MCP_TESTS not in sys.path:
    sys.path.insert(0, MCP_TESTS)

from mcp_support import call, execute, plan, translate  # noqa: E402

from sam_plugin.mcp_server.bearer import new_token, token_digest  # noqa: E402
from sam_plugin.runtime.config.store import SettingsStore  # noqa: E402

TOKEN = new_token()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def mcp_on(ui_env):
    store = SettingsStore()
    store.save_mcp_token_digest(token_digest(TOKEN))
    port = _free_port()
    store.save_mcp_server(enabled=True, port=port)
    return port


def _client_in_a_thread(url: str, outcome: dict) -> threading.Thread:
    """An MCP client on its own loop (the dock's loop serves it): plan, then ask to execute."""
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    async def session() -> None:
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}"})
        async with http, Client(streamable_http_client(url, http_client=http)) as client:
            planned = await plan(client, translate(2, part="Panel"))
            outcome["planned"] = planned
            outcome["done"] = await execute(client, planned, wait=60)
            outcome["listed"] = (await call(client, "list_runs", {}))[1]

    def run() -> None:
        try:
            asyncio.run(session())
        except BaseException as error:  # noqa: BLE001 - reported by the test
            outcome["error"] = error

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def test_the_dock_serves_mcp_and_execute_approves_a_client_s_plan(qtbot, mcp_on, host_window,
                                                                  dock, ui_env):
    qtbot.waitUntil(lambda: dock.mcp.service is not None, timeout=20_000)
    assert dock.mcp.url == f"http://127.0.0.1:{mcp_on}/mcp"
    assert "serving at" in dock.status_label.text()
    outcome: dict = {}
    thread = _client_in_a_thread(dock.mcp.url, outcome)
    qtbot.waitUntil(lambda: not dock.plan_view.isHidden() and dock.execute_button.isEnabled(),
                    timeout=30_000)
    assert dock.status_label.text().startswith("Plan — ")
    assert "asks to execute run" in dock.status_label.text()
    assert "transform_part" in dock.plan_view.raw_text
    assert host_window.viewport.overlay_shown  # the agent's plan drawn in the main viewport
    dock.execute_button.click()
    qtbot.waitUntil(lambda: not thread.is_alive(), timeout=30_000)  # the dock's loop serves
    assert not host_window.viewport.overlay_shown
    assert "error" not in outcome, outcome.get("error")
    done = outcome["done"]
    assert (done["status"], done["decision"]["channel"]) == ("verified", "dock")
    assert dock.plan_view.isHidden() and not dock.execute_button.isEnabled()
    run_dir = ui_env / "runs" / done["run_id"]
    channels = [json.loads(line).get("channel") for line in
                (run_dir / "events.jsonl").read_text().splitlines()
                if '"approval_requested"' in line]
    assert channels == ["dock", "command"]
    service = dock.mcp.service
    host_window.shutdown()  # the server stops with the dock
    qtbot.waitUntil(lambda: not service.running, timeout=10_000)


def test_the_mcp_server_is_off_by_default(qtbot, host_window, dock):
    qtbot.wait(200)
    assert dock.mcp.service is None
    from sam_plugin.ui.settings_dialog import SettingsDialog

    dialog = SettingsDialog(SettingsStore(), parent=dock)
    qtbot.addWidget(dialog)
    assert not dialog.mcp_box.serve.isChecked()
    token = dialog.mcp_box.make_token()
    assert dialog.mcp_box.token.text() == token
    assert SettingsStore().mcp_token_digest() == token_digest(token)
    assert token not in (Path(SettingsStore().path).read_text() if
                         Path(SettingsStore().path).exists() else "")


def test_settings_say_where_a_person_may_approve(qtbot, ui_env):
    """All three channels by default; a site turns the terminal off (docs/mcp.md "Trust
    boundary"), and the dock's server and ``sam-agent mcp`` both read it."""
    from sam_plugin.ui.mcp_settings import McpSettingsBox

    box = McpSettingsBox(SettingsStore())
    qtbot.addWidget(box)
    boxes = {c: box.findChild(object, f"mcpApproveOn_{c}")
             for c in ("dock", "elicitation", "command")}
    assert all(b is not None and b.isChecked() for b in boxes.values())
    boxes["command"].setChecked(False)
    box.save()
    assert SettingsStore().approval_channels() == ("dock", "elicitation")
