"""The plan view (objectName ``planView``): what will run, destructive lines and warnings first.

Rendered from ``Plan.lines()`` as coloured HTML (every text escaped: model-chosen names reach
this view); destructive lines red, warnings amber, the rest plain.
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtWidgets import QTextBrowser

LINE_COLOURS = {"destructive": "#cf222e", "warning": "#9a6700", "note": "#57606a",
                "state": "#24292f", "call": "#24292f", "operation": "#24292f",
                "step": "#1a7f37"}  # a call against the step it carries out
BOLD_KINDS = frozenset({"destructive", "warning", "call"})


class PlanView(QTextBrowser):
    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("planView")
        self.setOpenLinks(False)
        self.plan: Any = None
        self.hide()

    def show_plan(self, plan: Any) -> None:
        self.plan = plan
        rows = []
        for kind, text in plan.lines():
            weight = "bold" if kind in BOLD_KINDS else "normal"
            colour = LINE_COLOURS.get(kind, "#24292f")
            rows.append(f'<div style="color:{colour}; font-weight:{weight}; '
                        f'white-space:pre-wrap;">{html.escape(text)}</div>')
        self.setHtml("".join(rows))
        self.show()

    def clear_plan(self) -> None:
        self.plan = None
        self.clear()
        self.hide()

    def line_colours(self) -> dict[str, str]:
        """Text of each plan line -> its colour (for tests and accessibility checks)."""
        if self.plan is None:
            return {}
        return {text: LINE_COLOURS.get(kind, "#24292f") for kind, text in self.plan.lines()}
