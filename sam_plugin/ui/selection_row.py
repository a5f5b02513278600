"""The dock's selection row under the request (objectNames ``selectionLabel``,
``selectionCheck``): what is picked in the viewport on the target part, and whether the
request acts on it (docs/ui.md "Picking"). Hidden while nothing is picked or the host cannot
pick."""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QWidget

from sam_plugin.compilers.spec.values import label_words
from sam_plugin.runtime.selection import MAX_SELECTED, Selection
from sam_plugin.ui.i18n import tr

LABEL_WORDS_MAX = 48  # characters of label ranges; a scattered pick says the rest with …


def selection_words(selection: Selection) -> str:
    """``Selection: 12 elements (labels 3–14)`` (and its Chinese)."""
    shown = label_words(selection.labels).replace("-", "–")
    if len(shown) > LABEL_WORDS_MAX:
        shown = shown[:LABEL_WORDS_MAX].rsplit(",", 1)[0] + ", …"
    if selection.kind == "nodes":
        text = (tr("Selection: 1 node (label {labels})") if selection.count == 1
                else tr("Selection: {count} nodes (labels {labels})"))
    else:
        text = (tr("Selection: 1 element (label {labels})") if selection.count == 1
                else tr("Selection: {count} elements (labels {labels})"))
    return text.format(count=selection.count, labels=shown)


class SelectionRow(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("selectionRow")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.label = QLabel()
        self.label.setObjectName("selectionLabel")
        self.label.setWordWrap(True)
        self.check = QCheckBox(tr("Act on it"))
        self.check.setObjectName("selectionCheck")
        self.check.setToolTip(tr("The request acts on the picked entities: each step's scope "
                                 "is their labels. Uncheck to ignore the selection."))
        layout.addWidget(self.label, 1)
        layout.addWidget(self.check)
        self.selection: Selection | None = None
        self._locked = False
        self.hide()

    def show_selection(self, selection: Selection | None) -> None:
        """What is picked now on the target part (None: nothing); a new pick is acted on."""
        if selection == self.selection:
            return
        self.selection = selection
        if selection is None:
            self.hide()
            return
        words = selection_words(selection)
        if selection.too_large:
            words += " — " + tr("too many to act on (at most {limit}); make a set of them "
                                "and name the set").format(limit=MAX_SELECTED)
        self.label.setText(words)
        self.check.setEnabled(not selection.too_large and not self._locked)
        self.check.setChecked(not selection.too_large)
        self.show()

    def set_locked(self, locked: bool) -> None:
        """While a run holds its frozen selection, the choice waits too."""
        self._locked = locked
        self.check.setEnabled(not locked and self.selection is not None
                              and not self.selection.too_large)

    def chosen(self) -> Selection | None:
        """The selection the next request acts on, or None."""
        selection = self.selection
        if selection is None or selection.too_large or not self.check.isChecked():
            return None
        return selection
