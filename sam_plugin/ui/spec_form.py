"""``specForm``: the spec as typed fields, step by step, from the mode's vocabulary (docs/ui.md
"Editing the spec").

The summary; each step with its action (from the vocabulary), its scope where the action takes
one, each of its values by kind (``ui/value_fields.py``) and its note; Remove; a step to add
from the vocabulary; the expected results. The form holds no spec of its own:
:meth:`SpecForm.document` reads the fields, and a step added, removed or given another action
rebuilds the form from that document. The editor (``ui/spec_editor.py``) puts the reader's
problems on the fields by their JSON paths (:meth:`SpecForm.paths`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from sam_plugin.compilers.spec.vocabulary import ActionDef, Vocabulary
from sam_plugin.ui.field_text import ABSENT
from sam_plugin.ui.i18n import shown_language, tr
from sam_plugin.ui.spec_draft import (
    EXPECTED,
    join,
    new_step,
    spec_document,
    step_document,
    with_action,
)
from sam_plugin.ui.value_fields import (
    Field,
    Note,
    RecordField,
    ScopeField,
    TextField,
    field_name,
    make_field,
    narrow_combo,
    unreadable_words,
    value_label,
)

# -- one step -----------------------------------------------------------------------------------


def action_words(action: ActionDef, vocabulary: Vocabulary, language: str) -> str:
    """``translate (transform)`` / ``translate（变换）``."""
    capability = vocabulary.capability_word(action.capability,
                                            "zh" if language == "zh" else "en")
    return f"{action.name}（{capability}）" if language == "zh" else \
        f"{action.name} ({capability})"


def action_combo(vocabulary: Vocabulary, language: str, name: str) -> QComboBox:
    combo = narrow_combo()
    combo.setObjectName(name)
    for action in vocabulary.actions:
        combo.addItem(action_words(action, vocabulary, language), action.name)
        combo.setItemData(combo.count() - 1, action.description or action.en,
                          Qt.ItemDataRole.ToolTipRole)
    return combo


class StepBox(QGroupBox):
    """One step: its action, scope, values and note; Remove."""

    def __init__(self, index: int, action: ActionDef, vocabulary: Vocabulary,
                 language: str, units: Any = None) -> None:
        super().__init__(tr("Step {number}").format(number=index + 1))
        self.index, self.action = index, action
        self.path = f"steps[{index}]"
        self.setObjectName(f"specStep:{self.path}")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 2, 6, 4)
        layout.setSpacing(3)
        header = QHBoxLayout()
        self.action_combo = action_combo(vocabulary, language,
                                         field_name(join(self.path, "action")))
        self.action_combo.setCurrentIndex(self.action_combo.findData(action.name))
        self.remove_button = QPushButton(tr("Remove"))
        self.remove_button.setObjectName(f"specRemove:{self.path}")
        self.remove_button.setToolTip(tr("Remove this step from the spec"))
        header.addWidget(self.action_combo, 1)
        header.addWidget(self.remove_button)
        layout.addLayout(header)
        form = QFormLayout()
        form.setVerticalSpacing(3)
        self.scope: ScopeField | None = None
        if action.scope != "none":
            self.scope = ScopeField(join(self.path, "scope"),
                                    units.length if units is not None else "")
            form.addRow(value_label(tr("Scope"), None, action.scope == "required"), self.scope)
        self.values: dict[str, Field] = {}
        for key, value_def in action.values.items():
            member = make_field(value_def, join(self.path, f"values.{key}"),
                                key in action.required, language)
            form.addRow(value_label(key, value_def, key in action.required, units), member)
            self.values[key] = member
        self.text = TextField(join(self.path, "text"), "name", tr("a note on the step "
                                                                   "(optional)"))
        form.addRow(QLabel(tr("Note")), self.text)
        layout.addLayout(form)
        self.problem = Note(self.path)  # what the reader says of the step as a whole
        layout.addWidget(self.problem)

    def fields(self) -> Iterator[Field]:
        yield self.problem
        if self.scope is not None:
            yield from self.scope.fields()
        for member in self.values.values():
            yield from member.fields()
        yield self.text

    def load(self, step: Mapping[str, Any]) -> None:
        if self.scope is not None:
            self.scope.set_value(step.get("scope", ABSENT))
        values = step.get("values")
        given = values if isinstance(values, Mapping) else {}
        for key, member in self.values.items():
            member.set_value(given.get(key, ABSENT))
        text = step.get("text", "")
        self.text.set_value(text if isinstance(text, str) else ABSENT)

    def document(self) -> dict[str, Any]:
        scope = self.scope.reading().value if self.scope is not None else ABSENT
        values = {key: m.reading().value for key, m in self.values.items()}
        text = self.text.reading().value
        return step_document(self.action, scope if isinstance(scope, Mapping) else None,
                             {k: val for k, val in values.items() if val is not ABSENT},
                             "" if text is ABSENT else str(text))


# -- the form -----------------------------------------------------------------------------------


class SpecForm(QWidget):
    """objectName ``specForm``: the summary, the steps, a step to add, the expected results."""

    edited = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("specForm")
        self.vocabulary: Vocabulary | None = None
        self.language = "en"
        self._loading = False
        self._steps: list[StepBox] = []
        self.pick: Any = None  # the viewport's pick (a Selection) the scopes offer, or None
        self.units: Any = None  # the unit system the value labels say (the dock's), or None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        summary_row = QFormLayout()
        self.summary = TextField("summary", "name", tr("one sentence: what the change does"))
        self.summary.changed.connect(self._edited)
        summary_row.addRow(QLabel(tr("Summary")), self.summary)
        layout.addLayout(summary_row)
        self.steps_layout = QVBoxLayout()
        layout.addLayout(self.steps_layout)
        add_row = QHBoxLayout()
        self.add_combo = narrow_combo()
        self.add_combo.setObjectName("specAddAction")
        self.add_button = QPushButton(tr("Add step"))
        self.add_button.setObjectName("specAddStep")
        self.add_button.setToolTip(tr("Add a step of the chosen action at the end"))
        self.add_button.clicked.connect(self._add_step)
        add_row.addWidget(self.add_combo, 1)
        add_row.addWidget(self.add_button)
        layout.addLayout(add_row)
        self.steps_problem = Note("steps")  # the steps as a whole: none left, a route
        layout.addWidget(self.steps_problem)
        # the counts the spec expects are claims checked against the plan: folded until asked
        self.expected_toggle = QToolButton()
        self.expected_toggle.setObjectName("specExpectedToggle")
        self.expected_toggle.setText(tr("Expected results (optional)"))
        self.expected_toggle.setCheckable(True)
        self.expected_toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.expected_toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.expected_toggle.toggled.connect(self._show_expected)
        layout.addWidget(self.expected_toggle)
        self.expected_box = QWidget()
        self.expected_box.setObjectName("specExpected")
        self.expected_box.hide()
        self._expected: RecordField | None = None
        self._expected_layout = QVBoxLayout(self.expected_box)
        self._expected_layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.expected_box)
        layout.addStretch(1)

    # the fields, by the JSON path the reader names
    def paths(self) -> dict[str, Field]:
        found: dict[str, Field] = {self.summary.path: self.summary, "steps": self.steps_problem}
        for box in self._steps:
            found.update((f.path, f) for f in box.fields())
        if self._expected is not None:
            found.update((f.path, f) for f in self._expected.fields())
        return found

    def load(self, document: Mapping[str, Any], vocabulary: Vocabulary) -> None:
        """Show ``document`` (one the form can show: ``spec_draft.unshowable`` is empty)."""
        self._loading = True
        try:
            if vocabulary is not self.vocabulary:
                self.vocabulary = vocabulary
                self.language = shown_language()
                self._fill_add_combo(vocabulary)
                self._set_expected(RecordField("expected", EXPECTED.fields, (), self.language))
            summary = document.get("summary", "")
            self.summary.set_value(summary if isinstance(summary, str) else ABSENT)
            for box in self._steps:  # out of the tree now (a click of its own may be running)
                self.steps_layout.removeWidget(box)
                box.setParent(None)
                box.deleteLater()
            self._steps = []
            steps = document.get("steps", [])
            for index, step in enumerate(steps if isinstance(steps, list) else []):
                self._steps.append(self._step_box(index, step, vocabulary))
            assert self._expected is not None
            self._expected.set_value(document.get("expected", ABSENT))
        finally:
            self._loading = False

    def _fill_add_combo(self, vocabulary: Vocabulary) -> None:
        combo = action_combo(vocabulary, self.language, "specAddAction")
        self.add_combo.clear()
        for index in range(combo.count()):
            self.add_combo.addItem(combo.itemText(index), combo.itemData(index))
        combo.deleteLater()

    def _set_expected(self, record: RecordField) -> None:
        if self._expected is not None:
            self._expected_layout.removeWidget(self._expected)
            self._expected.setParent(None)
            self._expected.deleteLater()
        record.changed.connect(self._edited)
        self._expected_layout.addWidget(record)
        self._expected = record

    def _step_box(self, index: int, step: Mapping[str, Any], vocabulary: Vocabulary) -> StepBox:
        action = vocabulary.action(str(step.get("action")))
        assert action is not None  # unshowable() said the form can show it
        box = StepBox(index, action, vocabulary, self.language, self.units)
        pick = self.pick
        if box.scope is not None and pick is not None and pick.kind == action.members:
            noun = tr("nodes") if pick.kind == "nodes" else tr("elements")
            box.scope.offer_pick(pick.labels, tr("the picked selection ({count} {noun})")
                                 .format(count=pick.count, noun=noun))
        box.load(step)
        for member in box.fields():
            member.changed.connect(self._edited)
        box.action_combo.currentIndexChanged.connect(lambda _i, b=box:
                                                     self._action_chosen(b))
        box.remove_button.clicked.connect(lambda _c=False, b=box: self._remove(b))
        self.steps_layout.addWidget(box)
        return box

    def document(self) -> tuple[dict[str, Any], dict[str, str]]:
        """The spec the fields hold, and what no JSON value stands for, by path (in words)."""
        summary = self.summary.reading().value
        expected = self._expected.reading().value if self._expected is not None else ABSENT
        document = spec_document("" if summary is ABSENT else str(summary),
                                 [box.document() for box in self._steps],
                                 expected if isinstance(expected, Mapping) else None)
        unreadable = {path: unreadable_words(problem) for path, member in self.paths().items()
                      if (problem := member.unreadable()) is not None}
        return document, unreadable

    def show_problems(self, on_fields: Mapping[str, Sequence[str]]) -> None:
        for path, member in self.paths().items():
            member.show_problems(on_fields.get(path, ()))
        if any(path.startswith("expected") for path in on_fields):
            self.expected_toggle.setChecked(True)  # a problem is never folded away

    def _show_expected(self, shown: bool) -> None:
        self.expected_box.setVisible(shown)
        self.expected_toggle.setArrowType(
            Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)

    def _edited(self) -> None:
        if not self._loading:
            self.edited.emit()

    def _rebuild(self, document: dict[str, Any]) -> None:
        assert self.vocabulary is not None
        self.load(document, self.vocabulary)
        self.edited.emit()

    def _add_step(self) -> None:
        action = self.vocabulary.action(str(self.add_combo.currentData())) \
            if self.vocabulary is not None else None
        if action is None:
            return
        document, _ = self.document()
        document["steps"].append(new_step(action))
        self._rebuild(document)

    def _remove(self, box: StepBox) -> None:
        document, _ = self.document()
        del document["steps"][box.index]
        self._rebuild(document)

    def _action_chosen(self, box: StepBox) -> None:
        action = self.vocabulary.action(str(box.action_combo.currentData())) \
            if self.vocabulary is not None else None
        if self._loading or action is None or action is box.action:
            return
        document, _ = self.document()
        document["steps"][box.index] = with_action(document["steps"][box.index], action)
        self._rebuild(document)
