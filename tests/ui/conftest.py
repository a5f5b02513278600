"""UI test fixtures: a private runs directory and settings file, the offline host window with
the bundled sample workspace, and the replay provider on the loopback interface."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from sam_plugin.demo.examples import WORKSPACE_FILE

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:  # plan_steps, the shared "approve the plan" step
    sys.path.insert(0, HERE)


@pytest.fixture
def ui_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Runs and settings under ``tmp_path``; English host locale; no provider configured."""
    monkeypatch.setenv("SAM_AGENT_RUNS_DIR", str(tmp_path / "runs"))
    monkeypatch.setenv("SAM_AGENT_SETTINGS_FILE", str(tmp_path / "settings.json"))
    monkeypatch.setenv("SAM_HOST_LOCALE", "en_US")
    for name in ("SAM_AGENT_BASE_URL", "SAM_AGENT_API_KEY", "SAM_AGENT_MODEL",
                 "SAM_AGENT_PROFILE"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A private copy of the bundled sample (Model-1: Panel 4x4 QUAD, Frame 9 BEAM)."""
    target = tmp_path / "sample.sam.json"
    shutil.copyfile(WORKSPACE_FILE, target)
    return target


@pytest.fixture
def replay(ui_env: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    """The loopback provider replaying the bundled recorded responses (no pacing)."""
    from sam_plugin.demo.replay import REPLAY_MODEL, start_replay_provider

    provider, responder = start_replay_provider(delay=0.0)
    monkeypatch.setenv("SAM_AGENT_BASE_URL", provider.base_url)
    monkeypatch.setenv("SAM_AGENT_MODEL", REPLAY_MODEL)
    # vllm streams the recorded reasoning apart; the answers hold several tool calls each, as
    # recorded unconstrained (a constrained round asks for one tool)
    monkeypatch.setenv("SAM_AGENT_PROFILE", "vllm")
    (ui_env / "settings.json").write_text('{"constrained_calls": false}')
    provider.replay_responder = responder  # type: ignore[attr-defined]
    yield provider
    provider.close()


@pytest.fixture
def host_window(qtbot, ui_env: Path, workspace: Path) -> Iterator[object]:
    """``sam_host.create_window(workspace)`` with the plugin loaded; shut down afterwards."""
    import sam_host

    from sam_plugin.ui.event_loop import settle_after_unload

    window = sam_host.create_window(workspace)
    qtbot.addWidget(window)
    yield window
    window.shutdown()
    # other test folders use asyncio.run: the plugin's loop must not stay advertised
    assert settle_after_unload(), "the qasync loop stayed the running loop after unload"


@pytest.fixture
def dock(host_window):
    from sam_plugin.ui.dock import SamAgentDock

    found = host_window.findChild(SamAgentDock, "samAgentDock")
    assert found is not None
    return found
