"""The dock runs a Load request to Verified and undoes it, offscreen (docs/architecture.md §9):
``modeCombo`` offers Load; a scripted provider answers the spec; the plan shows each load and
boundary condition with its region, step and values with units."""

from __future__ import annotations

import json

import pytest
from plan_steps import approve_plan

from tests.support.specs import ALL, answer, labels, step

TIMEOUT_MS = 20_000
REQUEST = ("Define the step Push, apply the pressure P1 of 2 on all elements in Push, and fix "
           "node 1 as Clamp")
SPEC = answer(
    step("define_step", mode="load", name="Push"),
    step("pressure", ALL, mode="load", name="P1", step="Push", magnitude=2),
    step("fix", labels(1), mode="load", name="Clamp"),
    summary="Step Push, pressure P1 of 2 on all elements, node 1 fixed as Clamp.")


def test_mode_combo_offers_every_mode_with_load(dock):
    combo = dock.mode_combo
    assert [combo.itemData(i) for i in range(combo.count())] == [
        "part", "property", "mesh", "load"]
    assert combo.itemText(3) == "Load"


def _to_plan(qtbot, dock, fake_provider, monkeypatch) -> None:
    monkeypatch.setenv("SAM_AGENT_BASE_URL", fake_provider.base_url)
    monkeypatch.setenv("SAM_AGENT_API_KEY", "sk-dock-load")
    monkeypatch.setenv("SAM_AGENT_MODEL", "fake-model")
    monkeypatch.setenv("SAM_AGENT_PROFILE", "generic")
    monkeypatch.setenv("SAM_AGENT_CALLS", "spec")
    fake_provider.enqueue_reply(SPEC)
    dock.set_target("load", "Model-1", "Panel")
    dock.request_edit.setPlainText(REQUEST)
    dock.submit_button.click()
    qtbot.waitUntil(lambda: not dock.busy and "Review" in dock.status_label.text(),
                    timeout=TIMEOUT_MS)
    dock.confirm_button.click()
    qtbot.waitUntil(lambda: not dock.busy and "Plan" in dock.status_label.text(),
                    timeout=TIMEOUT_MS)


def test_a_load_request_runs_to_verified_and_is_undone(qtbot, dock, fake_provider, monkeypatch):
    import sam
    from PySide6.QtWidgets import QMessageBox

    _to_plan(qtbot, dock, fake_provider, monkeypatch)
    model = sam.mdb.models["Model-1"]
    plan = dock.plan_view.toPlainText()
    assert "pressure P1 of 2 MPa on LOAD-P1 (16 elements, a new set made from the " \
           "selection) in step Push" in plan
    assert "fix all six dofs of BC-Clamp (1 node, a new set made from the selection) as " \
           "Clamp in step Initial" in plan
    approve_plan(qtbot, dock)
    assert dock.status_label.text() == "Verified", dock.status_label.text()
    assert list(model.loads.keys()) == ["P1"]
    assert list(model.boundaryConditions.keys()) == ["Clamp"]
    run_dir = dock.runs_dir / dock.controller.run_id
    result = json.loads((run_dir / "result.json").read_text())
    assert result["after"]["loads"] == ["P1"] and result["before"]["loads"] == []
    assert dock.undo.button.isEnabled(), dock.undo.button.toolTip()
    dock.undo.button.click()
    box = dock.findChild(QMessageBox, "undoConfirmDialog")
    box.button(QMessageBox.StandardButton.Yes).click()
    assert "Undone" in dock.status_label.text()
    model = sam.mdb.models["Model-1"]
    assert list(model.loads.keys()) == [] and list(model.boundaryConditions.keys()) == []
    assert list(model.steps.keys()) == ["Initial"]
    assert "LOAD-P1" not in model.parts["Panel"].sets.keys()


def test_every_mode_of_the_combo_is_said_in_chinese():
    """A mode's title in each language is its domain's (``mode_title.json`` of its package),
    read without importing the domain."""
    from sam_plugin.compilers.registry import mode_title
    from sam_plugin.ui.dock import MODES

    assert {title: mode_title(mode, "zh_CN") for mode, title in MODES} == {
        "Part": "部件", "Property": "属性", "Mesh": "网格", "Load": "载荷"}


@pytest.fixture
def chinese(qapp):
    from sam_plugin.ui import i18n

    translator = i18n.install_translator("zh_CN")
    yield
    i18n.remove_translator(translator)


def test_the_combo_says_each_mode_in_the_dock_s_language(chinese, host_window):
    from sam_plugin.ui.dock import SamAgentDock

    combo = host_window.findChild(SamAgentDock, "samAgentDock").widgets.mode_combo
    assert [combo.itemText(i) for i in range(combo.count())] == ["部件", "属性", "网格", "载荷"]
    assert [combo.itemData(i) for i in range(combo.count())] == ["part", "property", "mesh",
                                                                 "load"]


def _seen(image, colour: str) -> int:
    return sum(1 for y in range(0, image.height(), 2) for x in range(0, image.width(), 2)
               if image.pixelColor(x, y).name() == colour)


def test_the_region_of_each_load_and_condition_is_drawn_acted_on(
        qtbot, dock, host_window, fake_provider, monkeypatch):
    """The dock's preview and the host's main viewport draw P1's 16 elements and Clamp's
    node 1 in the acted-on colour, with its legend entry; nothing is added or deleted."""
    from sam_plugin.ui import i18n
    from sam_plugin.ui.plan_preview import PREVIEW_COLOURS, legend_words

    _to_plan(qtbot, dock, fake_provider, monkeypatch)
    preview = dock.plan_preview
    assert not preview.isHidden()
    assert [len(o) for o in preview.layers["acted_on"]] == [4] * 16  # P1's elements
    assert preview.layers["acted_on_nodes"] == [[(0.0, 0.0, 0.0)]]  # Clamp's node 1, a dot
    assert not (preview.layers["added"] or preview.layers["deleted"] or preview.layers["moved"])
    preview.resize(400, 300)
    assert _seen(preview.grab().toImage(), PREVIEW_COLOURS["acted_on"]) > 0
    assert legend_words()["acted_on"] == "acted on (unchanged)"
    translator = i18n.install_translator("zh_CN")
    try:
        assert legend_words()["acted_on"] == "作用区域（不变）"
    finally:
        i18n.remove_translator(translator)
    viewport = host_window.viewport
    assert viewport.overlay_counts == {"touched": 0, "added": 0, "deleted": 0,
                                       "deleted_nodes": 0, "acted_on": 16,
                                       "acted_on_nodes": 1}
    assert viewport.legend_items()[3:] == ["acted on (unchanged) 16",
                                           "nodes acted on (unchanged) 1"]
    viewport.resize(600, 400)
    viewport.render_now()
    assert _seen(viewport.grab().toImage(), PREVIEW_COLOURS["acted_on"]) > 0
    dock.cancel_button.click()
    qtbot.waitUntil(lambda: "Cancelled" in dock.status_label.text(), timeout=TIMEOUT_MS)
    assert not viewport.overlay_shown
