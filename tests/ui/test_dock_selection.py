"""The dock and the host's viewport (issue 36): the plan drawn in the main viewport and
cleared when the run ends; what is picked there shown in the dock (English and Chinese), a
request acting on it, the selection frozen at submit; a host without these services."""

from __future__ import annotations

import json

import pytest
from plan_steps import approve_plan, to_plan

from sam_plugin.demo.loopback import FakeProvider, StreamResponse
from sam_plugin.demo.streams import openai_stream

TIMEOUT_MS = 20_000
SPEC = {"summary": "Translate the selected elements by (0, 0, 5).",
        "steps": [{"capability": "transform", "action": "translate",
                   "scope": {"by": "labels", "labels": list(range(3, 15))},
                   "values": {"vector": [0, 0, 5]},
                   "text": "Translate the selection by 5 along Z."}]}


def test_the_plan_is_drawn_in_the_main_viewport_and_cleared_when_the_run_ends(
        qtbot, replay, host_window, dock):
    viewport = host_window.viewport
    to_plan(qtbot, dock, "copy_merge")
    assert viewport.overlay_shown  # the copy's 16 elements, green, over the Panel
    assert viewport.overlay_counts["added"] == 16
    approve_plan(qtbot, dock)
    assert "Verified" in dock.status_label.text()
    assert not viewport.overlay_shown


def test_a_cancelled_plan_leaves_nothing_drawn(qtbot, replay, host_window, dock):
    to_plan(qtbot, dock, "copy_merge")
    assert host_window.viewport.overlay_shown
    dock.cancel_button.click()
    qtbot.waitUntil(lambda: "Cancelled" in dock.status_label.text(), timeout=TIMEOUT_MS)
    assert not host_window.viewport.overlay_shown


def test_the_dock_shows_what_is_picked_on_the_target_part(qtbot, host_window, dock):
    dock.set_target("part", "Model-1", "Panel")
    row = dock.selection_row
    assert row.isHidden()  # nothing picked
    host_window.viewport.set_selection(list(range(3, 15)))
    assert not row.isHidden()
    assert row.label.text() == "Selection: 12 elements (labels 3–14)"
    assert row.check.isChecked() and row.check.text() == "Act on it"
    host_window.viewport.set_selection([2, 5, 6, 7])
    assert row.label.text() == "Selection: 4 elements (labels 2, 5–7)"
    host_window.viewport.set_selection([5], kind="nodes")
    assert row.label.text() == "Selection: 1 node (label 5)"
    host_window.viewport.set_selection([])
    assert row.isHidden()


def test_a_selection_too_large_for_a_scope_is_said_and_not_acted_on(qtbot, host_window, dock):
    dock.set_target("part", "Model-1", "Panel")
    host_window.viewport.set_selection(list(range(1, 26)), kind="nodes")
    assert dock.selection_row.chosen() is not None  # 25 nodes: at most 64 fit a scope
    from sam_plugin.runtime.selection import Selection

    dock.selection_row.show_selection(Selection(kind="elements", labels=tuple(range(1, 100))))
    assert "too many to act on (at most 64)" in dock.selection_row.label.text()
    assert dock.selection_row.chosen() is None and not dock.selection_row.check.isEnabled()


def test_the_chinese_dock_says_the_selection_in_chinese(qtbot, ui_env, workspace):
    import sam_host

    window = sam_host.create_window(workspace, locale="zh_CN")
    qtbot.addWidget(window)
    dock = window.findChild(object, "samAgentDock")
    try:
        dock.set_target("part", "Model-1", "Panel")
        window.viewport.set_selection(list(range(3, 15)))
        assert dock.selection_row.label.text() == "选择：12 个单元（标签 3–14）"
        assert dock.selection_row.check.text() == "作用于所选"
        window.viewport.set_selection([1, 2, 3], kind="nodes")
        assert dock.selection_row.label.text() == "选择：3 个节点（标签 1–3）"
    finally:
        window.shutdown()


@pytest.fixture
def selection_provider(ui_env, monkeypatch):
    """A provider that answers every design request with the selection's spec."""
    def respond(request):
        return StreamResponse([p.encode() for p in openai_stream(content=json.dumps(SPEC))])

    provider = FakeProvider(responder=respond)
    monkeypatch.setenv("SAM_AGENT_BASE_URL", provider.base_url)
    monkeypatch.setenv("SAM_AGENT_MODEL", "m")
    monkeypatch.setenv("SAM_AGENT_PROFILE", "vllm")
    monkeypatch.setenv("SAM_AGENT_CALLS", "spec")  # the calls computed from the spec's step
    yield provider
    provider.close()


def _submit_on_selection(qtbot, host_window, dock):
    dock.set_target("part", "Model-1", "Panel")
    host_window.viewport.set_selection(list(range(3, 15)))
    dock.request_edit.setPlainText("move the selection up by 5")
    dock.submit_button.click()
    qtbot.waitUntil(lambda: not dock.busy and "Review" in dock.status_label.text(),
                    timeout=TIMEOUT_MS)


def test_a_request_acts_on_the_selection(qtbot, selection_provider, host_window, dock):
    import sam

    _submit_on_selection(qtbot, host_window, dock)
    sent = selection_provider.requests[-1].json["messages"][1]["content"]
    assert sent.endswith('12 elements, scope {"by":"labels","labels":[3,4,5,6,7,8,9,10,11,12,'
                         '13,14]}')
    assert "translate the 12 selected elements by (0, 0, 5)" in dock.spec_view.toPlainText()
    assert dock.selection_row.check.isEnabled() is False  # frozen with the target
    dock.confirm_button.click()
    qtbot.waitUntil(lambda: not dock.busy, timeout=TIMEOUT_MS)
    assert "Plan" in dock.status_label.text(), (dock.status_label.text(), dock.describe_error())
    approve_plan(qtbot, dock)
    assert "Verified" in dock.status_label.text(), dock.describe_error()
    panel = sam.mdb.models["Model-1"].parts["Panel"]
    moved = {n.label for e in panel.elements if 3 <= e.label <= 14 for n in e.getNodes()}
    assert all(panel.nodes.getFromLabel(label).coordinates[2] == 5.0 for label in moved)


def test_a_selection_changed_after_submit_fails_the_run_before_execution(
        qtbot, selection_provider, host_window, dock):
    import sam

    _submit_on_selection(qtbot, host_window, dock)
    host_window.viewport.set_selection([3, 4])  # the analyst picks again in Review
    dock.confirm_button.click()
    qtbot.waitUntil(lambda: not dock.busy and "Failed" in dock.status_label.text(),
                    timeout=TIMEOUT_MS)
    assert "the selection changed since submit" in dock.describe_error()
    panel = sam.mdb.models["Model-1"].parts["Panel"]
    assert all(node.coordinates[2] == 0.0 for node in panel.nodes)
    assert dock.controller.result.submissions == 0


def test_a_host_without_picking_or_preview_keeps_the_dock_working(qtbot, ui_env):
    from sam_plugin.compilers.protocol import Target
    from sam_plugin.ui.viewport_link import ViewportLink

    link = ViewportLink(object())  # a host with none of the optional services
    assert not link.can_pick and not link.can_preview
    assert link.selection_for(Target(model_name="M", part_name="P")) is None
    link.show_preview(Target(model_name="M", part_name="P"), {"added": [[(0, 0, 0)]]})
    link.clear_preview()
    link.detach()

    class Broken:  # a host whose services raise: logged, never let through
        def selection(self):
            raise RuntimeError("no viewport")

        def add_selection_listener(self, callback):
            return None

        def remove_selection_listener(self, callback):
            return None

        def show_plan_preview(self, *args):
            raise RuntimeError("no viewport")

        def clear_plan_preview(self):
            raise RuntimeError("no viewport")

    broken = ViewportLink(Broken())
    assert broken.selection_for(Target(model_name="M", part_name="P")) is None
    broken.show_preview(Target(model_name="M", part_name="P"), {})
    broken.clear_preview()


def test_the_replay_says_it_does_not_act_on_the_pick(qtbot, replay, host_window, dock):
    """The recorded refine acts on all 16 elements while 2 are picked: Review says so."""
    from sam_plugin.demo.examples import example_by_id

    dock.set_target("mesh", "Model-1", "Panel")
    host_window.viewport.set_selection([1, 2])
    assert dock.selection_row.check.isChecked()
    dock.request_edit.setPlainText(example_by_id("refine").request)
    dock.submit_button.click()
    qtbot.waitUntil(lambda: not dock.busy and "Review" in dock.status_label.text(),
                    timeout=TIMEOUT_MS)
    notes = dock.spec_extras.notes.text()
    assert ("Warning: Replay answered with the recorded example, which does not act on your "
            "pick (Selection: 2 elements (labels 1–2)): its steps' scopes are the recorded "
            "ones. Edit a step's scope to act on the pick, or use a live model.") in notes, notes
    assert not dock.spec_extras.notes.isHidden()


def test_the_replay_says_nothing_of_a_pick_not_acted_on(qtbot, replay, host_window, dock):
    from sam_plugin.demo.examples import example_by_id

    dock.set_target("mesh", "Model-1", "Panel")
    host_window.viewport.set_selection([1, 2])
    dock.selection_row.check.setChecked(False)
    dock.request_edit.setPlainText(example_by_id("refine").request)
    dock.submit_button.click()
    qtbot.waitUntil(lambda: not dock.busy and "Review" in dock.status_label.text(),
                    timeout=TIMEOUT_MS)
    assert "Replay" not in dock.spec_extras.notes.text()


def test_a_refine_plan_is_drawn_with_the_plans_counts(qtbot, replay, host_window, dock):
    """16 parents go, 64 children come: the viewport's legend says the plan's numbers."""
    to_plan(qtbot, dock, "refine")
    assert host_window.viewport.overlay_counts == {"touched": 0, "added": 64, "deleted": 16,
                                                   "deleted_nodes": 0}
    assert "16 elements become 64" in dock.plan_view.toPlainText()
    dock.cancel_button.click()
    qtbot.waitUntil(lambda: "Cancelled" in dock.status_label.text(), timeout=TIMEOUT_MS)
    assert not host_window.viewport.overlay_shown


def test_refining_splits_each_shape_as_the_refinement_does():
    from sam_plugin.compilers.mesh.preview import _split

    quad = [(0.0, 0.0, 0.0), (2.0, 0.0, 0.0), (2.0, 2.0, 0.0), (0.0, 2.0, 0.0)]
    children = _split(quad)
    assert len(children) == 4 and [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (1.0, 1.0, 0.0),
                                   (0.0, 1.0, 0.0)] in children
    assert len(_split(quad[:3])) == 4 and _split(quad[:2]) == [
        [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0)], [(1.0, 0.0, 0.0), (2.0, 0.0, 0.0)]]


def test_a_plan_beyond_the_part_is_fitted_into_the_view(qtbot, replay, host_window, dock):
    """The copy 40 along X lies beside the Panel: the view takes both in, then the part
    alone again when the plan is gone."""
    from test_viewport_picking import _assert_fitted

    viewport = host_window.viewport
    viewport.resize(800, 600)
    (_, radius) = viewport.geometry_data.center_and_radius()
    part_only = 0.45 * 600 / radius
    to_plan(qtbot, dock, "copy_merge")
    assert viewport.overlay_counts["added"] == 16
    assert viewport.scale < part_only  # zoomed out to take the copy in
    _assert_fitted(viewport, [(0, 0, 0), (80, 40, 0)])  # the Panel and its copy, centred
    dock.cancel_button.click()
    qtbot.waitUntil(lambda: "Cancelled" in dock.status_label.text(), timeout=TIMEOUT_MS)
    (_, radius) = viewport.geometry_data.center_and_radius()
    assert viewport.scale == pytest.approx(0.45 * min(viewport.width(), viewport.height())
                                           / radius)


def test_a_merges_deleted_nodes_are_drawn_and_counted_as_the_plan_counts_them(
        qtbot, replay, host_window, dock):
    """The plan removes 5 duplicate nodes: the legend said 'deleted 0'."""
    to_plan(qtbot, dock, "copy_merge")
    assert "also removes 5 nodes [26, 31, 36, 41, 46]" in dock.plan_view.toPlainText()
    viewport = host_window.viewport
    assert viewport.overlay_counts["deleted_nodes"] == 5
    assert viewport.legend_items() == ["touched 0", "added 16", "deleted 0",
                                       "deleted nodes 5"]
    assert [o[0][0] for o in dock.plan_preview.layers["deleted_nodes"]] == [40.0] * 5


def test_a_build_is_drawn_in_the_main_viewport_fitted(qtbot, replay, host_window, dock):
    from test_viewport_picking import _assert_fitted

    viewport = host_window.viewport
    viewport.resize(800, 600)
    to_plan(qtbot, dock, "plate")
    assert viewport.overlay_counts["added"] == 60  # 6 x 10 QUAD elements
    assert host_window.displayed_part() is None  # no part yet: the plan alone
    _assert_fitted(viewport, [(0, 0, 0), (60, 100, 0)])
