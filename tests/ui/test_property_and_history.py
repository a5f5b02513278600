"""A Property run shows what it changed, its key checks in sight; History names each run's
target; a reasoning-first provider never leaves the spec box silently empty."""

from __future__ import annotations

from pathlib import Path

from plan_steps import approve_plan

from sam_plugin.compilers.evidence import Check
from sam_plugin.compilers.protocol import Target
from sam_plugin.runtime.events import RunEvent, event_from
from sam_plugin.runtime.store.run_store import RunDir, RunResult, StateSummary

TIMEOUT_MS = 20_000
RUN_ID = "20261129T193000Z-ab12cd"


def _summary(nodes: int = 25, elements: int = 16) -> StateSummary:
    return StateSummary(node_count=nodes, element_count=elements,
                        shape_counts={"QUAD": elements, "TRI": 0, "BEAM": 0}, sets=[])


def _property_checks(assigned: str = "16", steel: str = "present") -> list[Check]:
    return [
        Check(name="node count", expected="25", actual="25", ok=True),
        Check(name="element count", expected="16", actual="16", ok=True),
        Check(name="material Steel", expected="present", actual=steel, ok=steel == "present"),
        Check(name="section Shell-2mm", expected="present", actual="present", ok=True),
        Check(name="elements with a section", expected="16", actual=assigned,
              ok=assigned == "16"),
        Check(name="oriented beam elements", expected="0", actual="0", ok=True),
    ]


def _property_run(runs: Path, checks: list[Check], *, materials: list[str] | None = None,
                  ) -> tuple[RunResult, Path]:
    """A property result and its run directory with the observation (before) on disk."""
    run = RunDir(runs, RUN_ID).create()
    run.write_json("workspace.json", {
        "mode": "property", "target": {"model_name": "Model-1", "part_name": "Panel"},
        "part": {"node_count": 25, "element_count": 16, "materials": materials or [],
                 "sections": [], "assigned_elements": 0, "unassigned_elements": 16,
                 "oriented_beams": 0}})
    result = RunResult(run_id=RUN_ID, status="verified", phase="complete", module="property",
                       target=Target(model_name="Model-1", part_name="Panel"),
                       before=_summary(), after=_summary(), checks=checks)
    run.write_result(result)
    return result, run.path


def test_a_property_run_shows_before_from_the_observation_and_after_from_the_readback(
        qtbot, tmp_path):
    from sam_plugin.ui.result_view import ResultView

    view = ResultView()
    qtbot.addWidget(view)
    result, run_dir = _property_run(tmp_path, _property_checks(assigned="12"),
                                    materials=["Aluminium"])
    view.show_result(result, run_dir)
    assert (view.cell("materials", "before"), view.cell("materials", "after")) == (
        "Aluminium", "Steel")
    assert (view.cell("sections", "before"), view.cell("sections", "after")) == ("—", "Shell-2mm")
    # the readback's 12, not the predicted 16
    assert (view.cell("assigned", "before"), view.cell("assigned", "after")) == ("0", "12")
    assert (view.cell("oriented", "before"), view.cell("oriented", "after")) == ("0", "0")
    for key in ("materials", "sections", "assigned", "oriented"):
        assert view.row_shown(key), key


def test_a_material_missing_after_the_run_is_said_so_not_listed_as_present(qtbot, tmp_path):
    from sam_plugin.ui.result_view import ResultView

    view = ResultView()
    qtbot.addWidget(view)
    result, run_dir = _property_run(tmp_path, _property_checks(steel="missing"))
    view.show_result(result, run_dir)
    assert view.cell("materials", "after") == "Steel: missing"


def test_unchanged_counts_collapse_to_one_row_and_property_rows_only_for_property(
        qtbot, tmp_path):
    from sam_plugin.ui.result_view import ResultView

    view = ResultView()
    qtbot.addWidget(view)
    result, run_dir = _property_run(tmp_path, _property_checks())
    view.show_result(result, run_dir)
    shown = [key for key in view.row_keys() if view.row_shown(key)]
    assert shown == ["unchanged", "materials", "sections", "assigned", "oriented"]
    assert (view.cell("unchanged", "before"), view.cell("unchanged", "after")) == ("25 / 16",
                                                                                   "25 / 16")
    assert view.table.item(0, 1).toolTip() == (
        "Unchanged: 25 nodes, 16 elements; QUAD 16, TRI 0, BEAM 0; sets: —")
    assert view.cell("nodes", "after") == "25"  # hidden, still readable by automation
    assert view.table.height() == view.table.maximumHeight()  # every shown row, no scrolling
    # a Part run also checks sections (none expected): no property rows, its own check order
    part_run = result.model_copy(update={"module": "part", "after": _summary(45, 32)})
    view.show_result(part_run, None)
    shown = [key for key in view.row_keys() if view.row_shown(key)]
    assert shown == ["nodes", "elements", "QUAD", "TRI", "BEAM", "sets"]
    assert [row[0] for row in view.check_rows()][:2] == ["node count", "element count"]


def test_property_key_checks_come_right_after_failed_ones(qtbot, tmp_path):
    from sam_plugin.ui.result_view import ResultView

    view = ResultView()
    qtbot.addWidget(view)
    checks = _property_checks(assigned="12")
    result, run_dir = _property_run(tmp_path, checks)
    view.show_result(result, run_dir)
    assert [row[0] for row in view.check_rows()] == [
        "elements with a section", "material Steel", "section Shell-2mm",
        "oriented beam elements", "node count", "element count"]


def test_steel_shell_in_the_demo_window_shows_what_changed_and_its_checks_without_scrolling(
        qtbot, replay, host_window, dock):
    from sam_plugin.demo.examples import example_by_id

    host_window.resize(1500, 920)  # the demo window's size
    host_window.show()
    qtbot.waitExposed(host_window)
    example = example_by_id("steel_shell")
    dock.set_target(example.mode, example.model, example.part)
    dock.request_edit.setPlainText(example.request)
    dock.submit_button.click()
    qtbot.waitUntil(lambda: not dock.busy and "Review" in dock.status_label.text(),
                    timeout=TIMEOUT_MS)
    dock.confirm_button.click()
    qtbot.waitUntil(lambda: not dock.busy, timeout=TIMEOUT_MS)
    approve_plan(qtbot, dock)
    qtbot.wait(50)
    assert dock.status_label.text() == "Verified"
    view = dock.result_view
    assert (view.cell("materials", "before"), view.cell("materials", "after")) == ("—", "Steel")
    assert (view.cell("assigned", "before"), view.cell("assigned", "after")) == ("0", "16")
    checks = view.checks
    scroll = dock.findChild(object, "resultScroll")
    assert scroll.verticalScrollBar().value() == 0
    table_bottom = checks.mapTo(scroll.viewport(), checks.rect().bottomLeft()).y()
    assert table_bottom <= scroll.viewport().height()  # the whole checks table is in sight
    for row, name in enumerate(("material Steel", "section Shell-2mm",
                                "elements with a section", "oriented beam elements")):
        assert checks.item(row, 0).text() == name
        rect = checks.visualItemRect(checks.item(row, 3))
        assert rect.bottom() <= checks.viewport().height(), name  # no scrolling to see it


def test_history_names_each_runs_target(qtbot, tmp_path):
    from sam_plugin.ui.history_view import HistoryView

    _property_run(tmp_path, _property_checks())
    open_run = RunDir(tmp_path, "20261129T200000Z-cccccc").create()  # no result yet
    open_run.write_text("request.txt", "refine all")
    open_run.write_json("workspace.json", {
        "mode": "mesh", "target": {"model_name": "Model-2", "part_name": "Frame"}})
    RunDir(tmp_path, "20261129T210000Z-dddddd").create()  # nothing written yet
    view = HistoryView(tmp_path)
    qtbot.addWidget(view)
    view.refresh()
    assert [row[1:4] for row in view.rows()] == [
        ("incomplete", "", ""),
        ("incomplete", "mesh", "Model-2/Frame"),
        ("verified", "property", "Model-1/Panel"),
    ]
    assert view.headerItem().text(3) == "Target"


def _event(name: str, **data: object) -> RunEvent:
    return event_from(name, data)


def test_the_spec_box_says_the_model_is_reasoning_until_the_spec_arrives(qtbot, dock):
    placeholder = "The model is reasoning… (expand Reasoning to follow)"
    dock._on_event(_event("reasoning_delta", text="The panel spans"))  # noqa: SLF001
    assert dock.spec_view.placeholderText() == placeholder
    assert dock.spec_view.toPlainText() == ""
    dock._on_event(_event("design_delta", text="Spec: refine"))  # noqa: SLF001
    assert dock.spec_view.placeholderText() == ""
    assert dock.spec_view.toPlainText() == "Spec: refine"
    dock._on_event(_event("reasoning_delta", text=" more"))  # noqa: SLF001
    assert dock.spec_view.placeholderText() == ""


def test_a_deepseek_style_run_reaches_review_with_only_the_spec_in_the_box(
        qtbot, replay, dock):
    from sam_plugin.demo.examples import example_by_id

    replay.replay_responder.delay = 0.01
    seen: list[str] = []
    dock.bridge.eventReceived.connect(
        lambda event: seen.append(dock.spec_view.placeholderText())
        if event.name == "reasoning_delta" and not dock.spec_view.toPlainText() else None)
    example = example_by_id("copy_merge")  # recorded in DeepSeek style: reasoning first
    dock.set_target(example.mode, example.model, example.part)
    dock.request_edit.setPlainText(example.request)
    dock.submit_button.click()
    qtbot.waitUntil(lambda: not dock.busy and "Review" in dock.status_label.text(),
                    timeout=TIMEOUT_MS)
    assert seen and set(seen) == {"The model is reasoning… (expand Reasoning to follow)"}
    assert dock.spec_view.placeholderText() == ""
    assert dock.spec_view.toPlainText().startswith("Spec: Copy all elements of Panel 40 along X")
    assert "The model is reasoning" not in dock.spec_view.toPlainText()
