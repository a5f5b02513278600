"""The dock's mode and target: the model and part combos, the examples, the units, the
selection row and what the viewport shows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sam_plugin.compilers.protocol import Target
from sam_plugin.compilers.units import UnitSystem, declared_units, unit_system
from sam_plugin.runtime.run.phases import Phase
from sam_plugin.ui.dock_model import (
    DockController,
    ended,
    locked,
)
from sam_plugin.ui.i18n import tr
from sam_plugin.ui.unit_words import units_words

if TYPE_CHECKING:
    from sam_plugin.ui.dock import SamAgentDock

VIEWPORT_NAME = "Viewport: 1"


def controller_target(controller: DockController | None) -> Target:
    target = controller.target if controller is not None else None
    return target if target is not None else Target(model_name="", part_name="")


def lock_tooltip() -> str:
    return tr("Locked: the spec was written for this mode and target. Cancel the run to "
              "change them.")


class TargetSection:
    """Mode and target as the analyst picks them, and what follows from them."""

    def __init__(self, dock: SamAgentDock,
                 highlight: Callable[[str, str, list[int]], int] | None) -> None:
        self.dock = dock
        self._highlight = highlight
        self._populating = False
        self._explore_chosen = False  # the analyst's own choice wins over the size default

    def mode(self) -> str:
        return str(self.dock.mode_combo.currentData())

    def target(self) -> Target:
        dock = self.dock
        return Target(model_name=dock.model_combo.currentText().strip(),
                      part_name=dock.part_combo.currentText().strip())

    def refresh_targets(self) -> None:
        """Models and parts of the live database (L0), keeping the current choice if it exists."""
        dock = self.dock
        self._populating = True
        try:
            mdb = dock.sam.mdb
            current_model = dock.model_combo.currentText()
            models = list(mdb.models.keys())
            dock.model_combo.clear()
            dock.model_combo.addItems(models)
            if current_model in models:
                dock.model_combo.setCurrentText(current_model)
            self._fill_parts()
        finally:
            self._populating = False
        self._update_explore_default()
        self._update_unit()

    def missing_part(self) -> str:
        """Property and Mesh change an existing part: a typed name that is not there is said
        at once, before a provider is asked for a spec that cannot compile."""
        from sam_plugin.compilers.registry import get_module
        from sam_plugin.runtime.run.target_check import parts_by_model, target_problem

        dock = self.dock
        target = self.target()
        if not target.part_name:
            return ""
        try:
            problem = target_problem(parts_by_model(dock.sam.mdb), target, get_module(self.mode()))
        except Exception:  # no database open: the controller's observation says so
            return ""
        if problem is None or problem.missing == "model":  # the observation names the models
            return ""
        return tr("Not submitted — there is no part {part} in {model}; {mode} mode changes an "
                  "existing part: pick one, or build it in Part mode first").format(
            part=target.part_name, model=target.model_name, mode=dock.mode_combo.currentText())

    def on_explore_clicked(self, checked: bool) -> None:
        self._explore_chosen = True

    def _update_explore_default(self) -> None:
        """Exploration defaults to on for parts above the size threshold."""
        from sam_plugin.runtime.observe.exploration import explore_by_default

        dock = self.dock
        if self._explore_chosen:
            return
        target = self.target()
        models = dock.sam.mdb.models
        part = None
        if target.model_name in models.keys():
            parts = models[target.model_name].parts
            if target.part_name in parts.keys():
                part = parts[target.part_name]
        large = part is not None and explore_by_default(len(part.nodes), len(part.elements))
        dock.explore_check.setChecked(large)

    def _fill_parts(self) -> None:
        dock = self.dock
        current_part = dock.part_combo.currentText()
        model_name = dock.model_combo.currentText()
        models = dock.sam.mdb.models
        parts = list(models[model_name].parts.keys()) if model_name in models.keys() else []
        dock.part_combo.clear()
        dock.part_combo.addItems(parts)
        if current_part:
            dock.part_combo.setCurrentText(current_part)

    def set_target(self, mode: str, model_name: str, part_name: str) -> None:
        """Select a mode and target as the user would (triggers the drift rule in Review)."""
        dock = self.dock
        dock.mode_combo.setCurrentIndex(dock.mode_combo.findData(mode))
        dock.model_combo.setCurrentText(model_name)
        dock.part_combo.setCurrentText(part_name)

    def set_examples(self, examples: list[dict[str, str]]) -> None:
        """Bundled example requests ``{title, mode, model, part, request}`` for the picker."""
        dock = self.dock
        dock.example_combo.clear()
        dock.example_combo.addItem(tr("(choose an example request)"), None)
        for example in examples:
            dock.example_combo.addItem(example["title"], example)

    def on_example_chosen(self, index: int) -> None:
        dock = self.dock
        example = dock.example_combo.itemData(index)
        if not example or locked(dock.phase()):
            return
        self.set_target(example["mode"], example["model"], example["part"])
        dock.request_edit.setPlainText(example["request"])
        dock.run_actions.clear_run_view()

    def on_model_changed(self, index: int) -> None:
        if self._populating:
            return
        self._populating = True
        try:
            self._fill_parts()
        finally:
            self._populating = False
        self.on_target_changed()

    def on_target_changed(self, *args: Any) -> None:
        dock = self.dock
        if self._populating:
            return
        self._update_explore_default()
        self._update_unit()
        if not locked(dock.phase()):
            self._display_target()
            self.show_selection()
        if dock.controller is None:
            return
        if ended(dock.phase()) and dock._last_run != (self.mode(), self.target()):
            dock.run_actions.clear_run_view()  # what is shown belongs to another target
            return
        if dock.phase() not in (Phase.REVIEW, Phase.PLAN):
            return
        target = self.target()
        reason = tr("the dock now shows {mode} {model}/{part}").format(
            mode=self.mode(), model=target.model_name, part=target.part_name)
        dock.controller.invalidate(reason)
        dock.run_actions.finish_ui(dock.controller.result, back_in_review=False)
        # No "Review" in this text: automation tells a failed run from one back in Review
        # by the words Failed / Review (docs/architecture.md §9).
        dock.set_status(tr("Failed — the mode or target changed after the spec was written, so "
                           "it no longer applies; submit again ({reason})").format(reason=reason))

    def lock_target(self, lock: bool) -> None:
        """Mode and target cannot change under a spec: in Review and later they are locked."""
        dock = self.dock
        tip = lock_tooltip() if lock else ""
        for combo in (dock.mode_combo, dock.model_combo, dock.part_combo, dock.example_combo):
            combo.setEnabled(not lock)
            combo.setToolTip(tip)
        dock.selection_row.set_locked(lock)
        if not lock:
            dock.part_combo.setToolTip(tr("Pick a part, or type a new name to build one"))

    def _display_target(self) -> None:
        """The viewport shows the part the dock now targets (host API ``setValues``), or
        nothing for a new part, so it never keeps showing the previous run's part."""
        dock = self.dock
        target = self.target()
        try:
            models = dock.sam.mdb.models
            parts = models[target.model_name].parts if target.model_name in models.keys() \
                else {}
            # a part not built yet shows nothing rather than the part shown before
            part = parts[target.part_name] if target.part_name in parts.keys() else None
            viewport = dock.sam.session.viewports[VIEWPORT_NAME]
            if getattr(viewport, "displayedObject", None) is not part:
                viewport.setValues(displayedObject=part)
        except (AttributeError, KeyError):  # a host without a session or viewport
            return

    def unit_system(self) -> tuple[UnitSystem, bool]:
        """(the target model's unit system, whether the model declares it); a model without
        one gets the units chosen in Settings (mm-N-t-s by default)."""
        dock = self.dock
        models = dock.sam.mdb.models
        name = dock.model_combo.currentText()
        declared = declared_units(models[name] if name in models.keys() else None)
        if declared is not None:
            return declared, True
        saved = dock.settings_store.load() if dock.settings_store is not None else {}
        return unit_system(str(saved.get("length_unit") or "mm")), False

    def length_unit(self) -> tuple[str, bool]:
        units, declared = self.unit_system()
        return units.length, declared

    def _update_unit(self) -> None:
        dock = self.dock
        units, declared = self.unit_system()
        dock.unit_label.setText(tr("units: {unit}").format(unit=units.name))
        said = units_words(units)
        dock.unit_label.setToolTip(tr("Units of the model: {units}").format(units=said)
                                   if declared else tr(
            "The model declares no units: {units}, the ones chosen in Settings…").format(
            units=said))
        dock.result_view.units = units
        if dock.controller is not None and not locked(dock.phase()):
            dock.controller.units = units

    def highlight_elements(self, labels: list[int]) -> int:
        """Ask the host to show these elements of the run's part highlighted."""
        dock = self.dock
        target = controller_target(dock.controller) if dock.controller else self.target()
        if self._highlight is None:
            shown = ", ".join(str(label) for label in labels[:40])
            dock.result_view.show_notice(tr("This host cannot highlight elements; their "
                                            "labels: {labels}").format(labels=shown))
            return 0
        try:
            return int(self._highlight(target.model_name, target.part_name, list(labels)))
        except Exception as error:  # a part renamed or deleted since the run
            dock.result_view.show_notice(tr("Could not highlight: {error}").format(error=error))
            return 0

    def show_selection(self, *args: Any) -> None:
        """The selection row follows what is picked on the target part."""
        self.dock.selection_row.show_selection(self.dock.viewport_link.selection_for(self.target()))

    def picked_now(self) -> dict[str, Any]:
        """For a run submitted with a selection: what is picked now (the controller calls a
        difference drift); nothing for a run without one."""
        dock = self.dock
        if dock.run_selection is None:
            return {}
        return {"selection": dock.viewport_link.selection_for(self.target())}

    def live_part(self) -> Any:
        target = self.target()
        try:
            return self.dock.sam.mdb.models[target.model_name].parts[target.part_name]
        except (AttributeError, KeyError):
            return None
