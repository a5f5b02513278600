"""The offline host's model tree: models → parts, with node and element counts."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QTreeWidget, QTreeWidgetItem, QWidget

PART_ROLE = Qt.ItemDataRole.UserRole + 1


class ModelTree(QTreeWidget):
    """Lists every model of ``mdb`` and its parts; a click displays a part (as in SAM's
    model tree; a double-click too)."""

    partActivated = Signal(str, str)  # noqa: N815 (Qt signal naming): model name, part name

    def __init__(self, parent: QWidget | None = None, words: Any = None) -> None:
        super().__init__(parent)
        self.setObjectName("modelTree")
        self.setColumnCount(3)
        say = words or (lambda text: text)
        self.setHeaderLabels([say("Model / part"), say("Nodes"), say("Elements")])
        self.itemClicked.connect(self._on_double_click)
        self.itemDoubleClicked.connect(self._on_double_click)

    def refresh(self, mdb: Any) -> None:
        """Rebuild from the live database (cheap: counts are ``len`` of the arrays)."""
        self.clear()
        for model_name in mdb.models.keys():
            model = mdb.models[model_name]
            model_item = QTreeWidgetItem(self, [model_name, "", ""])
            for part_name in model.parts.keys():
                part = model.parts[part_name]
                item = QTreeWidgetItem(
                    model_item, [part_name, str(len(part.nodes)), str(len(part.elements))]
                )
                item.setData(0, PART_ROLE, (model_name, part_name))
            model_item.setExpanded(True)
        for column in range(3):
            self.resizeColumnToContents(column)

    def part_rows(self) -> list[tuple[str, str, int, int]]:
        """(model, part, nodes, elements) for every part row, in display order."""
        rows = []
        for i in range(self.topLevelItemCount()):
            model_item = self.topLevelItem(i)
            for j in range(model_item.childCount()):
                child = model_item.child(j)
                rows.append((model_item.text(0), child.text(0), int(child.text(1)),
                             int(child.text(2))))
        return rows

    def _on_double_click(self, item: QTreeWidgetItem, column: int) -> None:
        data = item.data(0, PART_ROLE)
        if data:
            self.partActivated.emit(*data)
