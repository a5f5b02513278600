"""What goes with the spec at Review (docs/architecture.md §4 "The spec"): its raw JSON one
click away, where it disagrees with the part as observed now, and what Ask for changes
changed, as a list of fields.

The spec view shows the spec in words (the rendering the analyst confirms); the JSON button
shows the same spec as data (``spec.json``), and back.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from PySide6.QtWidgets import QLabel, QPlainTextEdit, QToolButton

from sam_plugin.ui.i18n import tr

WARNING_STYLE = "color:#8a5a00;"


class SpecExtras:
    """``specJsonButton`` and ``specNotes`` beside ``specView``."""

    def __init__(self, view: QPlainTextEdit) -> None:
        self.view = view
        self.json_button = QToolButton()
        self.json_button.setObjectName("specJsonButton")
        self.json_button.setText(tr("JSON"))
        self.json_button.setCheckable(True)
        self.json_button.setToolTip(tr("Show the spec as data (spec.json), exactly as "
                                       "confirmed; click again for the words"))
        self.json_button.hide()
        self.notes = QLabel()
        self.notes.setObjectName("specNotes")
        self.notes.setWordWrap(True)
        self.notes.hide()
        self.json_button.toggled.connect(self._on_toggled)
        self._words = ""
        self._json = ""

    def refresh_words(self, controller: Any) -> None:
        """The spec's words and JSON again, its notes kept (the plan may state counts an
        edit left out: docs/ui.md "Editing the spec")."""
        spec = getattr(controller, "spec", None)
        words = str(getattr(controller, "spec_text", "") or "")
        data = json.dumps(spec.as_json(), ensure_ascii=False, indent=2) if spec else ""
        if (words, data) != (self._words, self._json):
            self._words, self._json = words, data
            self._fill()

    def show_spec(self, controller: Any, *, revised: bool = False,
                  notes: Sequence[str] = ()) -> None:
        """The controller's spec in the view (words, or JSON when the button is down), its
        warnings at Review and, after Ask for changes, the changed fields."""
        spec = getattr(controller, "spec", None)
        self._words = str(getattr(controller, "spec_text", "") or "")
        self._json = json.dumps(spec.as_json(), ensure_ascii=False, indent=2) if spec else ""
        self.json_button.setVisible(bool(self._json))
        if not self._json:
            self.json_button.setChecked(False)
        self._fill()
        lines = [tr("Warning: {warning}").format(warning=w)
                 for w in getattr(controller, "review_warnings", []) or []]
        language = str(getattr(controller, "language", "en") or "en")
        lines += [tr("Repaired: {words}").format(words=r.words(language))
                  for r in getattr(controller, "design_repairs", []) or []]
        lines += [tr("Warning: {warning}").format(warning=note) for note in notes]
        if revised:
            changes: Sequence[Any] = getattr(controller, "spec_changes", []) or []
            if changes:
                lines.append(tr("Changed since the last version:"))
                lines += [f"• {change.words}" for change in changes]
            else:
                lines.append(tr("Nothing changed: the model answered with the same spec"))
        self.notes.setText("\n".join(lines))
        self.notes.setStyleSheet(WARNING_STYLE if getattr(controller, "review_warnings", None)
                                 or notes else "")
        self.notes.setVisible(bool(lines))

    def clear(self) -> None:
        self._words = self._json = ""
        self.json_button.setChecked(False)
        self.json_button.hide()
        self.notes.clear()
        self.notes.hide()

    def _on_toggled(self, _checked: bool) -> None:
        if self._words or self._json:
            self._fill()

    def _fill(self) -> None:
        showing_json = self.json_button.isChecked() and bool(self._json)
        self.view.setPlainText(self._json if showing_json else self._words)
        self.json_button.setText(tr("Words") if showing_json else tr("JSON"))
