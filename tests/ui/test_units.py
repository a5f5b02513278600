"""Every value the dock shows carries its unit (issue 36): the spec, the plan, the checks and
the values read back, in the model's unit system or the one chosen in Settings (mm-N-t-s by
default), in English and in Chinese."""

from __future__ import annotations

from plan_steps import approve_plan, to_plan

from sam_plugin.demo.examples import example_by_id

TIMEOUT_MS = 20_000


def test_the_spec_plan_checks_and_values_say_their_units(qtbot, replay, dock):
    to_plan(qtbot, dock, "steel_shell")
    assert dock.unit_label.text() == "units: mm-N-t-s"
    assert dock.unit_label.toolTip() == ("The model declares no units: length mm, stress MPa, "
                                         "density t/mm³, mass t, the ones chosen in Settings…")
    spec = dock.spec_view.toPlainText()
    assert ("1. define the material Steel with E = 210000 MPa, nu = 0.3, density 7.85e-09 "
            "t/mm³ — define") in spec
    assert "2. define the shell section Shell-2mm of material Steel, thickness 2 mm" in spec
    assert spec.endswith("Expected results: 25 nodes, 16 elements; 16 elements in the steps' "
                         "scope")
    plan = dock.plan_view.toPlainText()
    assert "material Steel: E 210000 MPa, ν 0.3, density 7.85e-09 t/mm³" in plan
    assert "thickness 2 mm" in plan
    assert "in the box (0, 0, 0) to (40, 40, 0) mm" in plan
    approve_plan(qtbot, dock)
    assert dock.status_label.text() == "Verified", dock.describe_error()
    view = dock.result_view
    assert view.value_rows() == [
        ("Steel E (MPa)", "—", "210000"), ("Steel ν", "—", "0.3"),
        ("Steel density (t/mm³)", "—", "7.85e-09"), ("Shell-2mm thickness (mm)", "—", "2")]
    checks = {row[0]: row[1:] for row in view.check_rows()}
    assert checks["material Steel E"] == ("210000 MPa", "210000 MPa", "yes")
    assert checks["material Steel density"] == ("7.85e-09 t/mm³", "7.85e-09 t/mm³", "yes")
    assert checks["section Shell-2mm thickness"] == ("2 mm", "2 mm", "yes")
    assert checks["node count"] == ("25", "25", "yes")  # a count has no unit


def test_a_model_that_declares_its_units_is_shown_in_them(qtbot, replay, dock):
    import sam

    sam.mdb.models["Model-1"].lengthUnit = "m"
    dock.set_target("property", "Model-1", "Panel")
    assert dock.unit_label.text() == "units: m-N-kg-s"
    assert dock.unit_label.toolTip() == ("Units of the model: length m, stress Pa, "
                                         "density kg/m³, mass kg")
    to_plan(qtbot, dock, "steel_shell")
    assert "E = 210000 Pa" in dock.spec_view.toPlainText()


def test_a_chinese_dock_says_the_units_too(qtbot, replay, workspace):
    import sam_host

    window = sam_host.create_window(workspace, locale="zh_CN")
    qtbot.addWidget(window)
    dock = window.findChild(object, "samAgentDock")
    try:
        example = example_by_id("steel_shell")
        dock.set_target(example.mode, example.model, example.part)
        assert dock.unit_label.text() == "单位：mm-N-t-s"
        assert dock.unit_label.toolTip() == ("模型未声明单位：长度 mm，应力 MPa，密度 t/mm³，"
                                             "质量 t，即在“设置…”中选择的单位")
        dock.request_edit.setPlainText(example.request_zh)
        dock.submit_button.click()
        qtbot.waitUntil(lambda: not dock.busy and dock.controller is not None
                        and str(dock.controller.phase) == "review", timeout=TIMEOUT_MS)
        spec = dock.spec_view.toPlainText()
        assert "1. 定义材料 Steel：E = 210000 MPa，nu = 0.3，密度 7.85e-09 t/mm³（定义）" in spec
        assert "厚度 2 mm" in spec
        assert spec.endswith("预期结果：25 个节点，16 个单元；步骤范围内 16 个单元")
        dock.confirm_button.click()
        qtbot.waitUntil(lambda: not dock.busy and str(dock.controller.phase) == "plan",
                        timeout=TIMEOUT_MS)
        plan = dock.plan_view.toPlainText()
        assert "E 210000 MPa" in plan and "7.85e-09 t/mm³" in plan
        dock.execute_button.click()
        qtbot.waitUntil(lambda: not dock.busy and str(dock.controller.phase) != "plan",
                        timeout=TIMEOUT_MS)
        values = {row[0]: row[1:] for row in dock.result_view.check_rows()}
        assert values["截面 Shell-2mm 厚度"] == ("2 mm", "2 mm", "是")
    finally:
        window.shutdown()


def test_design_txt_and_the_history_spec_versions_say_the_units(qtbot, replay, dock):
    """What is stored (design.txt, design.N.txt) is what Review showed, units included."""
    from sam_plugin.runtime.store.run_store import RunDir
    from sam_plugin.ui.run_details import spec_versions

    to_plan(qtbot, dock, "steel_shell")
    controller = dock.controller
    run = RunDir(controller.runs_dir, controller.run_id)
    stored = run.file("design.txt").read_text(encoding="utf-8")
    assert stored == controller.spec_text + "\n"
    assert "E = 210000 MPa" in stored and "density 7.85e-09 t/mm³" in stored
    assert "thickness 2 mm" in stored
    for _title, text in spec_versions(run):
        assert "E = 210000 MPa" in text, text


def test_a_mesh_box_selector_says_its_length_unit(qtbot, replay, dock):
    """A {"by": "box"} scope in words: the spec and the plan's operation say the box in mm."""
    import json

    from sam_plugin.demo.streams import openai_stream

    box = {"summary": "Refine the elements in the lower left corner.",
           "steps": [{"capability": "refine", "action": "refine",
                      "scope": {"by": "box", "min": [0, 0, -1], "max": [20, 20, 1]},
                      "values": {"levels": 1}, "text": ""}]}
    replay.enqueue_stream(openai_stream(content=json.dumps(box)))
    dock.set_target("mesh", "Model-1", "Panel")
    dock.request_edit.setPlainText("refine the lower left corner of the panel")
    dock.submit_button.click()
    qtbot.waitUntil(lambda: not dock.busy and dock.controller is not None
                    and str(dock.controller.phase) == "review", timeout=TIMEOUT_MS)
    assert "inside the box (0, 0, -1)-(20, 20, 1) mm" in dock.spec_view.toPlainText()
    replay.enqueue_stream(openai_stream(tool_calls=[("refine_mesh", json.dumps(
        {"selection": box["steps"][0]["scope"], "levels": 1}))]))  # the replay asks for calls
    dock.confirm_button.click()
    qtbot.waitUntil(lambda: not dock.busy and str(dock.controller.phase) != "review",
                    timeout=TIMEOUT_MS)
    assert str(dock.controller.phase) == "plan", dock.describe_error()
    plan = dock.plan_view.toPlainText()
    assert "(0, 0, -1)..(20, 20, 1) mm" in plan or "(0, 0, -1) to (20, 20, 1) mm" in plan, plan
