"""The words an analyst reads: the plan (operations, nodes, elements; no tool names, hashes or
"call(s)"), check rows without fingerprints, script output without Python dicts, History →
Details in the same worded views, and the audit's numbers each labelled — the raw detail
always one click away."""

from __future__ import annotations

import re

from plan_steps import approve_plan, to_plan

PROGRAMMER_WORDS = ("call(s)", "transform_part", "repair_part", "audit_part", "sha256",
                    "prediction:", "coincident_nodes", "warning(s)")


def test_the_plan_reads_in_operations_nodes_and_elements(qtbot, replay, dock):
    from PySide6.QtCore import QUrl

    from sam_plugin.ui.plan_view import RAW_LINK, WORDS_LINK

    to_plan(qtbot, dock, "copy_merge")
    assert dock.status_label.text() == "Plan: 3 operations, 1 destructive, waiting for you to " \
                                       "execute"
    text = dock.plan_view.toPlainText()
    for word in PROGRAMMER_WORDS:
        assert word not in text, word
    lines = [line.strip() for line in text.splitlines()]
    assert lines[0] == ("Destructive: operation 2 (repair the part): also removes 5 nodes [26, "
                        "31, 36, 41, 46] (more than the operation names)")
    assert "1. Transform the part" in lines and "2. Repair the part" in lines
    assert ("– copy all elements, moved by (40, 0, 0) mm: 16 elements [1-16], 25 nodes in the "
            "box (0, 0, 0) to (40, 40, 0) mm") in lines
    assert "– merge nodes closer than 0.001 mm (coincident nodes)" in lines
    assert "– audit, read-only: counts, coincident nodes (report part_audit.json)" in lines
    assert ("Before: 25 nodes, 16 elements (16 QUAD); in the box (0, 0, 0) to (40, 40, 0) mm"
            in lines)
    assert "After is exact: these operations were tried on a copy of the part." in lines
    # the raw plan, as plan.json holds it, one click away and back
    dock.plan_view.anchorClicked.emit(QUrl(RAW_LINK))
    raw = dock.plan_view.toPlainText()
    assert f"plan_sha256: {dock.controller.plan.script_sha256}" in raw
    assert "2. repair_part" in raw
    dock.plan_view.anchorClicked.emit(QUrl(WORDS_LINK))
    assert dock.plan_view.toPlainText() == text


def test_a_refine_plan_and_its_output_in_words(qtbot, replay, dock):
    to_plan(qtbot, dock, "refine")
    lines = [line.strip() for line in dock.plan_view.toPlainText().splitlines()]
    assert ("– refine all elements once: each becomes 4 smaller ones (2 for a beam) that keep "
            "its section, orientation and sets: 16 elements [1-16]") in lines
    assert "16 elements become 64, with 56 new nodes" in lines
    approve_plan(qtbot, dock)
    output = dock.result_view.output.toPlainText()
    assert output == ("Refine the mesh: 16 elements refined once, 64 new elements in their "
                      "place; 56 new nodes")
    dock.result_view.output_raw_button.click()
    assert dock.result_view.output.toPlainText().startswith("refine_mesh: {'levels': 1")


def test_check_rows_say_fingerprints_and_comparisons_in_words(qtbot, replay, dock):
    to_plan(qtbot, dock, "steel_shell")
    approve_plan(qtbot, dock)
    rows = {row[0]: row[1:] for row in dock.result_view.check_rows()}
    assert rows["geometry unchanged"] == ("as before the run", "as before the run", "yes")
    index = [r[0] for r in dock.result_view.check_rows()].index("geometry unchanged")
    assert dock.result_view.checks.item(index, 1).toolTip().startswith("25n-16e-")  # raw
    assert rows["sections as planned"] == ("16 elements", "16 elements", "yes")
    for _, expected, actual, _ in dock.result_view.check_rows():  # no fingerprint is shown
        assert not re.match(r"^\d+n-\d+e-", expected) and not re.match(r"^\d+n-\d+e-", actual)


def test_a_long_check_name_wraps_instead_of_being_cut(qtbot, tmp_path):
    from sam_plugin.compilers.evidence import Check
    from sam_plugin.compilers.protocol import Target
    from sam_plugin.runtime.store.run_store import RunResult, StateSummary
    from sam_plugin.ui.result_view import ResultView

    view = ResultView()
    qtbot.addWidget(view)
    view.resize(380, 600)
    view.show()
    state = StateSummary(node_count=4, element_count=1, shape_counts={"QUAD": 1}, sets=[])
    name = "set members of every set in the part as planned by the operations"
    result = RunResult(run_id="20261201T120000Z-abcdef", status="verified", phase="complete",
                       module="part", target=Target(model_name="M", part_name="P"), tools=[],
                       submissions=1, before=state, after=state,
                       checks=[Check(name=name, expected="1", actual="1", ok=True)])
    view.show_result(result, tmp_path)
    qtbot.waitExposed(view)
    view.resize(381, 600)  # a resize wraps the names anew
    qtbot.wait(20)
    metrics = view.checks.fontMetrics()
    assert metrics.horizontalAdvance(name) > view.checks.columnWidth(0)  # it does not fit…
    assert view.checks.rowHeight(0) >= 2 * metrics.lineSpacing()  # …so it wraps, whole


def test_history_details_show_the_plan_and_result_in_words_raw_one_click_away(
        qtbot, replay, dock):
    to_plan(qtbot, dock, "copy_merge")
    approve_plan(qtbot, dock)
    worded = dock.plan_view  # hidden now; Details shows the same words from plan.json
    dock.history.refresh()
    dock.history.setCurrentItem(dock.history.topLevelItem(0))
    dialog = dock.history_panel.show_details()
    plan_text = dialog.tab_text("Plan")
    assert "1. Transform the part" in plan_text and "sha256" not in plan_text
    assert not plan_text.lstrip().startswith("{")  # not the JSON
    assert worded.isHidden()
    from PySide6.QtCore import QUrl

    from sam_plugin.ui.plan_view import RAW_LINK

    dialog.plan_view.anchorClicked.emit(QUrl(RAW_LINK))
    assert dialog.plan_view.toPlainText().lstrip().startswith("{")  # plan.json as written
    assert '"script_sha256"' in dialog.plan_view.toPlainText()
    # the result: the dock's result view, in words, and result.json one click away
    result = dialog.result_view
    assert result.cell("nodes", "after") == "45"
    assert ("node count", "45", "45", "yes") in result.check_rows()
    holder = dialog.tabs.widget([dialog.tabs.tabText(i) for i in range(dialog.tabs.count())]
                                .index("Result"))
    assert not holder.showing_raw()
    holder.link.linkActivated.emit("#")
    assert holder.showing_raw() and '"status": "verified"' in holder.raw_view.toPlainText()
    dialog.close()


def test_the_audit_labels_its_own_distance_and_shows_the_merge_tolerance_used(
        qtbot, replay, dock):
    to_plan(qtbot, dock, "copy_merge")
    approve_plan(qtbot, dock)
    rows = dict(dock.result_view.audit_rows())
    assert "Merge tolerance" not in rows  # an unlabelled number beside a merge of 0.001
    audit_distance = rows["Audit: nodes closer than this count as coincident"]
    assert float(audit_distance) < 0.001
    assert rows["Repair: merged nodes closer than"] == "0.001"
    shown = [dock.result_view.audit.item(r, 0).text()
             for r in range(dock.result_view.audit.rowCount())]
    assert "Repair: merged nodes closer than (mm)" in shown  # a length, with its unit
    tip = dock.result_view.audit.item(shown.index(
        "Audit: nodes closer than this count as coincident (mm)"), 0).toolTip()
    assert "relative to the part's size" in tip


def test_a_new_parts_before_line_says_it_does_not_exist_yet(qapp) -> None:
    """Not the model's sections: a part the run makes has no state of its own before it."""
    from sam_plugin.compilers.evidence import Readback
    from sam_plugin.runtime.run.plan_builder import _before_state
    from sam_plugin.ui import i18n
    from sam_plugin.ui.plan_text import state_words

    state = _before_state(Readback(part_exists=False, sections=["Shell-2mm"],
                                   materials=["Steel"]))
    assert state_words(state, "mm") == "the part does not exist yet"
    translator = i18n.install_translator("zh_CN")
    try:
        assert state_words(state, "mm") == "部件尚不存在"
    finally:
        i18n.remove_translator(translator)
    existing = _before_state(Readback(part_exists=True, node_count=4, element_count=1,
                                      sections=["Shell-2mm"]))
    assert "sections Shell-2mm" in state_words(existing)


def test_a_builds_corners_say_their_unit(qtbot, replay, dock):
    to_plan(qtbot, dock, "plate")
    lines = dock.plan_view.toPlainText().splitlines()
    assert ("– mesh patch plate: 6 x 10 QUAD elements over the corners (0, 0, 0), (60, 0, 0), "
            "(60, 100, 0), (0, 100, 0) mm") in lines, lines
    assert "Before: the part does not exist yet" in lines


def test_every_domains_tools_are_said_in_that_domains_own_words(qapp) -> None:
    """The dock names no tool itself: each domain words its tools (a Load tool was shown by
    its name, ``apply_load``, when the dock kept a list of the first three domains')."""
    from sam_plugin.compilers import registry
    from sam_plugin.ui.plain_words import error_words, every_tool, tool_words

    tools = every_tool()
    assert {t for mode in registry.MODES
            for t in registry.get_module(mode).tool_names.values()} == set(tools)
    assert tool_words("apply_load") == "apply loads"
    assert [t for t in tools if tool_words(t) == t] == []
    assert tool_words("not_a_tool") == "not_a_tool"
    # a message written before phrases is shown as stored: its words are not read back
    assert error_words("round 1: apply_boundary failed", None) == "round 1: apply_boundary failed"
