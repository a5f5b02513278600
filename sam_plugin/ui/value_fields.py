"""One value of the spec as a field of the form (docs/ui.md "Editing the spec"): its editor by
the value's kind and, under it, what the spec reader says of it.

Numbers, names, names and label lists (``1-5, 9``) and points (``(0, 0, 0); (60, 0, 0)``) are
typed in a line; long lists (patches, lines, elements by their corners) as JSON in a small
box; a vector is three fields; a shape, a choice or yes/no a combo (``(not stated)`` first, so
that nothing is chosen for the analyst); a list of choices a box each; a record (a beam
profile, the expected results) and a step's scope are fields of their own. Every field
carries the JSON path the reader names (``steps[0].values.vector``), and its widgets the
objectName ``specField:<path>``. What the text is read as: ``ui/field_text.py``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from sam_plugin.compilers import schema_common as sc
from sam_plugin.compilers.spec.values import ValueDef
from sam_plugin.compilers.units import UnitSystem
from sam_plugin.ui.field_text import (
    ABSENT,
    JSON_KINDS,
    Reading,
    Unreadable,
    field_text,
    read_text,
    read_vector,
    vector_texts,
)
from sam_plugin.ui.fitting import breakable, wrap_in_width
from sam_plugin.ui.i18n import tr
from sam_plugin.ui.spec_draft import SCOPE_KINDS, join

PROBLEM_STYLE = "color:#cf222e;"
JSON_FIELD_LINES = 4


def unreadable_words(unreadable: Unreadable) -> str:
    """Why a text stands for no JSON value, in the UI's language."""
    if unreadable.code == "range":
        return tr("the range {range} holds too many labels to list: name a set or a box "
                  "instead").format(range=unreadable.detail)
    if unreadable.code == "points":
        return tr("write the points as (x, y, z); (x, y, z), or as JSON [[x, y, z], …]")
    return tr("not JSON ({error}): write it as the JSON tab shows it").format(
        error=unreadable.detail)


def scope_kind_words() -> dict[str, str]:
    return {"all": tr("the whole part"), "labels": tr("by labels"), "set": tr("a set"),
            "shape": tr("by shape"), "box": tr("in a box")}


def not_stated() -> str:
    return tr("(not stated)")


def field_name(path: str) -> str:
    return f"specField:{path}"


def narrow_combo() -> QComboBox:
    """A combo as wide as the form gives it: its longest item never widens the dock."""
    combo = QComboBox()
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(8)
    return combo


# -- one value ----------------------------------------------------------------------------------


class Field(QWidget):
    """One value of the spec: its editor and, under it, what the reader says of it."""

    changed = Signal()

    def __init__(self, path: str) -> None:
        super().__init__()
        self.path = path
        self.setObjectName(f"specValue:{path}")
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setSpacing(1)
        self.problem = wrap_in_width(QLabel())
        self.problem.setObjectName(f"specProblem:{path}")
        self.problem.setStyleSheet(PROBLEM_STYLE)
        self.problem.hide()

    def _finish(self, editor: QWidget | QHBoxLayout | QFormLayout) -> None:
        if isinstance(editor, QWidget):
            self._layout.addWidget(editor)
        else:
            self._layout.addLayout(editor)
        self._layout.addWidget(self.problem)

    def reading(self) -> Reading:
        raise NotImplementedError

    def set_value(self, value: Any) -> None:
        raise NotImplementedError

    def fields(self) -> Iterator[Field]:
        """This field and the fields inside it (a record's, a scope's)."""
        yield self

    def unreadable(self) -> Unreadable | None:
        return None

    def show_problems(self, words: Sequence[str]) -> None:
        self.problem.setText(breakable("\n".join(words)))
        self.problem.setVisible(bool(words))

    def _changed(self, *args: Any) -> None:
        self.changed.emit()


class Note(Field):
    """What the reader says of a whole (a step, the steps), with no value of its own."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self._layout.addWidget(self.problem)

    def reading(self) -> Reading:
        return Reading(ABSENT)

    def set_value(self, value: Any) -> None:
        return None


class TextField(Field):
    """Typed text: a number, a name, names, labels, numbers, points; JSON for long lists."""

    def __init__(self, path: str, kind: str, placeholder: str = "") -> None:
        super().__init__(path)
        self.kind = kind
        self.editor: QLineEdit | QPlainTextEdit
        if kind in JSON_KINDS:
            box = QPlainTextEdit()
            box.setFixedHeight(box.fontMetrics().lineSpacing() * JSON_FIELD_LINES + 12)
            box.setPlaceholderText(placeholder)
            box.textChanged.connect(self._changed)
            self.editor = box
        else:
            line = QLineEdit()
            line.setPlaceholderText(placeholder)
            line.textChanged.connect(self._changed)
            self.editor = line
        self.editor.setObjectName(field_name(path))
        self._finish(self.editor)

    def text(self) -> str:
        editor = self.editor
        return editor.toPlainText() if isinstance(editor, QPlainTextEdit) else editor.text()

    def reading(self) -> Reading:
        return read_text(self.kind, self.text())

    def unreadable(self) -> Unreadable | None:
        return self.reading().unreadable

    def set_value(self, value: Any) -> None:
        text = field_text(self.kind, value)
        if isinstance(self.editor, QPlainTextEdit):
            self.editor.setPlainText(text)
        else:
            self.editor.setText(text)
            self.editor.setCursorPosition(0)


class VectorField(Field):
    """[x, y, z] as three fields (``specField:<path>[0]`` … ``[2]``)."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        row = QHBoxLayout()
        self.parts: list[QLineEdit] = []
        for index, axis in enumerate("xyz"):
            line = QLineEdit()
            line.setObjectName(field_name(join(path, index)))
            line.setPlaceholderText(axis)
            line.textChanged.connect(self._changed)
            row.addWidget(line)
            self.parts.append(line)
        self._finish(row)

    def reading(self) -> Reading:
        return read_vector([p.text() for p in self.parts])

    def set_value(self, value: Any) -> None:
        for line, text in zip(self.parts, vector_texts(value), strict=True):
            line.setText(text)


class ComboField(Field):
    """One of a few values (a shape, a choice, yes/no), or ``(not stated)``: a required one
    too, so that nothing is chosen for the analyst (the reader says it is required)."""

    def __init__(self, path: str, items: Sequence[tuple[str, Any]]) -> None:
        super().__init__(path)
        self.combo = narrow_combo()
        self.combo.setObjectName(field_name(path))
        self.combo.addItem(not_stated(), None)
        for text, value in items:
            self.combo.addItem(text, value)
        self.combo.currentIndexChanged.connect(self._changed)
        self._finish(self.combo)

    def reading(self) -> Reading:
        value = self.combo.currentData()
        return Reading(ABSENT if value is None else value)

    def set_value(self, value: Any) -> None:
        if value is ABSENT or value is None:
            self.combo.setCurrentIndex(0)
            return
        for index in range(1, self.combo.count()):
            shown = self.combo.itemData(index)
            if shown == value and type(shown) is type(value):
                self.combo.setCurrentIndex(index)
                return
        self.combo.addItem(str(value), value)  # a value the JSON holds: the reader names it
        self.combo.setCurrentIndex(self.combo.count() - 1)


class ChoicesField(Field):
    """Several of a few values (the audit's checks): one box each; none ticked, not stated."""

    def __init__(self, path: str, items: Sequence[tuple[str, str]]) -> None:
        super().__init__(path)
        grid = QGridLayout()
        self.boxes: dict[str, QCheckBox] = {}
        for index, (text, value) in enumerate(items):
            box = QCheckBox(text)
            box.setObjectName(f"{field_name(path)}:{value}")
            box.toggled.connect(self._changed)
            grid.addWidget(box, index // 2, index % 2)
            self.boxes[value] = box
        holder = QWidget()
        holder.setLayout(grid)
        grid.setContentsMargins(0, 0, 0, 0)
        self._finish(holder)

    def reading(self) -> Reading:
        chosen = [value for value, box in self.boxes.items() if box.isChecked()]
        return Reading(chosen or ABSENT)

    def set_value(self, value: Any) -> None:
        chosen = set(value) if isinstance(value, list) else set()
        for key, box in self.boxes.items():
            box.setChecked(key in chosen)


class RecordField(Field):
    """A record's fields (a beam profile, the expected results), each by its kind."""

    def __init__(self, path: str, fields: Mapping[str, ValueDef], required: Sequence[str],
                 language: str) -> None:
        super().__init__(path)
        form = QFormLayout()
        form.setContentsMargins(8, 0, 0, 0)
        self.members: dict[str, Field] = {}
        for key, value_def in fields.items():
            member = make_field(value_def, join(path, key), key in required, language)
            member.changed.connect(self._changed)
            form.addRow(value_label(key, value_def, key in required), member)
            self.members[key] = member
        self._finish(form)

    def reading(self) -> Reading:
        given = {key: m.reading().value for key, m in self.members.items()}
        record = {key: value for key, value in given.items() if value is not ABSENT}
        return Reading(record or ABSENT)

    def set_value(self, value: Any) -> None:
        given = value if isinstance(value, Mapping) else {}
        for key, member in self.members.items():
            member.set_value(given.get(key, ABSENT))

    def fields(self) -> Iterator[Field]:
        yield self
        for member in self.members.values():
            yield from member.fields()


MEASURED_KINDS = frozenset({"number", "vector", "numbers", "points"})  # values with a unit
PICKED = "picked"  # the scope kind offered for the viewport's pick (labels from it)


class ScopeField(Field):
    """The entities a step acts on: the whole part, labels, a set, a shape or a box (its
    corners labelled with ``length_unit``, ``min (mm)``, when it is known)."""

    def __init__(self, path: str, length_unit: str = "") -> None:
        super().__init__(path)
        self._picked: list[int] = []
        self.kind = narrow_combo()
        self.kind.setObjectName(field_name(join(path, "by")))
        self.kind.addItem(not_stated(), None)
        for kind, words in scope_kind_words().items():
            self.kind.addItem(words, kind)
        self.by_kind: dict[str, list[Field]] = {
            "all": [],
            "labels": [TextField(join(path, "labels"), "labels", tr("e.g. 1-5, 9"))],
            "set": [TextField(join(path, "name"), "name", tr("the set's name"))],
            "shape": [ComboField(join(path, "shape"), [(s, s) for s in sc.SHAPE_VALUES])],
            "box": [VectorField(join(path, "min")), VectorField(join(path, "max"))],
        }
        self.column = QFormLayout()
        self.column.setContentsMargins(0, 0, 0, 0)
        self.column.addRow(self.kind)
        for kind, members in self.by_kind.items():
            for member in members:
                if kind == "box":
                    corner = member.path.rsplit(".", 1)[1]
                    said = tr("min") if corner == "min" else tr("max")
                    self.column.addRow(QLabel(f"{said} ({length_unit})" if length_unit
                                              else said), member)
                else:
                    self.column.addRow(member)
                member.changed.connect(self._changed)
        self.kind.currentIndexChanged.connect(self._kind_chosen)
        self._finish(self.column)
        self._show_kind()

    def offer_pick(self, labels: Sequence[int], words: str) -> None:
        """Offer the viewport's pick as a scope: choosing it fills the labels from it."""
        self._picked = list(labels)
        index = self.kind.findData(PICKED)
        if index >= 0:
            self.kind.removeItem(index)
        if labels:
            self.kind.insertItem(1, words, PICKED)

    def _kind_chosen(self, *args: Any) -> None:
        if self.kind.currentData() == PICKED:  # the pick, as the labels it names
            self.by_kind["labels"][0].set_value(list(self._picked))
            self.kind.setCurrentIndex(self.kind.findData("labels"))
            return  # the index change comes back here as "labels"
        self._show_kind()
        self.changed.emit()

    def show_problems(self, words: Sequence[str]) -> None:
        """A kind chosen with a part of it left empty gets a sentence saying what to fill in,
        not the reader's list of every selector."""
        missing = self._missing()
        super().show_problems([missing] if missing and words else words)

    def _missing(self) -> str:
        kind = self.kind.currentData()
        if kind not in self.by_kind or not any(
                m.reading().value is ABSENT for m in self.by_kind[kind]):
            return ""
        return {"labels": tr("Fill in the labels to act on, e.g. 1-5, 9."),
                "set": tr("Fill in the name of the set to act on."),
                "box": tr("Fill in both corners of the box: min and max, each x, y, z."),
                }.get(kind, "")

    def _show_kind(self) -> None:
        chosen = self.kind.currentData()
        for kind, members in self.by_kind.items():
            for member in members:
                self.column.setRowVisible(member, kind == chosen)

    def reading(self) -> Reading:
        kind = self.kind.currentData()
        if kind is None:
            return Reading(ABSENT)
        if kind == PICKED:  # read while the pick is turned into its labels
            kind = "labels"
        scope: dict[str, Any] = {"by": kind}
        for member in self.by_kind[kind]:
            value = member.reading().value
            if value is not ABSENT:
                scope[member.path.rsplit(".", 1)[1]] = value
        return Reading(scope)

    def set_value(self, value: Any) -> None:
        scope = value if isinstance(value, Mapping) else {}
        kind = scope.get("by")
        index = self.kind.findData(kind) if kind in SCOPE_KINDS else 0
        self.kind.setCurrentIndex(max(index, 0))
        for members in self.by_kind.values():
            for member in members:
                member.set_value(scope.get(member.path.rsplit(".", 1)[1], ABSENT))
        self._show_kind()

    def fields(self) -> Iterator[Field]:
        yield self
        for members in self.by_kind.values():
            yield from members


def _choice_items(value_def: ValueDef, language: str) -> list[tuple[str, Any]]:
    return [(words[1] if language == "zh" else words[0], value)
            for value, words in value_def.choice_words.items()]


def make_field(value_def: ValueDef, path: str, required: bool, language: str) -> Field:
    """The field for one value of ``value_def``'s kind."""
    kind = value_def.kind
    if kind == "vector":
        return VectorField(path)
    if kind == "bool":
        true_en, false_en, true_zh, false_zh = value_def.flag_words
        words = (true_zh, false_zh) if language == "zh" else (true_en, false_en)
        return ComboField(path, [(words[0], True), (words[1], False)])
    if kind == "choice":
        return ComboField(path, _choice_items(value_def, language))
    if kind == "choices":
        return ChoicesField(path, _choice_items(value_def, language))
    if kind == "record":
        inner = value_def.schema.get("required", ())
        return RecordField(path, value_def.fields, tuple(inner), language)
    return TextField(path, kind, _placeholder(kind))


def _placeholder(kind: str) -> str:
    return {"labels": tr("e.g. 1-5, 9"), "points": tr("(x, y, z); (x, y, z)"),
            "names": tr("names, separated by commas"),
            "numbers": tr("numbers, separated by commas"),
            "integers": tr("numbers, separated by commas"),
            "records": tr("a JSON list, one item a line"),
            "count_or_records": tr("a count, or a JSON list")}.get(kind, "")


def value_label(key: str, value_def: ValueDef | None, required: bool,
                units: UnitSystem | None = None) -> QLabel:
    """A value's key as the JSON names it, with its unit when it measures something
    (``vector (mm)``; ``*``: the action requires it); its description on hover."""
    unit = units.unit(value_def.quantity) if units is not None and value_def is not None \
        and value_def.kind in MEASURED_KINDS else ""
    shown = f"{key} ({unit})" if unit else key
    label = QLabel(f"{shown} *" if required else shown)
    description = value_def.schema.get("description", "") if value_def is not None else ""
    label.setToolTip(str(description))
    return label
