"""The plan view (objectName ``planView``): what will run, destructive lines and warnings first.

The plan in the analyst's words and language (``plan_text.worded_lines``), as coloured HTML
(every text escaped: model-chosen names reach this view); destructive lines red, warnings
amber, the rest plain. The raw plan, as the compilers wrote it for ``plan.json`` (with the
script's SHA-256), is one click away: the link under the plan.
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import QUrl
from PySide6.QtWidgets import QTextBrowser

from sam_plugin.ui.i18n import tr
from sam_plugin.ui.plan_text import worded_lines

LINE_COLOURS = {"destructive": "#cf222e", "warning": "#9a6700", "note": "#57606a",
                "state": "#24292f", "call": "#24292f", "operation": "#24292f",
                "step": "#1a7f37"}  # a call against the step it carries out
BOLD_KINDS = frozenset({"destructive", "warning", "call"})
RAW_LINK = "sam-agent:raw-plan"
WORDS_LINK = "sam-agent:plan-in-words"


class PlanView(QTextBrowser):
    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("planView")
        self.setOpenLinks(False)
        self.anchorClicked.connect(self._on_link)
        self.plan: Any = None
        self.raw_text = ""  # what the raw view shows (plan.json's lines, or the file itself)
        self.showing_raw = False
        self.hide()

    def show_plan(self, plan: Any, raw_text: str | None = None) -> None:
        """Show ``plan`` in words; ``raw_text`` is its raw form (default: ``plan.text()``)."""
        self.plan = plan
        self.raw_text = raw_text if raw_text is not None else plan.text()
        self._render(raw=False)
        self.show()

    def clear_plan(self) -> None:
        self.plan = None
        self.raw_text = ""
        self.showing_raw = False
        self.clear()
        self.hide()

    def show_raw(self, raw: bool) -> None:
        """The plan as the compilers wrote it (``True``) or in words."""
        if self.plan is not None:
            self._render(raw=raw)

    def lines(self) -> list[tuple[str, str]]:
        """(kind, text) of the worded plan (for tests and accessibility checks)."""
        return worded_lines(self.plan) if self.plan is not None else []

    def line_colours(self) -> dict[str, str]:
        """Text of each worded plan line -> its colour."""
        return {text: LINE_COLOURS.get(kind, "#24292f") for kind, text in self.lines()}

    def _render(self, raw: bool) -> None:
        self.showing_raw = raw
        if raw:
            body = (f'<pre style="white-space:pre-wrap;">{html.escape(self.raw_text)}</pre>')
            link = (WORDS_LINK, tr("Show the plan in words"))
        else:
            rows = []
            for kind, text in self.lines():
                weight = "bold" if kind in BOLD_KINDS else "normal"
                colour = LINE_COLOURS.get(kind, "#24292f")
                # an indented line wraps under its own start, not under the margin
                indent = 1.2 if text.startswith(" ") else 0.0
                rows.append(f'<div style="color:{colour}; font-weight:{weight}; '
                            f'margin-left:{indent}em;">{html.escape(text.strip())}</div>')
            body = "".join(rows)
            link = (RAW_LINK, tr("Show the raw plan (as in plan.json, with its hash)"))
        self.setHtml(f'{body}<p><a href="{link[0]}"><small>{html.escape(link[1])}</small></a></p>')

    def _on_link(self, url: QUrl) -> None:
        self.show_raw(url.toString() == RAW_LINK)
