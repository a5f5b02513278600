"""Issue 36, the dock's edges: the fingerprint check in one short line, the compared nodes
worded, the plan's After basis and those checks in Chinese too, an error said once, the
status colour reset by an example, Submit from History showing the Run tab, a host module
without ``mdb`` refused in words, and the offline host asking before it drops unsaved
changes."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QMessageBox

from sam_plugin.compilers.check_phrases import tally
from sam_plugin.compilers.evidence import Check
from sam_plugin.runtime.store.run_store import ErrorRecord
from sam_plugin.runtime.verify.part_comparison import REST
from sam_plugin.words.phrase import phrase
from tests.support.run_records import quad_summary as _summary
from tests.support.run_records import run_result as _result

TIMEOUT_MS = 20_000
# as a run makes them: with phrases, the English result.json keeps beside them
REST_CHECK = Check.said(
    phrase("check.rest"), ok=True,
    expected=phrase("check.as_before",
                    text="fingerprint 25n-16e-d989d835ff653283093760f189b32306 of everything "
                         "the calls do not touch, as before the run"),
    actual=phrase("check.as_before",
                  text="unchanged: 25 nodes, 16 elements and every set, membership, section, "
                       "orientation and definition the calls do not touch (0 touched entities "
                       "and names compared one by one); the whole part has the predicted "
                       "after-fingerprint 45n-32e-fe9a5e1c2b3d4f5a6b7c8d9e0f1a2b3c"))
assert REST_CHECK.name == REST
NEW_NODES = tally("nodes", 0, 0, 20)
NODES_CHECK = Check.said(phrase("check.nodes_as_planned"), ok=True,
                         expected=phrase("check.tally.coordinates", tally=NEW_NODES,
                                         tolerance="8e-05"),
                         actual=phrase("check.tally.as_planned", tally=NEW_NODES))
assert (NODES_CHECK.name, NODES_CHECK.expected, NODES_CHECK.actual) == (
    "nodes match the plan (exact)",
    "0 nodes changed, 0 removed, 20 new; changed ones at the planned coordinates (within 8e-05)",
    "0 nodes changed, 0 removed, 20 new as planned")


@pytest.fixture
def zh(qapp) -> Iterator[None]:
    from sam_plugin.ui import i18n

    translator = i18n.install_translator("zh_CN")
    yield
    i18n.remove_translator(translator)


def _view(qtbot, tmp_path):
    from sam_plugin.ui.result_view import ResultView

    view = ResultView()
    qtbot.addWidget(view)
    view.resize(370, 500)  # the dock's width in the demo window
    view.show()
    view.show_result(_result("verified", before=_summary(25, 16), after=_summary(45, 32),
                             checks=[REST_CHECK, NODES_CHECK]), tmp_path)
    qtbot.waitExposed(view)
    return view


def _row(view, name: str) -> int:
    return next(r for r in range(view.checks.rowCount()) if view.checks.item(r, 0).text() == name)


def test_the_fingerprint_check_is_one_short_line_with_the_hashes_on_hover(qtbot, tmp_path):
    view = _view(qtbot, tmp_path)
    rows = view.check_rows()
    assert ("rest of the part unchanged", "as before the run", "as before the run", "yes") in rows
    row = _row(view, "rest of the part unchanged")
    line = view.checks.fontMetrics().lineSpacing()
    assert view.checks.rowHeight(row) <= 2 * line + 8  # it was about 15 lines tall
    assert view.checks.item(row, 1).toolTip() == REST_CHECK.expected
    assert view.checks.item(row, 2).toolTip() == REST_CHECK.actual
    # 20 on a part of 45: the nodes compared one by one are the new or changed ones
    assert ("nodes changed, removed, added as planned", "0 changed, 0 removed, 20 new",
            "0 changed, 0 removed, 20 new", "yes") in rows


def test_the_fingerprint_check_and_the_compared_nodes_in_chinese(qtbot, tmp_path, zh):
    rows = _view(qtbot, tmp_path).check_rows()
    assert ("部件其余部分未改变", "与运行前相同", "与运行前相同", "是") in rows
    tally = "改动 0，删除 0，新增 20"
    assert ("改动、删除、新增的节点与计划一致", tally, tally, "是") in rows


def test_a_changed_rest_says_changed_in_a_word():
    from sam_plugin.ui.check_words import check_row

    changed = Check.said(phrase("check.rest"), REST_CHECK.expected_phrase or "", phrase(
        "check.changed", text="nodes changed (node 7 moved) (fingerprint x)"), ok=False)
    row = check_row(changed)
    assert (row.name, row.expected, row.actual) == (
        "rest of the part unchanged", "as before the run", "changed")
    assert row.raw[2] == changed.actual


BASES = [
    ("read-only: the part stays as it is (fingerprint unchanged)",
     "After is exact: these operations only read; the part stays as it is.",
     "“之后”是精确的：这些操作只读取；部件保持不变。"),
    ("the refined elements are gone, their children and new nodes counted; the rest of the "
     "part compared through the fingerprint",
     "After: the refined elements are replaced by their children and the new nodes counted; "
     "the rest of the part is compared through its fingerprint.",
     "“之后”：被细化的单元由其子单元取代，并统计新增节点；部件其余部分通过其指纹比较。"),
    ("exact: the geometry unchanged, the sections and orientations the calls give the "
     "elements they pick; the definitions they write read back by value",
     "After is exact: the geometry stays as it is; the elements picked get the sections and "
     "orientations of these operations, and the definitions they write are read back by "
     "value.",
     "“之后”是精确的：几何保持不变；选中的单元获得这些操作给出的截面和方向，它们写入的定义按数值回读。"),
    ("counts: the part does not exist after the calls",
     "After: the part does not exist after these operations.",
     "“之后”：这些操作之后部件不存在。"),
]


@pytest.mark.parametrize(("basis", "english", "chinese"), BASES)
def test_how_after_was_worked_out_is_said_in_both_languages(qapp, basis, english, chinese):
    from sam_plugin.ui import i18n
    from sam_plugin.ui.plan_text import basis_words

    assert basis_words(basis) == english
    translator = i18n.install_translator("zh_CN")
    try:
        words = basis_words(basis)
    finally:
        i18n.remove_translator(translator)
    assert words == chinese and "How After" not in words


def test_a_long_error_is_shown_once_below_not_begun_in_the_status_line(qtbot, dock):
    message = "the design request failed: " + "a long provider message, " * 30
    dock._finish_ui(_result("failed", ErrorRecord(layer="provider", message=message),  # noqa: SLF001
                            before=_summary(25, 16)), back_in_review=False)
    status = dock.status_label.text().replace("\u200b", "")
    assert status == "Failed — provider: the message is below"
    shown = dock.result_view.error_label.text().replace("\u200b", "")
    assert shown.count("the design request failed") == 1
    assert shown.startswith("Error in provider: the design request failed: a long provider")


def test_picking_an_example_after_a_failure_says_ready_in_the_plain_colour(qtbot, replay,
                                                                           dock):
    dock.request_edit.setPlainText("a request the replay has no answer for")
    dock.submit_button.click()
    qtbot.waitUntil(lambda: not dock.busy and "Failed" in dock.status_label.text(),
                    timeout=TIMEOUT_MS)
    assert "#cf222e" in dock.status_label.styleSheet()
    dock.example_combo.setCurrentIndex(1)
    dock.example_combo.activated.emit(1)  # as a click on it
    assert dock.status_label.text() == "Ready"
    assert "#cf222e" not in dock.status_label.styleSheet()


def test_submit_from_the_history_tab_shows_the_run_tab(qtbot, replay, dock):
    from sam_plugin.demo.examples import example_by_id

    example = example_by_id("steel_shell")
    dock.set_target(example.mode, example.model, example.part)
    dock.request_edit.setPlainText(example.request)
    dock.tabs.setCurrentWidget(dock.history_panel)
    dock.submit_button.click()
    qtbot.waitUntil(lambda: not dock.busy and "Review" in dock.status_label.text(),
                    timeout=TIMEOUT_MS)
    assert dock.tabs.currentIndex() == 0 and dock.tabs.tabText(0) == "Run"
    assert dock.tabs.currentWidget().isAncestorOf(dock.spec_view)  # the spec is in sight


# -- the offline host: unsaved changes --------------------------------------------------------


def _changed(window) -> None:
    part = window.sam.mdb.models["Model-1"].parts["Panel"]
    part.Node(coordinates=(99.0, 99.0, 0.0))  # what a run does to the model


def _answer(qtbot, window, button: QMessageBox.StandardButton) -> str:
    box = window.findChild(QMessageBox, "unsavedChangesDialog")
    assert box is not None and box.isVisible()
    text = box.text()
    box.button(button).click()
    qtbot.waitUntil(lambda: window.findChild(QMessageBox, "unsavedChangesDialog") is None,
                    timeout=TIMEOUT_MS)
    return text


def test_quit_asks_about_unsaved_changes_and_cancel_keeps_the_window(qtbot, host_window):
    host_window.show()
    qtbot.waitExposed(host_window)
    assert not host_window.unsaved_changes()
    _changed(host_window)
    assert host_window.unsaved_changes()
    quit_action = next(a for a in host_window.menuBar().actions()[0].menu().actions()
                       if a.text() == "&Quit")
    quit_action.trigger()
    text = _answer(qtbot, host_window, QMessageBox.StandardButton.Cancel)
    assert text == ("The model has changes that are not saved in sample.sam.json. Save them "
                    "before you quit?")
    assert host_window.isVisible()
    host_window.close()  # the window's own close asks too
    _answer(qtbot, host_window, QMessageBox.StandardButton.Discard)
    assert not host_window.isVisible()


def test_save_in_the_question_writes_the_workspace_then_quits(qtbot, host_window):
    import json

    host_window.show()
    qtbot.waitExposed(host_window)
    _changed(host_window)
    host_window.close()
    _answer(qtbot, host_window, QMessageBox.StandardButton.Save)
    assert not host_window.isVisible()
    saved = json.loads(host_window.workspace_path.read_text())
    panel = next(p for p in saved["models"][0]["parts"] if p["name"] == "Panel")
    assert len(panel["nodes"]["labels"]) == 26


def test_a_new_workspace_asks_first_and_nothing_changed_asks_nothing(qtbot, host_window):
    host_window.show()
    qtbot.waitExposed(host_window)
    new = next(a for a in host_window.menuBar().actions()[0].menu().actions()
               if a.text() == "&New")
    _changed(host_window)
    new.trigger()
    assert "before you start a new workspace?" in _answer(
        qtbot, host_window, QMessageBox.StandardButton.Cancel)
    assert "Panel" in host_window.sam.mdb.models["Model-1"].parts.keys()
    new.trigger()
    _answer(qtbot, host_window, QMessageBox.StandardButton.Discard)
    assert list(host_window.sam.mdb.models["Model-1"].parts.keys()) == []
    assert not host_window.unsaved_changes()
    new.trigger()  # nothing to lose: no question
    assert host_window.findChild(QMessageBox, "unsavedChangesDialog") is None
