"""What an MCP client asks of the analyst, above ``planView`` (objectName
``mcpQuestionView``): who asks to execute which run on which part, the agent's request and
its spec in words (where the spec disagrees with the part now, in amber); or, for an undo,
the undo in words and the run it puts back (docs/mcp.md "Inside SAM").

Every text is escaped: an agent chose the request and the spec.
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtWidgets import QTextBrowser

from sam_plugin.ui.i18n import tr
from sam_plugin.ui.mcp_words import asks_to_execute, asks_to_undo, undo_change
from sam_plugin.ui.undo_view import RunWords, undo_question

WARNING_COLOUR = "#9a6700"
UNDO_COLOUR = "#cf222e"  # an undo loses what the run changed, as a destructive line does
QUESTION_LINES = 6


class McpQuestionView(QTextBrowser):
    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("mcpQuestionView")
        self.setOpenLinks(False)
        # who asks, the request and the first lines of the spec stay in sight; it scrolls on
        self.setMinimumHeight(self.fontMetrics().lineSpacing() * QUESTION_LINES + 12)
        self.hide()

    def show_plan(self, client: str, run_id: str, target: Any, mode: str, request: str,
                  spec_text: str, warnings: list[str]) -> None:
        rows = [_line(asks_to_execute(client, run_id, target, mode), bold=True),
                _line(tr("Request: {request}").format(request=request))]
        if spec_text.strip():
            rows.append(f'<div style="white-space:pre-wrap; margin-top:4px;">'
                        f'{html.escape(spec_text.strip())}</div>')
        if warnings:
            rows.append(_line(tr("Where the spec disagrees with the part now:"),
                              colour=WARNING_COLOUR, bold=True))
            rows += [_line(f"• {warning}", colour=WARNING_COLOUR) for warning in warnings]
        self._show(rows)

    def show_undo(self, client: str, result: Any, words: RunWords) -> None:
        rows = [_line(asks_to_undo(client, result.run_id, result.target), bold=True),
                _line(undo_change(result), colour=UNDO_COLOUR, bold=True)]
        rows += [_line(paragraph) for paragraph in
                 undo_question(words, result.before).split("\n\n")]
        self._show(rows)

    def clear_question(self) -> None:
        self.clear()
        self.hide()

    def _show(self, rows: list[str]) -> None:
        self.setHtml("".join(rows))
        self.show()


def _line(text: str, *, colour: str = "#24292f", bold: bool = False) -> str:
    weight = "bold" if bold else "normal"
    return (f'<div style="color:{colour}; font-weight:{weight};">'
            f"{html.escape(text)}</div>")
