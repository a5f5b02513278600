"""zh_CN (issue 16): check names, the examples and their recorded specs are Chinese too."""

from __future__ import annotations

import pytest

from sam_plugin.demo.examples import example_by_id, load_examples

TIMEOUT_MS = 20_000


def test_a_chinese_dock_lists_chinese_examples_and_replays_chinese_specs(
        qtbot, replay, workspace):
    import sam_host

    from sam_plugin.ui.automation import run_request

    window = sam_host.create_window(workspace, locale="zh_CN")
    qtbot.addWidget(window)
    dock = window.findChild(object, "samAgentDock")
    try:
        titles = [dock.example_combo.itemText(i) for i in range(1, dock.example_combo.count())]
        assert titles == [e.title_zh for e in load_examples()]
        example = example_by_id("steel_shell")
        status = run_request(dock, example.mode, example.model, example.part,
                             example.request_zh, timeout=30)
        assert status == "已校验", dock.describe_error()
        shown = dock.spec_view.toPlainText()
        assert shown.startswith("规格：为 Panel 的全部单元定义钢材和 2 mm 壳截面并赋予。\n\n"
                                "步骤：\n")
        assert "1. 定义材料 Steel：E = 210000 MPa，nu = 0.3，密度 7.85e-09 t/mm³（定义）" in shown
        assert dock.route_label.text() == "操作：定义材料和截面, 指派截面"
        names = [row[0] for row in dock.result_view.check_rows()]
        assert "材料 Steel" in names and "截面 Shell-2mm 厚度" in names
        assert "部件存在" in names and "节点数" in names
        values = {row[0]: row[2] for row in dock.result_view.check_rows()}
        assert values["材料 Steel"] == "存在"
    finally:
        window.shutdown()


def test_every_example_has_its_chinese_request_and_spec():
    for example in load_examples():
        assert example.title_zh and example.request_zh and example.spec_zh, example.id
        assert any("\u4e00" <= c <= "\u9fff" for c in example.spec_zh["summary"]), example.id
        assert [s["action"] for s in example.spec_zh["steps"]] == \
            [s["action"] for s in example.spec["steps"]], example.id


def test_every_chinese_example_replays_to_verified(qtbot, replay, workspace):
    import sam_host

    from sam_plugin.ui.automation import run_request

    window = sam_host.create_window(workspace, locale="zh_CN")
    qtbot.addWidget(window)
    dock = window.findChild(object, "samAgentDock")
    try:
        for example in load_examples():
            status = run_request(dock, example.mode, example.model, example.part,
                                 example.request_zh, timeout=30)
            assert status == "已校验", (example.id, dock.describe_error())
    finally:
        window.shutdown()


def _chinese_window(qtbot, workspace):
    import sam_host

    window = sam_host.create_window(workspace, locale="zh_CN")
    qtbot.addWidget(window)
    return window, window.findChild(object, "samAgentDock")


def _english_words(text: str) -> list[str]:
    """English words left in Chinese text: names the model or the analyst chose, shapes, file
    names and symbols aside."""
    import re

    kept = {"QUAD", "TRI", "BEAM", "Panel", "Plate", "Model", "Steel", "Shell", "json",
            "part_audit", "mesh_audit", "property_audit", "E", "n1", "SHA", "plan",
            "mm", "MPa"}  # unit symbols are symbols in Chinese text too
    return [w for w in re.findall(r"[A-Za-z_]{2,}", text) if w not in kept
            and not any(w.startswith(k) for k in kept)]


def test_the_plan_and_its_status_are_chinese(qtbot, replay, workspace):
    window, dock = _chinese_window(qtbot, workspace)
    try:
        example = example_by_id("copy_merge")
        dock.set_target(example.mode, example.model, example.part)
        dock.request_edit.setPlainText(example.request_zh)
        dock.submit_button.click()
        qtbot.waitUntil(lambda: not dock.busy and dock.controller is not None
                        and str(dock.controller.phase) == "review", timeout=TIMEOUT_MS)
        dock.confirm_button.click()
        qtbot.waitUntil(lambda: not dock.busy and str(dock.controller.phase) == "plan",
                        timeout=TIMEOUT_MS)
        assert dock.status_label.text() == "计划：3 个操作，1 处破坏性更改，等待你点击“执行”"
        text = dock.plan_view.toPlainText()
        assert "合并距离小于 0.001 mm 的节点（重合节点）" in text
        assert "之前：25 个节点，16 个单元" in text
        assert _english_words(text) == [], text
    finally:
        window.shutdown()


def test_one_word_for_the_spec_box_and_the_spec(qtbot, replay, workspace):
    from PySide6.QtWidgets import QLabel

    window, dock = _chinese_window(qtbot, workspace)
    try:
        assert dock.spec_title.text().startswith("规格（")
        example = example_by_id("plate")
        dock.set_target(example.mode, example.model, example.part)
        dock.request_edit.setPlainText(example.request_zh)
        dock.submit_button.click()
        qtbot.waitUntil(lambda: not dock.busy and dock.controller is not None
                        and str(dock.controller.phase) == "review", timeout=TIMEOUT_MS)
        assert dock.spec_view.toPlainText().startswith("规格：")
        shown = [label.text() for label in dock.findChildren(QLabel)]
        shown += [dock.status_label.text(), dock.revise_button.toolTip()]
        assert not any("方案" in text for text in shown), [t for t in shown if "方案" in t]
    finally:
        window.shutdown()


@pytest.mark.parametrize(("locale", "font", "said"), [
    ("zh_CN", False, True),  # empty boxes otherwise: say so, in English
    ("zh_CN", True, False),
    ("en_US", False, False),  # English needs no Chinese font
])
def test_a_missing_chinese_font_is_said_in_english(qtbot, ui_env, workspace, monkeypatch,
                                                   locale, font, said):
    import sam_host

    from sam_plugin.ui import font_check

    monkeypatch.setattr(font_check, "has_chinese_font", lambda: font)
    window = sam_host.create_window(workspace, locale=locale)
    qtbot.addWidget(window)
    try:
        notice = window.findChild(object, "samAgentDock").font_notice
        assert notice.isHidden() is not said
        if said:
            assert notice.text().startswith("No Chinese font is installed, so the Chinese "
                                            "interface shows empty boxes.")
            assert "fonts-noto-cjk" in notice.text()
    finally:
        window.shutdown()
