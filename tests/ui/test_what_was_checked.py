"""What was checked (issue 16): property values read back and shown before/after with the
length unit, audit findings as a table with the worst elements highlighted on request, the
script's output in the run view."""

from __future__ import annotations

import json

from plan_steps import confirm_through_plan

from sam_plugin.demo.examples import example_by_id

TIMEOUT_MS = 20_000


def _run(qtbot, dock, example_id: str) -> None:
    example = example_by_id(example_id)
    dock.set_target(example.mode, example.model, example.part)
    dock.request_edit.setPlainText(example.request)
    dock.submit_button.click()
    qtbot.waitUntil(lambda: not dock.busy and "Review" in dock.status_label.text(),
                    timeout=TIMEOUT_MS)
    confirm_through_plan(qtbot, dock)
    qtbot.waitUntil(lambda: not dock.busy, timeout=TIMEOUT_MS)
    assert dock.status_label.text() == "Verified", dock.describe_error()


def test_property_values_are_read_back_and_shown_before_and_after(qtbot, replay, dock):
    _run(qtbot, dock, "steel_shell")
    view = dock.result_view
    assert dock.unit_label.text() == "units: mm-N-t-s"
    assert "declares no units" in dock.unit_label.toolTip()
    assert view.value_rows() == [
        ("Steel E (MPa)", "—", "210000"), ("Steel ν", "—", "0.3"),
        ("Steel density (t/mm³)", "—", "7.85e-09"), ("Shell-2mm thickness (mm)", "—", "2")]
    checks = {row[0]: row[1:] for row in view.check_rows()}
    assert checks["material Steel E"] == ("210000 MPa", "210000 MPa", "yes")
    assert checks["section Shell-2mm thickness"] == ("2 mm", "2 mm", "yes")
    # the script's own print is in the run view, in words, and in the run directory
    assert view.output.isVisibleTo(view)
    assert view.output.toPlainText().splitlines() == [
        "Define materials and sections: created material Steel, section Shell-2mm",
        "Assign sections: section Shell-2mm on 16 elements"]
    assert "{" not in view.output.toPlainText()  # no Python dicts
    view.output_raw_button.click()  # as printed, one click away
    assert view.output.toPlainText().startswith("define_property: {'created': ")
    assert (view.run_dir / "script_output.txt").read_text().startswith("define_property:")


def test_audit_findings_are_a_table_and_the_elements_can_be_highlighted(
        qtbot, replay, dock, host_window):
    _run(qtbot, dock, "copy_merge")
    rows = dict(dock.result_view.audit_rows())
    assert rows["Nodes / elements"] == "45 / 32 (QUAD 32)"
    assert rows["Coincident nodes"] == "0"
    assert rows["Bounding box"] == "(0, 0, 0) – (80, 40, 0)"
    table_names = [dock.result_view.audit.item(r, 0).text()
                   for r in range(dock.result_view.audit.rowCount())]
    assert "Bounding box (mm)" in table_names  # lengths carry the unit
    checks = {row[0]: row[2] for row in dock.result_view.check_rows()}
    assert checks["file part_audit.json"] == "written"  # not "writt…ytes)"


def test_highlight_asks_the_host_for_exactly_the_finding_elements(qtbot, dock, host_window,
                                                                  tmp_path):
    from sam_plugin.compilers.protocol import Target
    from sam_plugin.runtime.store.run_store import RunDir, RunResult

    run = RunDir(dock.runs_dir, "20261129T100000Z-aaaaaa").create()
    run.write_text("part_audit.json", json.dumps({
        "part": "Panel", "quality": {"aspect_ratio": {
            "worst": 7.5, "threshold": 5.0, "labels": [3, 7], "total": 2,
            "truncated": False}}}))
    result = RunResult(run_id=run.run_id, status="verified", phase="complete", module="part",
                       target=Target(model_name="Model-1", part_name="Panel"))
    dock.set_target("part", "Model-1", "Panel")
    dock.result_view.show_result(result, run.path)
    assert dock.result_view.audit_rows() == [
        ("Aspect ratio", "worst 7.5 (limit 5); 2 beyond the limit")]
    assert dock.result_view.highlight_button.isEnabled()
    dock.result_view.highlight_button.click()
    assert host_window.viewport.highlighted_labels == [3, 7]
    assert len(host_window.viewport.highlighted) == 2
    assert host_window.viewport.geometry_data.part_name == "Panel"
