"""Who answers is always said and always the analyst's choice (issue 16, provider and replay):
``providerLabel``, Settings switching between Replay and a live provider, Save taking effect,
a restart keeping the saved choice explicit, and the environment note naming only the user's
variables."""

from __future__ import annotations

import json

import pytest

from sam_plugin.demo.examples import example_by_id
from sam_plugin.demo.streams import openai_stream
from sam_plugin.launch import Launch
from sam_plugin.runtime.config.store import SettingsStore
from sam_plugin.runtime.provider.choice import ProviderChooser, choose

TIMEOUT_MS = 20_000


def _review(qtbot, dock, example_id: str = "plate") -> None:
    example = example_by_id(example_id)
    dock.set_target(example.mode, example.model, example.part)
    dock.request_edit.setPlainText(example.request)
    dock.submit_button.click()
    qtbot.waitUntil(lambda: not dock.busy and dock.controller is not None
                    and str(dock.controller.phase) in ("review", "failed"), timeout=TIMEOUT_MS)


def _settings_dialog(dock):
    from sam_plugin.ui.settings_dialog import SettingsDialog

    dock.settings_button.click()
    dialog = dock.findChild(SettingsDialog, "settingsDialog")
    assert dialog is not None
    return dialog


def test_choose_follows_one_rule():
    saved_live = {"provider": "live", "base_url": "http://localhost:11434/v1", "model": "qwen"}
    assert choose({}, {}).kind == "replay"
    assert choose({}, {}).reason == "nothing configured"
    assert choose({}, {}, default_replay=False).kind == "live"  # the CLI asks instead
    assert choose({}, saved_live).kind == "live"
    assert choose({}, {**saved_live, "provider": "replay"}).kind == "replay"
    assert choose({}, saved_live, force_replay=True).reason == "--replay"
    from_env = choose({"SAM_AGENT_MODEL": "llama3"}, {**saved_live, "provider": "replay"})
    assert (from_env.kind, from_env.live.model, from_env.env_names) == (
        "live", "llama3", ("SAM_AGENT_MODEL",))
    assert choose({}, saved_live).describe() == "qwen (localhost:11434), server not asked yet"
    assert choose({}, {**saved_live, "profile": "ollama"}).describe() == (
        "ollama · qwen (localhost:11434)")


def test_the_label_names_the_server_once_asked():
    from sam_plugin.runtime.provider.probe import ServerInfo, resolve

    choice = choose({}, {"provider": "live", "base_url": "http://127.0.0.1:8081/v1",
                         "model": "qwen"})
    assert choice.live is not None
    detection = resolve(choice.live, ServerInfo(kind="llamacpp", version="b11434"))
    assert choice.describe(detection) == (
        "llama.cpp b11434, profile llamacpp · qwen (127.0.0.1:8081)")


def test_settings_switches_to_a_live_provider_and_submit_uses_it(
        qtbot, dock, fake_provider, ui_env):
    # a host that loads the plugin itself (as SAM does) answers with no Replay by default
    assert dock.provider_label.text() == ("Answering: no model configured — open Settings… "
                                          "(or set SAM_AGENT_BASE_URL and SAM_AGENT_MODEL)")
    assert dock.example_combo.isHidden()  # the examples are the Replay's, on the demo's parts
    dialog = _settings_dialog(dock)
    assert dialog.replay_radio.isChecked()
    dialog.live_radio.setChecked(True)
    dialog.base_url.setText(fake_provider.base_url)
    dialog.model.setText("typed-model")
    dialog.profile.setCurrentIndex(dialog.profile.findData("generic"))
    dialog.save()  # tested first: the fake lists another model, so Save asks again
    qtbot.waitUntil(lambda: dialog.test_result.text().startswith(
        "Not saved yet — Connected, but model typed-model is not listed"), timeout=TIMEOUT_MS)
    assert dialog.save_button.text() == "Save anyway"
    dialog.save_button.click()
    label = dock.provider_label.text()
    assert label.startswith("Answering: generic · typed-model (127.0.0.1:")
    assert dock.provider_label.toolTip() == "Saved in Settings…"
    fake_provider.enqueue_stream(openai_stream(content=example_by_id("plate").recorded("en")[0]))
    _review(qtbot, dock)
    chats = [r for r in fake_provider.requests if r.method == "POST"]  # besides the test's GET
    assert [r.json["model"] for r in chats] == ["typed-model"]
    assert str(dock.controller.phase) == "review"
    dock.cancel_button.click()
    qtbot.waitUntil(lambda: not dock.busy and "Cancelled" in dock.status_label.text(),
                    timeout=TIMEOUT_MS)
    result = json.loads((dock.runs_dir / dock.controller.run_id / "result.json").read_text())
    assert (result["provider"]["name"], result["provider"]["model"]) == ("generic",
                                                                         "typed-model")
    # and back to the replay
    dialog = _settings_dialog(dock)
    assert dialog.live_radio.isChecked() and dialog.base_url.text() == fake_provider.base_url
    dialog.replay_radio.setChecked(True)
    dialog.save()
    assert dock.provider_label.text().startswith("Answering: Replay")
    _review(qtbot, dock)
    assert len([r for r in fake_provider.requests if r.method == "POST"]) == 1  # the replay
    assert dock.route_label.text() == "Operations: build the part"


def test_provider_label_names_the_server_that_answered(qtbot, dock, fake_provider, ui_env):
    fake_provider.get_routes["/props"] = {"build_info": "b7", "model_path": "/m/q.gguf"}
    dialog = _settings_dialog(dock)
    dialog.live_radio.setChecked(True)
    dialog.base_url.setText(fake_provider.base_url)
    dialog.model.setText("typed-model")
    dialog.save()  # tested first: the fake lists another model, so Save asks again
    qtbot.waitUntil(lambda: dialog.save_button.text() == "Save anyway", timeout=TIMEOUT_MS)
    dialog.save_button.click()
    fake_provider.enqueue_stream(openai_stream(content=example_by_id("plate").recorded("en")[0]))
    _review(qtbot, dock)
    qtbot.waitUntil(lambda: "llama.cpp b7" in dock.provider_label.text(), timeout=TIMEOUT_MS)
    assert dock.provider_label.text().startswith(
        "Answering: llama.cpp b7, profile llamacpp · typed-model (127.0.0.1:")
    dock.cancel_button.click()
    qtbot.waitUntil(lambda: not dock.busy, timeout=TIMEOUT_MS)


def test_after_a_restart_the_saved_choice_is_explicit_and_the_replay_reachable(
        qtbot, ui_env, workspace):
    import sam_host

    from sam_plugin.ui.dock import SamAgentDock

    SettingsStore().save({"provider": "live", "base_url": "http://127.0.0.1:9/v1",
                          "model": "gone"}, "")
    window = sam_host.create_window(workspace)
    qtbot.addWidget(window)
    try:
        dock = window.findChild(SamAgentDock, "samAgentDock")
        assert dock.provider_label.text() == (
            "Answering: gone (127.0.0.1:9), server not asked yet")
        dialog = _settings_dialog(dock)
        assert dialog.live_radio.isChecked()
        dialog.replay_radio.setChecked(True)
        dialog.save()
        assert dock.provider_label.text().startswith("Answering: Replay")
        _review(qtbot, dock)
        assert str(dock.controller.phase) == "review"
    finally:
        window.shutdown()


def test_a_forced_replay_holds_until_a_choice_is_saved(tmp_path):
    store = SettingsStore(tmp_path / "s.json", keyring_module=None)
    store.save({"provider": "live", "base_url": "http://localhost:11434/v1", "model": "q"}, "")
    chooser = ProviderChooser(store, env={"SAM_AGENT_REPLAY": "1"})
    assert chooser.current().reason == "--replay"
    chooser.chosen_in_settings()
    assert chooser.current().kind == "live"


def test_test_connection_in_replay_says_no_connection_is_needed(qtbot, tmp_path):
    from sam_plugin.ui.settings_dialog import SettingsDialog

    dialog = SettingsDialog(SettingsStore(tmp_path / "s.json", keyring_module=None),
                            env={"SAM_AGENT_BASE_URL": "http://127.0.0.1:1/v1"})
    qtbot.addWidget(dialog)
    dialog.test_button.click()
    assert dialog.test_result.text().startswith("Replay needs no connection")


@pytest.mark.parametrize("variable", ["SAM_AGENT_BASE_URL", "SAM_AGENT_MODEL"])
def test_the_demo_sets_no_provider_variable(variable, ui_env, tmp_path, capsys, qtbot):
    import os

    from sam_plugin.ui import demo

    seen = {}
    original = demo._run_window

    def spy(args, workspace, launch, **options):
        seen.update({k: os.environ.get(k) for k in (variable, "SAM_AGENT_REPLAY")})
        seen["launch"] = launch
        return 0

    demo._run_window = spy
    try:
        assert demo.main(["--replay", "--delay", "0.5"]) == 0
    finally:
        demo._run_window = original
    # --replay reaches the plugin as its launch configuration, not as SAM_AGENT_REPLAY=1
    assert seen == {variable: None, "SAM_AGENT_REPLAY": None,
                    "launch": Launch(replay=True, replay_delay=0.5, replay_by_default=True)}
    assert "SAM_AGENT_REPLAY" not in os.environ
