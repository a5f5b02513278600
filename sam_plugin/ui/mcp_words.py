"""What the dock says about an MCP client's plan and undo, in the analyst's language
(docs/mcp.md "Inside SAM").

Rendered from data the gate holds in memory (the compiled plan, the run's result it read to
render the sealed request's words, the client and the target), never from the sealed words
themselves: words are rendered from data, not parsed back. No widgets here.
"""

from __future__ import annotations

from typing import Any

from sam_plugin.compilers.registry import mode_title
from sam_plugin.ui.i18n import tr
from sam_plugin.ui.plan_text import language, plan_summary
from sam_plugin.ui.status_words import final_words
from sam_plugin.ui.undo_view import existed


def target_words(target: Any) -> str:
    """``Model-1/Panel``."""
    return f"{target.model_name}/{target.part_name}"


def asks_to_execute(client: str, run_id: str, target: Any, mode: str) -> str:
    return tr("{client} asks to execute run {run_id} on {target} ({mode})").format(
        client=client, run_id=run_id, target=target_words(target),
        mode=mode_title(mode, language()))


def asks_to_undo(client: str, run_id: str, target: Any) -> str:
    return tr("{client} asks to undo run {run_id} on {target}").format(
        client=client, run_id=run_id, target=target_words(target))


def undo_change(result: Any) -> str:
    """``Undo run X: 25 → 25 nodes, 0 → 16 elements``: the part as the run left it, then as
    it goes back to."""
    now, back = result.after, result.before
    if now is None or back is None:
        return tr("Undo run {run_id}: {target} goes back as it was before it").format(
            run_id=result.run_id, target=target_words(result.target))
    if not existed(back):
        return tr("Undo run {run_id}: {nodes} → 0 nodes, {elements} → 0 elements (the part "
                  "did not exist before it: it is removed)").format(
            run_id=result.run_id, nodes=now.node_count, elements=now.element_count)
    return tr("Undo run {run_id}: {now_nodes} → {back_nodes} nodes, {now_elements} → "
              "{back_elements} elements").format(
        run_id=result.run_id, now_nodes=now.node_count, back_nodes=back.node_count,
        now_elements=now.element_count, back_elements=back.element_count)


def plan_status(client: str, run_id: str, target: Any, plan: Any) -> str:
    """While an MCP plan waits in the dock (``Plan`` first, as §9 asks of a plan)."""
    return tr("Plan — {client} asks to execute run {run_id} on {target}: {summary}. Execute "
              "or Cancel").format(client=client, run_id=run_id, target=target_words(target),
                                  summary=plan_summary(plan))


def undo_status(client: str, result: Any) -> str:
    """While an MCP undo waits in the dock."""
    return tr("Undo — {client} asks: {change}. Undo or Cancel").format(
        client=client, change=undo_change(result))


def answered(kind: str, approved: bool, run_id: str, client: str, now: bool) -> str:
    """The status once the analyst answered in the dock; ``now``: a call waits for it."""
    if kind == "undo":
        return (tr("Approved in the dock — undoing run {run_id} now") if approved else
                tr("Declined in the dock — run {run_id} is not undone; nothing changed")
                ).format(run_id=run_id)
    if not approved:
        return tr("Declined in the dock — run {run_id} does not execute; nothing changed"
                  ).format(run_id=run_id)
    if now:
        return tr("Approved in the dock — run {run_id} executes now").format(run_id=run_id)
    return tr("Approved in the dock — run {run_id} executes when {client} calls execute_plan "
              "again").format(run_id=run_id, client=client)


def run_status(result: Any, client: str) -> str:
    """An MCP run's end, in the words of the analyst's own run (``Verified``, ``Failed``, …),
    naming whose run it was."""
    return tr("{words} — run {run_id} of {client} (MCP)").format(
        words=final_words(result), run_id=result.run_id, client=client)
