"""Errors and progress in words: a dead URL is "nothing answers at …", its retries say which
try this is, its advice is about the URL (an example helps only the replay), the error is said
once, and "Open the run directory" without a file manager says where the directory is."""

from __future__ import annotations

import socket

from sam_plugin.demo.examples import example_by_id
from sam_plugin.runtime.config.store import SettingsStore
from sam_plugin.ui.fitting import unbreakable

TIMEOUT_MS = 20_000


def _dead_port() -> int:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _submit_plate(dock) -> None:
    example = example_by_id("plate")
    dock.set_target(example.mode, example.model, example.part)
    dock.request_edit.setPlainText(example.request)
    dock.submit_button.click()


def test_a_dead_url_says_nothing_answers_counts_its_tries_and_says_it_once(qtbot, dock, ui_env):
    port = _dead_port()
    SettingsStore().save({"provider": "live", "base_url": f"http://127.0.0.1:{port}/v1",
                          "model": "m", "profile": "generic"}, "")
    dock.refresh_provider()
    _submit_plate(dock)
    host = f"127.0.0.1:{port}"
    qtbot.waitUntil(lambda: dock.status_label.text().startswith(
        f"Connecting to {host} (try 2 of 4) — the last try: nothing answers at {host}"),
        timeout=TIMEOUT_MS)
    assert "writing the spec" not in dock.status_label.text()
    qtbot.waitUntil(lambda: "try 4 of 4" in dock.status_label.text(), timeout=TIMEOUT_MS)
    qtbot.waitUntil(lambda: not dock.busy and "Failed" in dock.status_label.text(),
                    timeout=TIMEOUT_MS)
    status = unbreakable(dock.status_label.text())
    assert status == f"Failed — provider: the design request failed: nothing answers at {host}"
    error = unbreakable(dock.result_view.error_label.text())
    assert error == ("Nothing was executed. Check the base URL in Settings… and that the model "
                     "server there is running, then submit again.")
    assert "example" not in error.lower()
    shown = status + "\n" + error
    assert shown.count("nothing answers") == 1  # said once
    assert "All connection attempts failed" in dock.result_view.error_label.toolTip()


def test_the_replay_advises_an_example_for_a_request_it_does_not_know(qtbot, replay, dock):
    dock.set_target("part", "Model-1", "Plate")
    dock.request_edit.setPlainText("paint the plate red")
    dock.submit_button.click()
    qtbot.waitUntil(lambda: not dock.busy and "Failed" in dock.status_label.text(),
                    timeout=TIMEOUT_MS)
    error = unbreakable(dock.result_view.error_label.text())
    assert error.endswith("Nothing was executed. Pick a request under Examples (the replay "
                          "answers only those), or choose a live model in Settings….")


def test_designing_waits_for_the_first_word_before_saying_the_model_writes(qtbot, dock):
    from sam_plugin.runtime.events import event_from

    def event(name, **data):
        return event_from(name, data)

    dock._on_event(event("phase_changed", phase="designing", label="Designing"))  # noqa: SLF001
    assert dock.status_label.text() == "Designing — waiting for the model to answer"
    dock._on_event(event("design_delta", text="Spec: "))  # noqa: SLF001
    assert dock.status_label.text() == "Designing — the model is writing the spec"
    dock._on_event(event("design_delta", text="build"))  # noqa: SLF001
    assert dock.spec_view.toPlainText() == "Spec: build"


def test_open_the_run_directory_without_a_file_manager_says_where_it_is(qtbot, monkeypatch,
                                                                         tmp_path):
    from PySide6.QtGui import QDesktopServices

    from sam_plugin.ui.result_view import ResultView

    view = ResultView()
    qtbot.addWidget(view)
    run_dir = tmp_path / "runs" / "20261201T120000Z-abcdef"
    run_dir.mkdir(parents=True)
    view.set_run_dir(run_dir)
    view.show()
    monkeypatch.setattr(QDesktopServices, "openUrl", staticmethod(lambda url: False))
    view.link.linkActivated.emit(run_dir.as_uri())
    note = view.findChild(type(view.link), "runDirNote")
    assert note.isVisible()
    assert unbreakable(note.text()) == (
        f"No file manager could open the run directory; it is {run_dir} (History → Details… "
        "shows its files here).")
    view.clear()
    assert note.isHidden()
