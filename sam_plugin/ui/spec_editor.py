"""The analyst edits the spec at Review (docs/ui.md "Editing the spec"): ``editSpecButton``
opens the same spec as typed fields (``specForm``) and as JSON (``specJsonEdit``), kept in
step; every change is read by the same reader as a model's answer, and its problems are shown
on their fields. Confirm hands the edited spec to ``RunController.edit_spec`` (read and
reviewed against the part again, kept as the analyst's version); a spec it refuses stays in
the editor with its problems, and nothing is confirmed. Discard restores the standing spec.

The dock wires this widget's signals and calls :meth:`SpecEditor.adopt` before it confirms.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from sam_plugin.compilers.spec.ir import Spec
from sam_plugin.compilers.spec.reading import json_object_of
from sam_plugin.compilers.spec.vocabulary import Vocabulary
from sam_plugin.errors import SpecRejected
from sam_plugin.runtime.run.typed_spec import check_typed_spec
from sam_plugin.ui.dock_model import DockController
from sam_plugin.ui.fitting import breakable, vertical_scroll, wrap_in_width
from sam_plugin.ui.i18n import tr
from sam_plugin.ui.spec_draft import json_text, place_problems, problems_of, unshowable
from sam_plugin.ui.spec_form import SpecForm
from sam_plugin.ui.value_fields import PROBLEM_STYLE

FORM_TAB, JSON_TAB = 0, 1


@dataclass(frozen=True)
class Adoption:
    """What became of an open edit at Confirm: ``refused`` (the status words: nothing was
    confirmed), or ``adopted`` (``edit_spec`` made it the spec in review), or neither (the
    spec was not changed: it is confirmed as it stands)."""

    refused: str = ""
    adopted: bool = False


class SpecEditor(QWidget):
    """``specEditor``: the form and the JSON of the spec in review, their problems, Discard;
    ``edit_button`` (``editSpecButton``) opens it beside the spec view."""

    editingChanged = Signal(bool)  # noqa: N815 (Qt naming)

    def __init__(self, view: QPlainTextEdit) -> None:
        super().__init__()
        self.setObjectName("specEditor")
        self.view = view
        self.vocabulary: Vocabulary | None = None
        self._original: dict[str, Any] = {}
        self._document: dict[str, Any] | None = None  # None: the JSON does not parse
        self._problems: list[str] = []  # the reader's (or the JSON's), of what is shown
        self._unreadable: dict[str, str] = {}  # typed text no JSON value stands for, by path
        self._syncing = False
        self.edit_button = QPushButton(tr("Edit the spec"))
        self.edit_button.setObjectName("editSpecButton")
        self.edit_button.setToolTip(tr("Change the steps yourself, as fields or as JSON; "
                                       "Confirm reads and reviews your spec, then plans it"))
        self.edit_button.hide()
        self.edit_button.clicked.connect(self._on_edit_clicked)
        self.form = SpecForm()
        # what is picked in the viewport now (the dock's): each scope offers it
        self.pick_source: Callable[[], Any] | None = None
        self.units_source: Callable[[], Any] | None = None  # the unit system the labels say
        self.form.edited.connect(self._on_form_edited)
        self.json_edit = QPlainTextEdit()
        self.json_edit.setObjectName("specJsonEdit")
        self.json_edit.textChanged.connect(self._on_json_edited)
        self.tabs = QTabWidget()
        self.tabs.setObjectName("specEditTabs")
        self.tabs.addTab(vertical_scroll(self.form, "specFormScroll", minimum_height=120),
                         tr("Fields"))
        self.tabs.addTab(self.json_edit, tr("JSON"))
        self.tabs.currentChanged.connect(self._show_problem_list)
        self.form_note = wrap_in_width(QLabel())  # the JSON holds what the form cannot show
        self.form_note.setObjectName("specFormNote")
        self.form_note.setStyleSheet(PROBLEM_STYLE)
        self.form_note.hide()
        self.problem_list = wrap_in_width(QLabel())
        self.problem_list.setObjectName("specEditProblems")
        self.problem_list.setStyleSheet(PROBLEM_STYLE)
        self.problem_list.hide()
        self.discard_button = QPushButton(tr("Discard the edit"))
        self.discard_button.setObjectName("discardEditButton")
        self.discard_button.setToolTip(tr("Back to the spec as it stands; nothing you typed "
                                          "is kept"))
        self.discard_button.clicked.connect(self.close_editor)
        hint = wrap_in_width(QLabel(tr("Edit the steps: each field is checked as you type. "
                                       "Confirm reads and reviews the edited spec against the "
                                       "part, then plans it.")))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(hint)
        layout.addWidget(self.form_note)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(self.problem_list)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.discard_button)
        layout.addLayout(row)
        self._spec: Spec | None = None
        self.hide()

    # -- opening and closing ----------------------------------------------------------------
    def offer(self, spec: Spec | None, vocabulary: Vocabulary | None) -> None:
        """In Review: ``editSpecButton`` offers this spec of this vocabulary (``None``: no
        spec waits, the button and the editor go)."""
        available = spec is not None and vocabulary is not None
        self._spec, self.vocabulary = spec, vocabulary
        self.edit_button.setVisible(available)
        self.edit_button.setEnabled(available and not self.is_open)
        if not available:
            self.close_editor()

    @property
    def is_open(self) -> bool:
        return not self.isHidden()

    def _on_edit_clicked(self, *args: Any) -> None:
        if self._spec is not None and self.vocabulary is not None:
            self.open_editor(self._spec, self.vocabulary)

    def open_editor(self, spec: Spec, vocabulary: Vocabulary) -> None:
        """The standing spec in the fields and the JSON, in place of the spec view."""
        self.form.pick = self.pick_source() if self.pick_source is not None else None
        self.form.units = self.units_source() if self.units_source is not None else None
        self.vocabulary = vocabulary
        self._original = spec.as_json()
        self._show_document(self._original, from_json=False)
        self.tabs.setCurrentIndex(FORM_TAB)
        self.view.hide()
        self.show()
        self.edit_button.setEnabled(False)
        self.editingChanged.emit(True)

    def close_editor(self) -> None:
        """Back to the spec view (Discard, Cancel, or the edit was adopted)."""
        if not self.is_open:
            return
        self.hide()
        self.view.show()
        self.edit_button.setEnabled(self._spec is not None)
        self.editingChanged.emit(False)

    # -- keeping the form and the JSON in step ---------------------------------------------
    def _show_document(self, document: dict[str, Any], *, from_json: bool) -> None:
        assert self.vocabulary is not None
        self._syncing = True
        try:
            reason = unshowable(document, self.vocabulary)
            if not reason:
                self.form.load(document, self.vocabulary)
            self.form.setEnabled(not reason)
            self.form_note.setText(breakable(tr("The fields cannot show this spec ({reason}): "
                                                "correct it in JSON").format(reason=reason))
                                   if reason else "")
            self.form_note.setVisible(bool(reason))
            if not from_json:
                self.json_edit.setPlainText(json_text(document))
        finally:
            self._syncing = False
        self._unreadable = {}
        self._check(document)

    def _on_form_edited(self) -> None:
        if self._syncing:
            return
        document, unreadable = self.form.document()
        self._syncing = True
        try:
            self.json_edit.setPlainText(json_text(document))
        finally:
            self._syncing = False
        self._unreadable = unreadable
        self._check(document)

    def _on_json_edited(self) -> None:
        if self._syncing or self.vocabulary is None:
            return
        text = self.json_edit.toPlainText()
        try:
            check_typed_spec(text)  # the strict reader first: nesting, surrogates, a refusal
            document = json_object_of(text)
            if isinstance(document, dict):
                check_typed_spec(document)
        except SpecRejected as rejected:
            self._document, self._problems = None, list(rejected.problems)
            self._show_problem_list()
            return
        if not isinstance(document, dict):
            self._document, self._problems = None, [tr("the spec is one JSON object")]
            self._show_problem_list()
            return
        self._show_document(document, from_json=True)

    def _check(self, document: dict[str, Any]) -> None:
        assert self.vocabulary is not None
        self._document = document
        self.show_problems(problems_of(document, self.vocabulary))

    def show_problems(self, problems: Sequence[str]) -> None:
        """The reader's problems on their fields (what typed text cannot stand for first),
        the rest under the tabs."""
        self._problems = list(problems)
        placement = place_problems(self._problems, self._shown_paths())
        on_fields = dict(placement.on_fields)
        for path, words in self._unreadable.items():
            on_fields[path] = [words]
        self.form.show_problems(on_fields)
        self._show_problem_list()

    def _show_problem_list(self, *args: Any) -> None:
        """Under the tabs: every problem while the JSON is shown, else those no field holds."""
        if self._document is None or self.tabs.currentIndex() == JSON_TAB:
            listed = self.problems()
        else:
            listed = place_problems(self._problems, self._shown_paths()).elsewhere
        self.problem_list.setText(breakable("\n".join(f"• {p}" for p in listed)))
        self.problem_list.setVisible(bool(listed))

    def _shown_paths(self) -> Collection[str]:
        """The fields' paths, while they show the spec edited (not one the JSON holds and
        they cannot show)."""
        return self.form.paths().keys() if self.form.isEnabled() else ()

    def problems(self) -> list[str]:
        """What keeps the edit from being confirmed: typed text that stands for no value, then
        the reader's problems."""
        typed = [f"{path}: {words}" for path, words in self._unreadable.items()]
        return typed + self._problems

    def document(self) -> dict[str, Any] | None:
        """The edited spec, as the reader reads it (``None``: the JSON does not parse)."""
        return self._document

    # -- confirming ---------------------------------------------------------------------------
    def adopt(self, controller: DockController) -> Adoption:
        """Before Confirm: the edited spec becomes the spec in review (``edit_spec``), and the
        editor closes; a spec with problems, or one ``edit_spec`` refuses, stays in the editor
        with its problems shown, and nothing is confirmed."""
        if not self.is_open:
            return Adoption()
        document = self._document
        if document is None or self.problems():
            return Adoption(refused=self._not_confirmed(len(self.problems())))
        adopted = document != self._original
        if adopted:
            try:
                controller.edit_spec(document)
            except SpecRejected as rejected:
                self.show_problems(rejected.problems)
                return Adoption(refused=self._not_confirmed(len(rejected.problems)))
        self._spec = controller.spec
        self.close_editor()
        return Adoption(adopted=adopted)

    @staticmethod
    def _not_confirmed(count: int) -> str:
        return tr("Review — the edited spec has {count} problem(s), shown on its fields; "
                  "nothing was confirmed: correct them, or Discard the edit").format(
            count=count)
