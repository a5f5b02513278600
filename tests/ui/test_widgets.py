"""Dock widgets in isolation: translations, status words, result view, settings, history."""

from __future__ import annotations

import ast
import json
import os
from pathlib import Path

import pytest
from PySide6.QtWidgets import QComboBox, QLineEdit

from sam_plugin.compilers.evidence import Check
from sam_plugin.compilers.protocol import Target
from sam_plugin.runtime.store.run_store import ErrorRecord, RunResult, StateSummary
from sam_plugin.ui import i18n

UI_DIR = Path(i18n.__file__).resolve().parent


def _literal_tr_strings() -> set[str]:
    found = set()
    for path in UI_DIR.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "tr"
                    and node.args and isinstance(node.args[0], ast.Constant)):
                found.add(node.args[0].value)
    return found


def test_every_ui_string_has_a_simplified_chinese_translation():
    """Every ``tr()`` string of the dock; a mode's title is its domain's
    (``test_load_dock.test_every_mode_of_the_combo_is_said_in_chinese``)."""
    from sam_plugin.ui.settings_dialog import (
        CAPABILITY_OVERRIDE_ROWS,
        PROFILE_WORDS,
        TIMEOUT_FIELDS,
    )

    table = i18n.read_ts(i18n.TRANSLATIONS_DIR / "sam_agent_zh_CN.ts")
    sources = {source for (_, source) in table}
    wanted = _literal_tr_strings() | {t for _, t in TIMEOUT_FIELDS}
    wanted |= {label for _, _, label in CAPABILITY_OVERRIDE_ROWS}
    wanted |= set(PROFILE_WORDS.values())
    assert len(wanted) > 80
    assert sorted(wanted - sources) == []
    for (_, source), translation in table.items():  # placeholders survive translation
        for name in ("{reason}", "{error}", "{collected}", "{expected}", "{path}"):
            assert (name in source) == (name in translation), source


def test_dock_follows_the_host_locale(qtbot, ui_env, workspace, monkeypatch):
    import sam_host

    window = sam_host.create_window(workspace, locale="zh_CN")
    qtbot.addWidget(window)
    dock = window.findChild(object, "samAgentDock")
    try:
        assert dock.submit_button.text() == "提交"
        assert dock.confirm_button.text() == "确认"
        assert dock.status_label.text() == "就绪"
        assert dock.mode_combo.itemText(0) == "部件"
    finally:
        window.shutdown()
    assert i18n.tr("Submit") == "Submit"  # the translator left with the plugin


def test_locale_names_and_languages():
    assert i18n.locale_name("zh-CN") == "zh_CN"
    assert i18n.locale_name("zh_CN.UTF-8") == "zh_CN"
    assert i18n.ui_language("zh_TW") == "zh"
    assert i18n.ui_language("en_GB") == "en"
    assert i18n.translation_file("fr_FR") is None
    assert i18n.translation_file("zh_SG").name == "sam_agent_zh_CN.ts"
    assert i18n.translation_file("zh_TW") is None


def test_status_words_never_claim_done_before_verified():
    from sam_plugin.ui.status_words import final_words, phase_words

    words = [phase_words(p) for p in ("idle", "observing", "designing", "review", "compiling",
                                      "executing", "verifying", "complete")]
    assert phase_words("collecting", (2, 3)) == "Collecting tool calls 2/3"
    assert phase_words("executing") == "Submitted to SAM"
    assert phase_words("complete") == "Executed — verifying"  # only the result says Verified
    assert not any("done" in w.lower() or "verified" in w.lower() for w in words)
    failed = _result("failed", ErrorRecord(layer="execution", message="boom\n  - line two"))
    assert final_words(failed) == "Failed — execution: boom — line two"
    assert final_words(_result("verified")) == "Verified"
    assert final_words(_result("cancelled")) == "Cancelled — nothing was executed"


def _result(status: str, error: ErrorRecord | None = None, **extra) -> RunResult:
    return RunResult(run_id="20261129T193000Z-ab12cd", status=status, phase="x", module="part",
                     target=Target(model_name="Model-1", part_name="Plate"), error=error,
                     **extra)


def test_result_view_shows_counts_checks_error_action_and_run_link(qtbot, tmp_path):
    from sam_plugin.ui.result_view import ResultView

    view = ResultView()
    qtbot.addWidget(view)
    before = StateSummary(node_count=25, element_count=16,
                          shape_counts={"QUAD": 16, "TRI": 0, "BEAM": 0}, sets=[])
    after = StateSummary(node_count=45, element_count=32,
                         shape_counts={"QUAD": 32, "TRI": 0, "BEAM": 0}, sets=["Left", "Right"])
    result = _result("failed", ErrorRecord(layer="verification", message="node count off"),
                     before=before, after=after,
                     checks=[Check(name="node count", expected="45", actual="44", ok=False)])
    view.show_result(result, tmp_path / "run")
    assert [view.cell(k, "after") for k in ("nodes", "elements", "QUAD", "TRI", "BEAM", "sets")] \
        == ["45", "32", "32", "0", "0", "Left, Right"]
    assert view.cell("sets", "before") == "—"
    assert view.check_rows() == [("node count", "45", "44", "NO")]
    assert view.error_label.text() == (
        "Error in verification: node count off\n"
        "The part may be partly modified: re-observe before the next run.")
    assert "Open the run directory" in view.link.text()
    opened: list[str] = []
    import sam_plugin.ui.result_view as module

    original = module.QDesktopServices.openUrl
    module.QDesktopServices.openUrl = lambda url: opened.append(url.toLocalFile()) or True
    try:
        view.link.linkActivated.emit("x")
    finally:
        module.QDesktopServices.openUrl = original
    assert opened == [str(tmp_path / "run")]


def test_settings_store_without_keyring_says_where_the_key_is(tmp_path):
    from sam_plugin.runtime.config.store import SettingsStore

    store = SettingsStore(tmp_path / "cfg" / "settings.json", keyring_module=None)
    assert store.key_storage_note() == (
        "No system keyring is available: the API key is kept in plain text in "
        f"{tmp_path / 'cfg' / 'settings.json'}.")
    store.save({"base_url": "http://localhost:11434/v1", "model": "qwen", "temperature": 0.2},
               "sk-secret")
    assert store.load() == {"base_url": "http://localhost:11434/v1", "model": "qwen",
                            "temperature": 0.2, "api_key": "sk-secret"}
    if os.name == "posix":
        assert (store.path.stat().st_mode & 0o777) == 0o600
    settings = store.effective({"SAM_AGENT_MODEL": "llama3"})  # the environment wins
    assert (settings.model, settings.base_url) == ("llama3", "http://localhost:11434/v1")
    assert settings.api_key.get_secret_value() == "sk-secret"


def test_settings_store_uses_a_keyring_when_one_exists(tmp_path):
    from sam_plugin.runtime.config.store import SettingsStore

    class FakeKeyring:
        def __init__(self) -> None:
            self.saved: dict[tuple[str, str], str] = {}

        def set_password(self, service, user, value):
            self.saved[service, user] = value

        def get_password(self, service, user):
            return self.saved.get((service, user))

    keyring = FakeKeyring()
    store = SettingsStore(tmp_path / "settings.json", keyring_module=keyring)
    store.save({"model": "m"}, "sk-in-keyring")
    assert "sk-in-keyring" not in store.path.read_text()
    assert store.load()["api_key"] == "sk-in-keyring"
    assert store.key_storage_note() == "The API key is kept in the system keyring."


def test_settings_dialog_masks_the_key_and_saves(qtbot, tmp_path):
    from sam_plugin.runtime.config.store import SettingsStore
    from sam_plugin.ui.settings_dialog import SettingsDialog

    store = SettingsStore(tmp_path / "settings.json", keyring_module=None)
    dialog = SettingsDialog(store, env={"SAM_AGENT_MODEL": "from-env"})
    qtbot.addWidget(dialog)
    assert dialog.api_key.echoMode() == QLineEdit.EchoMode.Password
    assert dialog.env_note.text().startswith(
        "Set in your environment, and used instead of what is saved here: SAM_AGENT_MODEL")
    assert "plain text" in dialog.key_note.text()
    assert dialog.replay_radio.isChecked()  # nothing saved: the replay
    assert not dialog.live_fields.isEnabled()
    dialog.live_radio.setChecked(True)
    assert dialog.live_fields.isEnabled()
    dialog.base_url.setText("https://api.deepseek.com/v1")
    dialog.model.setText("deepseek-chat")
    dialog.api_key.setText("sk-1")
    dialog.timeouts["total_timeout"].setValue(300)
    # as after "Save anyway": no network here (test_settings.py tests the test on Save)
    dialog._save_untested = dialog._endpoint()  # noqa: SLF001
    dialog.save()
    saved = json.loads(store.path.read_text())
    assert saved["provider"] == "live"
    assert saved["base_url"] == "https://api.deepseek.com/v1"
    assert saved["total_timeout"] == 300
    # Test connection tests what was typed, not the environment
    assert dialog.settings().model == "deepseek-chat"


def test_the_environment_note_names_only_what_the_user_set(qtbot, tmp_path):
    from sam_plugin.runtime.config.store import SettingsStore
    from sam_plugin.ui.settings_dialog import SettingsDialog

    store = SettingsStore(tmp_path / "settings.json", keyring_module=None)
    dialog = SettingsDialog(store, env={"SAM_AGENT_REPLAY": "1", "SAM_AGENT_RUNS_DIR": "/x"})
    qtbot.addWidget(dialog)
    assert dialog.env_note.text() == "" and dialog.env_note.isHidden()


def test_settings_dialog_saves_repair_rounds_and_profile_option_overrides(qtbot, tmp_path):
    from sam_plugin.runtime.config.store import SettingsStore
    from sam_plugin.ui.settings_dialog import SettingsDialog

    store = SettingsStore(tmp_path / "settings.json", keyring_module=None)
    dialog = SettingsDialog(store, env={})
    qtbot.addWidget(dialog)
    assert dialog.repair_rounds.value() == 2
    dialog.base_url.setText("http://127.0.0.1:8080/v1")
    dialog.model.setText("qwen")
    dialog.repair_rounds.setValue(0)
    dialog.profile.setCurrentIndex(dialog.profile.findData("llamacpp"))
    combo = dialog.findChild(QComboBox, "textToolCallsCombo")
    combo.setCurrentIndex(combo.findData(False))
    dialog.save()
    saved = json.loads(store.path.read_text())
    assert saved["repair_rounds"] == 0 and saved["text_tool_calls"] is False
    assert "one_call_per_round" not in saved  # "as the profile says" is not stored
    settings = SettingsDialog(store, env={}).settings()
    assert SettingsDialog(store, env={}).policy().repair_rounds == 0
    assert settings.profile == "llamacpp" and not settings.capabilities.text_tool_calls
    assert settings.capabilities.one_call_per_round


def test_test_connection_reports_a_refused_connection(qtbot, tmp_path):
    import socket

    from sam_plugin.runtime.config.store import SettingsStore
    from sam_plugin.ui.settings_dialog import SettingsDialog

    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    dialog = SettingsDialog(SettingsStore(tmp_path / "s.json", keyring_module=None), env={})
    qtbot.addWidget(dialog)
    dialog.live_radio.setChecked(True)
    dialog.base_url.setText(f"http://127.0.0.1:{port}/v1")
    dialog.model.setText("m")
    from sam_plugin.ui.event_loop import attach_qasync, release_qasync

    lease = attach_qasync()
    try:
        dialog.test_button.click()
        qtbot.waitUntil(lambda: dialog.test_result.text() == (
            f"Nothing answers at 127.0.0.1:{port}: check the base URL, and that the server is "
            "running."), timeout=10_000)
    finally:
        release_qasync(lease)


def test_history_lists_runs_newest_first(qtbot, tmp_path):
    from sam_plugin.runtime.store.run_store import RunDir
    from sam_plugin.ui.history_view import HistoryView

    for run_id, status, request in (("20261129T100000Z-aaaaaa", "verified", "build a plate"),
                                    ("20261129T110000Z-bbbbbb", "failed", "refine\nall")):
        run = RunDir(tmp_path, run_id).create()
        run.write_text("request.txt", request)
        run.write_result(_result(status).model_copy(update={"run_id": run_id}))
    view = HistoryView(tmp_path)
    qtbot.addWidget(view)
    view.refresh()
    from sam_plugin.ui.history_view import local_time

    assert view.rows() == [
        (local_time("2026-11-29T11:00:00Z"), "failed", "part", "Model-1/Plate", "—", "—", "—",
         "refine all"),
        (local_time("2026-11-29T10:00:00Z"), "verified", "part", "Model-1/Plate", "—", "—",
         "—", "build a plate"),
    ]
    assert view.topLevelItem(0).toolTip(2).startswith("refine\nall")  # whole, on any column


@pytest.mark.parametrize("phase", ["designing", "collecting"])
def test_phase_words_for_streaming_phases(phase):
    from sam_plugin.ui.status_words import phase_words

    assert phase_words(phase) in {"Designing — the model is writing the spec",
                                  "Collecting tool calls"}


def test_the_installed_qt_binding_keeps_reference_counts(qapp):
    from sam_plugin.ui.binding_check import binding_problem

    assert binding_problem() is None


def test_the_dock_offers_every_registered_mode_under_its_module_title():
    from sam_plugin.compilers.registry import MODES as REGISTERED
    from sam_plugin.compilers.registry import get_module
    from sam_plugin.ui.dock import MODES

    assert [mode for mode, _ in MODES] == list(REGISTERED)
    assert all(get_module(mode).title == title for mode, title in MODES)


def test_the_exact_plan_checks_read_in_short_words():
    """A check is said from its phrases in short words; a check of a run written before
    phrases shows its recorded English as it is (docs/architecture.md "Messages as data")."""
    from sam_plugin.compilers.check_phrases import tally
    from sam_plugin.compilers.evidence import Check
    from sam_plugin.ui.check_words import check_row
    from sam_plugin.words.phrase import phrase as p

    def shown(name, expected, actual="x", ok=True):
        row = check_row(Check.said(name, expected, actual, ok))
        return row.name, row.expected

    one = tally("nodes", 1, 0, 0)
    assert shown(p("check.nodes_as_planned"), "x")[0] == "nodes changed, removed, added as planned"
    assert shown(p("check.existing_elements_as_planned"), "x")[0] == (
        "existing elements as planned (new ones: element count)")
    assert shown(p("check.existing_elements_as_planned"),
                 p("check.tally.shapes", tally=tally("elements", 0, 16, None)))[1] == (
        "0 changed, 16 removed")
    assert shown(p("check.nodes_as_planned"), p("check.tally.as_planned", tally=one))[1] == (
        "1 changed, 0 removed, 0 new")
    assert shown(p("check.sections_as_planned"), "x")[0] == "sections as planned"
    assert shown(p("check.set_members_as_planned"), p("check.sets_as_planned", count=0))[1] == (
        "0 set(s)")
    difference = "node 1 at (5.5, 0, 0), planned (5, 0, 0)"
    assert check_row(Check.said(p("check.nodes_as_planned"), "x", difference, False)).actual == (
        difference)  # a difference is shown as it is
    # a run written before phrases: its English, not read back into words
    old = Check(name="nodes match the plan (exact)",
                expected="45 nodes at the planned coordinates (within 1e-05)",
                actual="32 elements with the planned shapes and nodes", ok=True)
    row = check_row(old)
    assert (row.name, row.expected, row.actual) == (old.name, old.expected, old.actual)
