"""zh_CN (issue 16): check names, the examples and their recorded specs are Chinese too."""

from __future__ import annotations

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
        assert shown.startswith("为 Panel 的全部单元定义钢材和 2 mm 壳截面并赋予。\n\n步骤：\n")
        assert "1. 定义材料 Steel：E = 210000，nu = 0.3，密度 7.85e-09（定义）" in shown
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
