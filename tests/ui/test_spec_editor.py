"""The analyst edits the spec in Review, as a user would (docs/ui.md "Editing the spec"):
``editSpecButton``, the fields of ``specForm``, ``specJsonEdit``, Confirm, Discard. The calls
are computed from the confirmed steps (``calls: spec``): no model is asked after the design."""

from __future__ import annotations

import json

import pytest
from plan_steps import approve_plan
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QLabel, QLineEdit, QPlainTextEdit, QPushButton

from sam_plugin.demo.streams import openai_stream
from sam_plugin.ui.fitting import unbreakable

TIMEOUT_MS = 20_000
TRANSLATE = {"summary": "Move the panel 5 along X.",
             "steps": [{"capability": "transform", "action": "translate", "scope": {"by": "all"},
                        "values": {"vector": [5, 0, 0]}, "text": ""}]}

pytestmark = pytest.mark.usefixtures("calls_from_spec")


def _to_review(qtbot, replay, dock, spec=TRANSLATE):
    replay.enqueue_stream(openai_stream(content=json.dumps(spec)))
    dock.set_target("part", "Model-1", "Panel")
    dock.request_edit.setPlainText("move the panel 5 along x")
    dock.submit_button.click()
    qtbot.waitUntil(lambda: not dock.busy and "Review" in dock.status_label.text(),
                    timeout=TIMEOUT_MS)


def _child(dock, kind, name):
    found = dock.findChild(kind, name)
    assert found is not None, name
    return found


def _open_editor(qtbot, dock):
    button = _child(dock, QPushButton, "editSpecButton")
    assert not button.isHidden() and button.isEnabled()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert not _child(dock, object, "specEditor").isHidden()
    assert dock.spec_view.isHidden()


def _type(qtbot, field: QLineEdit, text: str) -> None:
    field.selectAll()
    qtbot.keyClick(field, Qt.Key.Key_Delete)
    qtbot.keyClicks(field, text)


def _field(dock, path: str) -> QLineEdit:
    return _child(dock, QLineEdit, f"specField:{path}")


def _problem(dock, path: str) -> QLabel:
    return _child(dock, QLabel, f"specProblem:{path}")


def _text(label: QLabel) -> str:
    """What the label says (long words in it may break: docs/ui.md "Small screens")."""
    return unbreakable(label.text())


def _revisions(dock) -> list[dict]:
    path = dock.runs_dir / dock.controller.run_id / "revisions.json"
    return json.loads(path.read_text()) if path.exists() else []


def _confirm_to_plan(qtbot, dock):
    qtbot.mouseClick(dock.confirm_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not dock.busy, timeout=TIMEOUT_MS)
    assert "Plan" in dock.status_label.text(), (dock.status_label.text(),
                                                dock.spec_editor.problems())


def test_the_translate_vector_edited_in_review_is_planned_and_verified(qtbot, replay, dock):
    _to_review(qtbot, replay, dock)
    asked = len(replay.requests)
    _open_editor(qtbot, dock)
    y = _field(dock, "steps[0].values.vector[1]")
    assert [_field(dock, f"steps[0].values.vector[{i}]").text() for i in range(3)] == \
        ["5", "0", "0"]
    _type(qtbot, y, "7")
    # the JSON follows the fields
    shown = json.loads(_child(dock, QPlainTextEdit, "specJsonEdit").toPlainText())
    assert shown["steps"][0]["values"]["vector"] == [5, 7, 0]
    _confirm_to_plan(qtbot, dock)
    assert "step 1 ✓ translate all nodes by (5, 7, 0)" in dock.plan_view.toPlainText()
    assert "translate all nodes by (5, 7, 0)" in dock.spec_view.toPlainText()  # shown again
    assert dock.spec_extras.notes.text().splitlines() == [
        "Changed since the last version:", "• step 1 vector: (5, 0, 0) mm → (5, 7, 0) mm"]
    assert _child(dock, object, "specEditor").isHidden()
    approve_plan(qtbot, dock)
    assert "Verified" in dock.status_label.text()
    assert dock.controller.result.status == "verified"
    assert len(replay.requests) == asked  # no model was asked for the edit nor the calls
    revision = _revisions(dock)[-1]
    assert revision["author"] == "analyst" and revision["version"] == 2
    assert [c["path"] for c in revision["changes"]] == ["steps[0].values.vector"]
    calls = json.loads((dock.runs_dir / dock.controller.run_id / "tool_calls.json").read_text())
    assert calls[0]["source"] == "spec"
    assert json.loads(calls[0]["arguments"])["operations"][0]["vector"] == [5, 7, 0]


def test_a_bad_value_shows_the_readers_words_on_its_field_and_confirms_nothing(
        qtbot, replay, dock):
    _to_review(qtbot, replay, dock)
    standing = dock.controller.spec
    _open_editor(qtbot, dock)
    _type(qtbot, _field(dock, "steps[0].values.vector[1]"), "seven")
    problem = _problem(dock, "steps[0].values.vector")
    assert not problem.isHidden()
    assert _text(problem) == "[1]: 'seven' is not of type 'number'"
    qtbot.mouseClick(dock.confirm_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not dock.busy, timeout=TIMEOUT_MS)
    assert dock.status_label.text() == (
        "Review — the edited spec has 1 problem(s), shown on its fields; nothing was "
        "confirmed: correct them, or Discard the edit")
    assert str(dock.controller.phase) == "review" and dock.controller.spec == standing
    assert _revisions(dock) == [] and dock.controller.plan is None
    assert not problem.isHidden() and not _child(dock, object, "specEditor").isHidden()
    _type(qtbot, _field(dock, "steps[0].values.vector[1]"), "7")  # corrected: it goes
    assert problem.isHidden()


def test_a_spec_edit_spec_refuses_stays_in_the_editor_with_its_problems(qtbot, replay, dock):
    _to_review(qtbot, replay, dock)
    standing = dock.spec_view.toPlainText()
    _open_editor(qtbot, dock)
    action = _child(dock, QComboBox, "specField:steps[0].action")
    action.setCurrentIndex(action.findData("build"))  # reads as a spec, but Panel has nodes
    assert _field(dock, "summary").text() == "Move the panel 5 along X."  # kept
    qtbot.mouseClick(dock.confirm_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not dock.busy, timeout=TIMEOUT_MS)
    assert dock.status_label.text().startswith("Review — the edited spec has 1 problem(s)")
    assert _text(_problem(dock, "steps")).startswith(
        "Panel already has 25 nodes: ask to edit it, or pick a new part name")
    assert str(dock.controller.phase) == "review" and _revisions(dock) == []
    qtbot.mouseClick(_child(dock, QPushButton, "discardEditButton"), Qt.MouseButton.LeftButton)
    assert not dock.spec_view.isHidden() and dock.spec_view.toPlainText() == standing
    assert _child(dock, object, "specEditor").isHidden()


def test_discard_restores_the_standing_spec(qtbot, replay, dock):
    _to_review(qtbot, replay, dock)
    standing = dock.controller.spec
    _open_editor(qtbot, dock)
    assert not dock.revise_button.isEnabled()  # Ask for changes would drop the edit
    _type(qtbot, _field(dock, "steps[0].values.vector[0]"), "50")
    qtbot.mouseClick(_child(dock, QPushButton, "discardEditButton"), Qt.MouseButton.LeftButton)
    assert dock.revise_button.isEnabled()
    assert "by (5, 0, 0)" in dock.spec_view.toPlainText()
    _open_editor(qtbot, dock)  # opened again: the standing spec, not the discarded edit
    assert _field(dock, "steps[0].values.vector[0]").text() == "5"
    qtbot.mouseClick(_child(dock, QPushButton, "discardEditButton"), Qt.MouseButton.LeftButton)
    _confirm_to_plan(qtbot, dock)
    assert dock.controller.spec == standing and _revisions(dock) == []
    assert "translate all nodes by (5, 0, 0)" in dock.plan_view.toPlainText()


def test_steps_are_removed_and_added_from_the_vocabulary(qtbot, replay, dock):
    _to_review(qtbot, replay, dock)
    _open_editor(qtbot, dock)
    add = _child(dock, QComboBox, "specAddAction")
    assert [add.itemData(i) for i in range(add.count())][:3] == ["build", "add_nodes",
                                                                 "add_elements"]
    add.setCurrentIndex(add.findData("merge_nodes"))
    qtbot.mouseClick(_child(dock, QPushButton, "specAddStep"), Qt.MouseButton.LeftButton)
    assert _child(dock, object, "specStep:steps[1]").title() == "Step 2"
    _type(qtbot, _field(dock, "steps[1].values.tolerance"), "0.01")
    qtbot.mouseClick(_child(dock, QPushButton, "specRemove:steps[0]"),
                     Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dock.findChild(object, "specStep:steps[1]") is None)
    assert _field(dock, "steps[0].values.tolerance").text() == "0.01"  # moved up
    qtbot.mouseClick(_child(dock, QPushButton, "specRemove:steps[0]"),
                     Qt.MouseButton.LeftButton)
    assert _text(_problem(dock, "steps")) == "[] should be non-empty"  # none left
    add.setCurrentIndex(add.findData("merge_nodes"))
    qtbot.mouseClick(_child(dock, QPushButton, "specAddStep"), Qt.MouseButton.LeftButton)
    _type(qtbot, _field(dock, "steps[0].values.tolerance"), "0.01")
    _confirm_to_plan(qtbot, dock)
    assert "step 1 ✓ merge coincident nodes within 0.01" in dock.plan_view.toPlainText()
    assert [s.action for s in dock.controller.spec.steps] == ["merge_nodes"]
    approve_plan(qtbot, dock)
    assert "Verified" in dock.status_label.text()


def test_a_scope_and_a_new_step_with_a_required_scope(qtbot, replay, dock):
    _to_review(qtbot, replay, dock)
    _open_editor(qtbot, dock)
    by = _child(dock, QComboBox, "specField:steps[0].scope.by")
    by.setCurrentIndex(by.findData("labels"))
    labels = _field(dock, "steps[0].scope.labels")
    assert not labels.isHidden()
    _type(qtbot, labels, "2-4, 9")  # element 1 is the one the box deletes
    shown = json.loads(_child(dock, QPlainTextEdit, "specJsonEdit").toPlainText())
    assert shown["steps"][0]["scope"] == {"by": "labels", "labels": [2, 3, 4, 9]}
    add = _child(dock, QComboBox, "specAddAction")
    add.setCurrentIndex(add.findData("delete_elements"))
    qtbot.mouseClick(_child(dock, QPushButton, "specAddStep"), Qt.MouseButton.LeftButton)
    assert _text(_problem(dock, "steps[1].scope")) == (
        'delete_elements needs a scope, the entities it acts on ({"by":"all"} for the whole '
        "part)")
    box = _child(dock, QComboBox, "specField:steps[1].scope.by")
    box.setCurrentIndex(box.findData("box"))
    for corner, point in (("min", ("0", "0", "0")), ("max", ("10", "10", "0"))):
        for index, value in enumerate(point):
            _type(qtbot, _field(dock, f"steps[1].scope.{corner}[{index}]"), value)
    assert _problem(dock, "steps[1].scope").isHidden()
    _confirm_to_plan(qtbot, dock)
    spec = dock.controller.spec.as_json()
    assert spec["steps"][1]["scope"] == {"by": "box", "min": [0.0, 0.0, 0.0],
                                         "max": [10.0, 10.0, 0.0]}


def test_the_json_edit_keeps_the_fields_in_step_and_is_confirmed(qtbot, replay, dock):
    _to_review(qtbot, replay, dock)
    _open_editor(qtbot, dock)
    tabs = _child(dock, object, "specEditTabs")
    tabs.setCurrentIndex(1)
    edit = _child(dock, QPlainTextEdit, "specJsonEdit")
    broken = edit.toPlainText().replace('"summary"', '"summary', 1)
    edit.setPlainText(broken)
    problems = _child(dock, QLabel, "specEditProblems")
    assert not problems.isHidden() and _text(problems).startswith(
        "• the JSON object does not parse: ")
    qtbot.mouseClick(dock.confirm_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not dock.busy, timeout=TIMEOUT_MS)
    assert dock.status_label.text().startswith("Review — the edited spec has 1 problem(s)")
    edited = json.loads(json.dumps(TRANSLATE))
    edited["steps"][0]["values"]["vector"] = [0, -3.5, 0]
    edit.setPlainText(json.dumps(edited))
    assert problems.isHidden()
    assert [_field(dock, f"steps[0].values.vector[{i}]").text() for i in range(3)] == \
        ["0", "-3.5", "0"]
    edited["steps"][0]["values"]["vector"] = [0, 7]
    edit.setPlainText(json.dumps(edited))  # in JSON the problem is listed, path and all
    assert _text(problems) == "• steps[0].values.vector: [0, 7] is too short"
    assert _text(_problem(dock, "steps[0].values.vector")) == "[0, 7] is too short"
    edited["steps"][0]["values"]["vector"] = [0, 7, 0]
    edit.setPlainText(json.dumps(edited))
    _confirm_to_plan(qtbot, dock)
    assert "step 1 ✓ translate all nodes by (0, 7, 0)" in dock.plan_view.toPlainText()
    assert _revisions(dock)[-1]["author"] == "analyst"


def test_an_action_the_fields_cannot_show_is_corrected_in_json(qtbot, replay, dock):
    _to_review(qtbot, replay, dock)
    _open_editor(qtbot, dock)
    edit = _child(dock, QPlainTextEdit, "specJsonEdit")
    edit.setPlainText(edit.toPlainText().replace('"action": "translate"',
                                                 '"action": "teleport"'))
    note = _child(dock, QLabel, "specFormNote")
    assert not note.isHidden() and _text(note) == (
        "The fields cannot show this spec (steps[0].action: 'teleport' is not a Part "
        "action): correct it in JSON")
    assert not _child(dock, object, "specForm").isEnabled()
    assert "steps[0].action: 'teleport' is not a Part action; legal actions: build" in \
        _text(_child(dock, QLabel, "specEditProblems"))
    edit.setPlainText(edit.toPlainText().replace("teleport", "translate_copy"))
    assert note.isHidden() and _child(dock, object, "specForm").isEnabled()
    assert _child(dock, QComboBox, "specField:steps[0].action").currentData() == \
        "translate_copy"


def test_the_editor_in_the_chinese_dock(qtbot, replay, workspace):
    import sam_host

    window = sam_host.create_window(workspace, locale="zh_CN")
    qtbot.addWidget(window)
    dock = window.findChild(object, "samAgentDock")
    try:
        _to_review_chinese(qtbot, replay, dock)
        button = _child(dock, QPushButton, "editSpecButton")
        assert button.text() == "编辑规格"
        button.click()
        tabs = _child(dock, object, "specEditTabs")
        assert [tabs.tabText(i) for i in range(tabs.count())] == ["字段", "JSON"]
        assert _child(dock, object, "specStep:steps[0]").title() == "步骤 1"
        assert _child(dock, QComboBox, "specField:steps[0].action").currentText() == \
            "translate（变换）"
        by = _child(dock, QComboBox, "specField:steps[0].scope.by")
        assert [by.itemText(i) for i in range(by.count())] == [
            "（未指定）", "整个部件", "按编号", "集合", "按形状", "框内"]
        assert _child(dock, QPushButton, "specAddStep").text() == "添加步骤"
        assert _child(dock, QPushButton, "specRemove:steps[0]").text() == "删除"
        assert _child(dock, QPushButton, "discardEditButton").text() == "放弃编辑"
        add = _child(dock, QComboBox, "specAddAction")
        add.setCurrentIndex(add.findData("mirror"))
        _child(dock, QPushButton, "specAddStep").click()
        copy = _child(dock, QComboBox, "specField:steps[1].values.copy")
        assert [copy.itemText(i) for i in range(copy.count())] == [
            "（未指定）", "并保留原件", "不保留原件"]
        _type(qtbot, _field(dock, "steps[0].values.vector[1]"), "x")
        dock.confirm_button.click()
        qtbot.waitUntil(lambda: not dock.busy, timeout=TIMEOUT_MS)
        assert dock.status_label.text().startswith("审阅 — 编辑后的规格有 2 个问题")
    finally:
        window.shutdown()


def _to_review_chinese(qtbot, replay, dock):
    spec = json.loads(json.dumps(TRANSLATE))
    spec["summary"] = "把面板沿 X 平移 5。"
    replay.enqueue_stream(openai_stream(content=json.dumps(spec, ensure_ascii=False)))
    dock.set_target("part", "Model-1", "Panel")
    dock.request_edit.setPlainText("把面板沿 X 平移 5")
    dock.submit_button.click()
    qtbot.waitUntil(lambda: not dock.busy and dock.controller is not None
                    and str(dock.controller.phase) == "review", timeout=TIMEOUT_MS)


def test_a_spec_back_in_review_is_corrected_in_the_editor(qtbot, replay, dock):
    """A computed call that does not compile goes back to Review in the step's words; the
    analyst corrects the step there and confirms, with no model asked."""
    spec = json.loads(json.dumps(TRANSLATE))
    spec["steps"][0]["scope"] = {"by": "labels", "labels": [99]}
    _to_review(qtbot, replay, dock, spec)
    assert "Warning: " in dock.spec_extras.notes.text()  # the Review warning: no element 99
    qtbot.mouseClick(dock.confirm_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not dock.busy, timeout=TIMEOUT_MS)
    assert dock.status_label.text().startswith("Review — returned, nothing executed")
    asked = len(replay.requests)
    _open_editor(qtbot, dock)
    _type(qtbot, _field(dock, "steps[0].scope.labels"), "9-12")
    _confirm_to_plan(qtbot, dock)
    assert "step 1 ✓ translate elements 9-12 by (5, 0, 0)" in dock.plan_view.toPlainText()
    assert "Warning: " not in dock.spec_extras.notes.text()  # reviewed again: it went
    approve_plan(qtbot, dock)
    assert "Verified" in dock.status_label.text() and len(replay.requests) == asked


@pytest.mark.parametrize("text,problem", [
    ('{"refuse": "no"}', 'the edit holds {"refuse": ...}, how a model declines a request, not '
                         'a spec; write the spec as {"summary": ..., "steps": [...]}'),
    (json.dumps({**TRANSLATE, "summary": "Move \ud800"}),
     "summary holds a lone surrogate (\\ud800), which is no character; write the text as "
     "UTF-8"),
    ("[" * 9000 + "]" * 9000, "nested deeper than 64 levels; nothing was read"),
])
def test_json_the_strict_reader_refuses_is_one_problem_and_confirms_nothing(
        qtbot, replay, dock, text, problem):
    """On main these raised out of the JSON edit (RecursionError) or out of ``edit_spec`` at
    Confirm (DesignRefused, UnicodeEncodeError)."""
    _to_review(qtbot, replay, dock)
    _open_editor(qtbot, dock)
    _child(dock, object, "specEditTabs").setCurrentIndex(1)
    _child(dock, QPlainTextEdit, "specJsonEdit").setPlainText(text)
    assert _text(_child(dock, QLabel, "specEditProblems")) == f"• {problem}"
    qtbot.mouseClick(dock.confirm_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not dock.busy, timeout=TIMEOUT_MS)
    assert dock.status_label.text().startswith("Review — the edited spec has 1 problem(s)")


def test_an_edit_refreshes_the_counts_and_drops_the_models_stale_words(qtbot, replay, dock):
    """Divisions 6 x 10 → 6 x 12 on the plate the model built: its counts (77 nodes, 60
    elements), its note and its summary said 10; none is shown again as if it held, and the
    plan states the counts the calls leave, with no warning."""
    from sam_plugin.demo.examples import example_by_id

    plate = example_by_id("plate")
    replay.enqueue_stream(openai_stream(content=json.dumps(plate.spec)))
    dock.set_target("part", "Model-1", "Plate")
    dock.request_edit.setPlainText(plate.request)
    dock.submit_button.click()
    qtbot.waitUntil(lambda: not dock.busy and "Review" in dock.status_label.text(),
                    timeout=TIMEOUT_MS)
    _open_editor(qtbot, dock)
    assert _field(dock, "steps[0].values.divisions").text() == "6, 10"
    _type(qtbot, _field(dock, "steps[0].values.divisions"), "6, 12")
    qtbot.mouseClick(dock.confirm_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not dock.busy, timeout=TIMEOUT_MS)
    notes = dock.spec_extras.notes.text()
    assert ("Warning: your edit made these words of the model stale: step 1's counts (nodes, "
            "elements): the plan states them again; step 1's note (it said 10, 77): dropped; "
            "the expected counts (nodes, elements, shapes): the plan states them again; the "
            "summary (it said 10): said again from the steps") in notes, notes
    assert "Plan" in dock.status_label.text()
    assert dock.controller.plan.warnings == []
    spec = dock.spec_view.toPlainText()
    assert "Expected results: 91 nodes, 72 elements (72 QUAD)" in spec, spec
    assert "divided 6 x 12, from (0, 0, 0) mm: 91 nodes, 72 elements" in spec, spec
    assert "6 x 10" not in spec and "77" not in spec


def test_the_scope_offers_the_pick_and_an_empty_box_gets_a_sentence(
        qtbot, replay, host_window, dock):
    """Elements 3 and 4 picked: a step that acts on elements offers them as its scope."""
    delete = {"summary": "Delete element 1.",
              "steps": [{"capability": "edit", "action": "delete_elements",
                         "scope": {"by": "labels", "labels": [1]}, "values": {}, "text": ""}]}
    _to_review(qtbot, replay, dock, spec=delete)
    host_window.viewport.set_selection([3, 4])
    _open_editor(qtbot, dock)
    kind = _child(dock, QComboBox, "specField:steps[0].scope.by")
    offered = [kind.itemText(i) for i in range(kind.count())]
    assert "the picked selection (2 elements)" in offered, offered
    kind.setCurrentIndex(offered.index("the picked selection (2 elements)"))
    assert kind.currentData() == "labels"
    assert _field(dock, "steps[0].scope.labels").text() == "3-4"
    shown = json.loads(_child(dock, QPlainTextEdit, "specJsonEdit").toPlainText())
    assert shown["steps"][0]["scope"] == {"by": "labels", "labels": [3, 4]}
    kind.setCurrentIndex(kind.findData("box"))
    problem = _text(_problem(dock, "steps[0].scope"))
    assert problem == "Fill in both corners of the box: min and max, each x, y, z.", problem
    assert "{" not in problem


def test_a_measured_value_is_labelled_with_its_unit(qtbot, replay, dock):
    _to_review(qtbot, replay, dock)
    _open_editor(qtbot, dock)
    labels = [label.text() for label in dock.spec_editor.form.findChildren(QLabel)]
    assert "vector (mm) *" in labels, labels


def test_a_box_scopes_corners_are_labelled_with_the_length_unit(qtbot, replay, dock):
    _to_review(qtbot, replay, dock)
    _open_editor(qtbot, dock)
    kind = _child(dock, QComboBox, "specField:steps[0].scope.by")
    kind.setCurrentIndex(kind.findData("box"))
    labels = [label.text() for label in dock.spec_editor.form.findChildren(QLabel)
              if label.text().startswith(("min", "max"))]
    assert labels == ["min (mm)", "max (mm)"], labels
