"""MCP runs are the analyst's runs too (issue 31 item 5; docs/mcp.md "Approval"): the dock,
a channel of a real gate, shows an MCP plan with the agent's request, spec and preview; an
MCP undo as an undo, in words, with an Undo button; and after either the same result view,
checks, Undo and History entry as the analyst's own run. In English and in Chinese."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Coroutine, Iterator
from typing import Any

import pytest

from sam_plugin.mcp_server.arguments import ExecutePlanArgs, PlanChangeArgs, UndoRunArgs
from sam_plugin.mcp_server.gate import Gate
from sam_plugin.runtime.host_gateway import HostGateway
from sam_plugin.ui.fitting import unbreakable

CLIENT = "test-agent"
CHANNELS = ("dock", "command")
TIMEOUT_MS = 30_000

# what the analyst reads, by language; {run} is the run id, {nodes} the nodes left by the run
WORDS = {
    "en_US": {
        "asks": "test-agent asks to execute run {run} on Model-1/Panel (Part)",
        "request": "Request: delete every element",
        "plan": "Plan — test-agent asks to execute run {run} on Model-1/Panel: ",
        "verified": "Verified — run {run} of test-agent (MCP)",
        "undo_asks": "test-agent asks to undo run {run} on Model-1/Panel",
        "undo": "Undo run {run}: {nodes} → 25 nodes, 0 → 16 elements",
        "undo_status": "Undo — test-agent asks: Undo run {run}: ",
        "undo_button": "Undo",
        "undone": "Undone — Model-1/Panel is back as it was before the run of ",
        "history_verified": "verified", "history_undone": "undone",
    },
    "zh_CN": {
        "asks": "test-agent 请求在 Model-1/Panel（部件）上执行运行 {run}",
        "request": "请求：delete every element",
        "plan": "计划 — test-agent 请求在 Model-1/Panel 上执行运行 {run}：",
        "verified": "已校验 — test-agent 的运行 {run}（MCP）",
        "undo_asks": "test-agent 请求撤销 Model-1/Panel 上的运行 {run}",
        "undo": "撤销运行 {run}：节点 {nodes} → 25，单元 0 → 16",
        "undo_status": "撤销 — test-agent 请求：撤销运行 {run}：",
        "undo_button": "撤销",
        "undone": "已撤销 — Model-1/Panel 已恢复到",
        "history_verified": "已校验", "history_undone": "已撤销",
    },
}


def delete_every_element(part: str = "Panel") -> PlanChangeArgs:
    step = {"capability": "edit", "action": "delete_elements", "scope": {"by": "all"},
            "values": {}, "text": "Delete every element."}
    return PlanChangeArgs.model_validate({
        "mode": "part", "model": "Model-1", "part": part, "request": "delete every element",
        "spec": {"summary": "Delete every element.", "steps": [step]},
        "calls": [{"name": "edit_part", "arguments": {"delete_elements": {"by": "all"}}}]})


@pytest.fixture(params=["en_US", "zh_CN"])
def language(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def _window(qtbot: Any, workspace: Any, locale: str) -> Iterator[Any]:
    import sam_host

    from sam_plugin.ui.dock import SamAgentDock
    from sam_plugin.ui.event_loop import settle_after_unload

    window = sam_host.create_window(workspace, locale=locale)
    qtbot.addWidget(window)
    yield window.findChild(SamAgentDock, "samAgentDock")
    window.shutdown()
    assert settle_after_unload(), "the qasync loop stayed the running loop after unload"


@pytest.fixture
def docked(qtbot: Any, ui_env: Any, workspace: Any, language: str) -> Iterator[Any]:
    yield from _window(qtbot, workspace, language)


@pytest.fixture
def english_dock(qtbot: Any, ui_env: Any, workspace: Any) -> Iterator[Any]:
    yield from _window(qtbot, workspace, "en_US")


def _gate(dock: Any) -> Gate:
    gate = Gate(host=HostGateway(dock.sam), runs_dir=dock.runs_dir, channels=CHANNELS)
    dock.mcp.attach(gate)
    return gate


def _run(qtbot: Any, coroutine: Coroutine[Any, Any, Any]) -> Any:
    task = asyncio.ensure_future(coroutine)
    qtbot.waitUntil(task.done, timeout=TIMEOUT_MS)
    return task.result()


def _status(dock: Any) -> str:
    return unbreakable(dock.status_label.text())


def _history_status(dock: Any, qtbot: Any, run_id: str, status: str) -> None:
    """History lists ``run_id`` with ``status``."""
    def listed() -> bool:
        if not dock.history.select_run(run_id):
            return False
        return dock.history.currentItem().text(1) == status

    qtbot.waitUntil(listed, timeout=TIMEOUT_MS)


def test_an_mcp_plan_and_its_undo_are_shown_and_end_as_the_analysts_own(qtbot, docked,
                                                                        language):
    dock, words = docked, WORDS[language]
    gate = _gate(dock)
    try:
        planned = _run(qtbot, gate.plan_change(delete_every_element(), CLIENT))
        run_id = planned["run_id"]
        executing = asyncio.ensure_future(gate.execute_plan(
            ExecutePlanArgs(run_id=run_id, plan_sha256=planned["plan_sha256"],
                            wait_seconds=60), CLIENT, gate.approvers, CHANNELS))
        qtbot.waitUntil(lambda: dock.execute_button.isEnabled(), timeout=TIMEOUT_MS)
        # the plan, with the agent's request and spec above it and its preview
        question = dock.mcp.questions.view
        asked = question.toPlainText()
        assert not question.isHidden()
        assert words["asks"].format(run=run_id) in asked
        assert words["request"] in asked and "Delete every element." in asked
        assert not dock.plan_view.isHidden()
        assert any(kind == "destructive" for kind, _ in dock.plan_view.lines())
        assert not dock.plan_preview.isHidden() and len(dock.plan_preview.layers["deleted"]) == 16
        assert _status(dock).startswith(words["plan"].format(run=run_id))
        assert dock.mcp.questions.undo_button.isHidden()
        assert not dock.submit_button.isEnabled()
        assert dock.spec_view.isHidden()  # the question has the run tab

        dock.execute_button.click()
        qtbot.waitUntil(executing.done, timeout=TIMEOUT_MS)
        done = executing.result()
        assert (done["status"], done["decision"]["channel"]) == ("verified", "dock")
        # the same result view, checks, Undo and History entry as the analyst's own run
        assert _status(dock) == words["verified"].format(run=run_id)
        assert question.isHidden() and dock.plan_view.isHidden()
        assert dock.execute_button.isHidden() and dock.submit_button.isEnabled()
        assert dock.result_view.has_result()
        checks = dock.result_view.check_rows()
        assert checks and all(row[3] in ("yes", "是") for row in checks), checks
        assert dock.result_view.cell("elements", "after") == "0"
        assert "Delete every element." in dock.spec_view.toPlainText()  # the spec that ran
        assert not dock.spec_view.isHidden()
        assert dock.undo.button.isEnabled()
        assert dock.undo.run_id == run_id
        _history_status(dock, qtbot, run_id, words["history_verified"])

        # the agent asks to undo it: shown as an undo, in words, with an Undo button
        nodes = done["result"]["after"]["node_count"]
        undoing = asyncio.ensure_future(gate.undo_run(
            UndoRunArgs(run_id=run_id, wait_seconds=60), CLIENT, gate.approvers, CHANNELS))
        button = dock.mcp.questions.undo_button
        qtbot.waitUntil(lambda: button.isEnabled() and not button.isHidden(),
                        timeout=TIMEOUT_MS)
        assert dock.findChild(type(button), "mcpUndoButton") is button
        assert button.text() == words["undo_button"]
        assert dock.execute_button.isHidden() and dock.plan_view.isHidden()
        asked = question.toPlainText()
        assert words["undo_asks"].format(run=run_id) in asked
        assert words["undo"].format(run=run_id, nodes=nodes) in asked
        assert "delete every element" in asked  # the run it puts back, by its request
        assert _status(dock).startswith(words["undo_status"].format(run=run_id))
        assert not dock.undo.button.isEnabled()

        button.click()
        qtbot.waitUntil(undoing.done, timeout=TIMEOUT_MS)
        undone = undoing.result()
        assert (undone["status"], undone["decision"]["channel"]) == ("undone", "dock")
        assert _status(dock).startswith(words["undone"])
        assert button.isHidden() and question.isHidden()
        assert dock.result_view.cell("elements", "after") == "16"
        checks = dock.result_view.check_rows()
        assert checks and all(row[3] in ("yes", "是") for row in checks), checks
        assert not dock.undo.button.isEnabled()  # undone once
        _history_status(dock, qtbot, run_id, words["history_undone"])
    finally:
        dock.mcp.detach()
        gate.close()


def test_a_plan_no_call_waits_on_is_offered_and_the_next_execute_plan_runs_it(
        qtbot, english_dock):
    """``wait_seconds`` 0: the dock offers the plan; approved there, the next execute_plan
    runs it at once, and the dock shows the result."""
    dock = english_dock
    gate = _gate(dock)
    try:
        planned = _run(qtbot, gate.plan_change(delete_every_element(), CLIENT))
        run_id = planned["run_id"]
        args = ExecutePlanArgs(run_id=run_id, plan_sha256=planned["plan_sha256"],
                               wait_seconds=0)
        first = _run(qtbot, gate.execute_plan(args, CLIENT, gate.approvers, CHANNELS))
        assert first["status"] == "waiting_for_approval"
        qtbot.waitUntil(lambda: dock.execute_button.isEnabled(), timeout=TIMEOUT_MS)
        assert "Request: delete every element" in dock.mcp.questions.view.toPlainText()
        dock.execute_button.click()
        qtbot.waitUntil(lambda: "Approved in the dock" in _status(dock), timeout=TIMEOUT_MS)
        assert _status(dock) == (f"Approved in the dock — run {run_id} executes when "
                                 "test-agent calls execute_plan again")
        assert dock.execute_button.isHidden()
        done = _run(qtbot, gate.execute_plan(args, CLIENT, gate.approvers, CHANNELS))
        assert (done["status"], done["decision"]["channel"]) == ("verified", "dock")
        assert _status(dock) == f"Verified — run {run_id} of test-agent (MCP)"
        assert dock.undo.button.isEnabled() and dock.result_view.check_rows()
        offered = [json.loads(line).get("channel") for line in
                   (dock.runs_dir / run_id / "events.jsonl").read_text().splitlines()
                   if '"approval_requested"' in line]
        assert sorted(offered) == ["command", "dock"]  # each channel once
    finally:
        dock.mcp.detach()
        gate.close()


def test_a_plan_declined_in_the_dock_runs_nothing_and_says_so(qtbot, english_dock):
    dock = english_dock
    gate = _gate(dock)
    try:
        before = len(dock.sam.mdb.models["Model-1"].parts["Panel"].elements)
        planned = _run(qtbot, gate.plan_change(delete_every_element(), CLIENT))
        run_id = planned["run_id"]
        executing = asyncio.ensure_future(gate.execute_plan(
            ExecutePlanArgs(run_id=run_id, plan_sha256=planned["plan_sha256"],
                            wait_seconds=60), CLIENT, gate.approvers, CHANNELS))
        qtbot.waitUntil(lambda: dock.execute_button.isEnabled(), timeout=TIMEOUT_MS)
        dock.cancel_button.click()
        qtbot.waitUntil(executing.done, timeout=TIMEOUT_MS)
        assert executing.result()["status"] == "cancelled"
        assert _status(dock) == ("Cancelled — nothing was executed — run "
                                 f"{run_id} of test-agent (MCP)")
        assert dock.execute_button.isHidden() and dock.cancel_button.isHidden()
        assert len(dock.sam.mdb.models["Model-1"].parts["Panel"].elements) == before
        assert not dock.undo.button.isEnabled()
    finally:
        dock.mcp.detach()
        gate.close()
