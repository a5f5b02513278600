"""Settings as an analyst uses them: the plan-wait choice works under Replay, the idle timeout
is the 60 s the README and the CLI name, saving a live URL tests it first, and the labels are
words (the kind of server, not a "profile")."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator

import pytest
from plan_steps import to_review

from sam_plugin.runtime.config.store import SettingsStore

TIMEOUT_MS = 20_000


@pytest.fixture
def loop(qapp) -> Iterator[None]:
    """The qasync loop a host gives the plugin (Save's connection test runs on it)."""
    from sam_plugin.ui.event_loop import attach_qasync, release_qasync

    lease = attach_qasync()
    yield
    release_qasync(lease)


def _dialog(qtbot, store):
    from sam_plugin.ui.settings_dialog import SettingsDialog

    dialog = SettingsDialog(store, env={})
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def _dead_url() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}/v1"


def test_plan_waits_for_execute_can_be_chosen_and_works_under_the_replay(qtbot, replay, dock):
    from sam_plugin.ui.settings_dialog import SettingsDialog

    dock.settings_button.click()
    dialog = dock.findChild(SettingsDialog, "settingsDialog")
    assert dialog.replay_radio.isChecked() and not dialog.live_fields.isEnabled()
    combo = dialog.plan_wait
    assert combo.isEnabled() and combo.isVisibleTo(dialog)  # not greyed out with the live fields
    combo.setCurrentIndex(combo.findData("never"))
    dialog.save_button.click()  # the replay needs no test: saved at once
    assert json.loads(SettingsStore().path.read_text())["plan_wait"] == "never"
    to_review(qtbot, dock, "plate")
    dock.confirm_button.click()
    qtbot.waitUntil(lambda: not dock.busy, timeout=TIMEOUT_MS)
    assert dock.status_label.text() == "Verified"  # no stop at the plan: "never" held
    events = (dock.runs_dir / dock.controller.run_id / "events.jsonl").read_text()
    assert '"by": "plan_wait=never"' in events


def test_the_idle_timeout_is_the_one_the_readme_and_cli_name(qtbot, tmp_path):
    from PySide6.QtWidgets import QFormLayout, QLabel

    store = SettingsStore(tmp_path / "settings.json", keyring_module=None)
    dialog = _dialog(qtbot, store)
    spin = dialog.timeouts["idle_timeout"]
    assert spin.value() == 60  # the CLI's --idle-timeout default and the README's words
    form = dialog.live_fields.layout()
    assert isinstance(form, QFormLayout)
    label = form.labelForField(spin)
    assert isinstance(label, QLabel)
    assert label.text() == "Idle timeout (s): the longest silence in an answer"
    shown = [s.value() for s in dialog.timeouts.values()]
    assert 120 not in shown
    spin.setValue(45)
    dialog.save()  # the replay is checked: nothing to test
    assert store.effective({}).idle_timeout == 45


def test_saving_a_live_url_tests_it_and_a_dead_one_needs_save_anyway(qtbot, tmp_path, loop):
    store = SettingsStore(tmp_path / "settings.json", keyring_module=None)
    dialog = _dialog(qtbot, store)
    dialog.live_radio.setChecked(True)
    url = _dead_url()
    dialog.base_url.setText(url)
    dialog.model.setText("m")
    dialog.save_button.click()
    host = url.removeprefix("http://").removesuffix("/v1")
    qtbot.waitUntil(lambda: dialog.test_result.text().startswith("Not saved yet — "),
                    timeout=TIMEOUT_MS)
    assert dialog.test_result.text() == (
        f"Not saved yet — Nothing answers at {host}: check the base URL, and that the server is "
        "running. Press Save anyway to keep these settings all the same.")
    assert dialog.isVisible() and not store.path.exists()  # nothing saved, still open
    assert dialog.save_button.text() == "Save anyway"
    dialog.save_button.click()
    assert json.loads(store.path.read_text())["base_url"] == url
    assert not dialog.isVisible()


def test_saving_a_live_url_that_answers_saves_after_the_test(qtbot, tmp_path, loop,
                                                             fake_provider):
    store = SettingsStore(tmp_path / "settings.json", keyring_module=None)
    dialog = _dialog(qtbot, store)
    dialog.live_radio.setChecked(True)
    dialog.base_url.setText(fake_provider.base_url)
    dialog.model.setText("fake-model")
    dialog.save_button.click()
    assert dialog.test_result.text().startswith(f"Testing {fake_provider.base_url} before "
                                                "saving")
    qtbot.waitUntil(lambda: store.path.exists(), timeout=TIMEOUT_MS)
    assert [(r.method, r.path) for r in fake_provider.probes][-1] == ("GET", "/v1/models")
    assert fake_provider.requests == []  # GETs are kept apart (server probe, model list)
    assert json.loads(store.path.read_text())["model"] == "fake-model"
    assert not dialog.isVisible()


def test_an_endpoint_that_answered_test_connection_saves_without_a_second_test(
        qtbot, tmp_path, loop, fake_provider):
    store = SettingsStore(tmp_path / "settings.json", keyring_module=None)
    dialog = _dialog(qtbot, store)
    dialog.live_radio.setChecked(True)
    dialog.base_url.setText(fake_provider.base_url)
    dialog.model.setText("fake-model")
    dialog.test_button.click()
    qtbot.waitUntil(lambda: dialog.test_result.text().startswith("Connected"),
                    timeout=TIMEOUT_MS)
    tested = len(fake_provider.probes)
    dialog.save_button.click()
    assert store.path.exists()  # at once
    assert tested >= 1 and len(fake_provider.probes) == tested


def test_settings_labels_are_words_not_profiles(qtbot, tmp_path):
    from PySide6.QtWidgets import QComboBox

    store = SettingsStore(tmp_path / "settings.json", keyring_module=None)
    dialog = _dialog(qtbot, store)
    labels = _labels(dialog)
    assert "Kind of server" in labels and "Profile" not in labels
    assert not any("schema" in text.lower() or "profile" in text.lower() for text in labels)
    dialog.base_url.setText("http://localhost:11434/v1")  # a local server is asked, not guessed
    assert dialog.profile.itemText(0) == "(from the URL: another OpenAI-compatible server)"
    dialog.base_url.setText("https://api.deepseek.com/v1")
    assert dialog.profile.itemText(0) == "(from the URL: DeepSeek)"
    items = [dialog.profile.itemText(i) for i in range(dialog.profile.count())]
    assert "llama.cpp server" in items and "another OpenAI-compatible server" in items
    strict = dialog.findChild(QComboBox, "strictToolsCombo")
    assert strict.itemText(0) == "(as usual for this kind of server)"


def _labels(dialog) -> list[str]:
    from PySide6.QtWidgets import QLabel

    return [label.text() for label in dialog.findChildren(QLabel) if label.text()]
