"""Provider settings: Replay, the local model on this computer (``local_model_box.py``), or a
live provider (base URL, model, API key (masked), profile, temperature, timeouts), "Test
connection" of what is typed, the length unit shown when a model
has none, and the bound on Ask for changes. Provider variables the user set in the environment
override what is saved, and the dialog names exactly those.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from sam_plugin.compilers.units import SYSTEMS, unit_system
from sam_plugin.runtime.config import env as environment
from sam_plugin.runtime.config.policy import DEFAULT_REPAIR_ROUNDS, RunPolicy
from sam_plugin.runtime.config.settings import PROFILES, ProviderSettings
from sam_plugin.runtime.config.store import SettingsStore
from sam_plugin.runtime.provider.choice import user_provider_variables
from sam_plugin.runtime.run.revision import DEFAULT_MAX_REVISIONS
from sam_plugin.ui.i18n import tr
from sam_plugin.ui.unit_words import units_words

# a consistent unit system (compilers/units.py), or just a length unit (its values bare)
LENGTH_UNITS = (*(system.name for system in SYSTEMS), "cm", "ft")
# the idle timeout is the one the README and the CLI's --idle-timeout name (no new streamed
# event for this long); the lower-level read timeout keeps its default
TIMEOUT_FIELDS = (("connect_timeout", "Connect timeout (s)"),
                  ("idle_timeout", "Idle timeout (s): the longest silence in an answer"),
                  ("total_timeout", "Total timeout (s): the longest one answer may take"))
# what the local model needs on two CPU cores (docs/models.md): seconds
LOCAL_TOTAL_TIMEOUT = 1800.0
LOCAL_IDLE_TIMEOUT = 600.0
# a profile as the analyst knows it: the kind of server
PROFILE_WORDS = {"openai": "OpenAI", "deepseek": "DeepSeek", "ollama": "Ollama",
                 "vllm": "vLLM", "llamacpp": "llama.cpp server",
                 "generic": "another OpenAI-compatible server"}


# (settings field, objectName, label): the profile options a user may override
CAPABILITY_OVERRIDE_ROWS = (
    ("text_tool_calls", "textToolCallsCombo", "The model writes its operations as text"),
    ("one_call_per_round", "oneCallPerRoundCombo", "Ask for one operation per answer"),
    ("strict_tools", "strictToolsCombo", "The server holds answers to the exact format"),
)


class SettingsDialog(QDialog):
    """objectName ``settingsDialog``; ``values()`` is what Save will store."""

    def __init__(self, store: SettingsStore, env: Mapping[str, str] | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("settingsDialog")
        self.setWindowTitle(tr("SAM Agent settings"))
        self.store = store
        self.env = environment.environ(env)
        saved = store.load()
        layout = QVBoxLayout(self)
        self.replay_radio = QRadioButton(tr("Replay — recorded responses for the bundled "
                                            "examples (no model, no network)"))
        self.replay_radio.setObjectName("replayRadio")
        self.live_radio = QRadioButton(tr("Live model — an OpenAI-compatible endpoint"))
        self.live_radio.setObjectName("liveRadio")
        self.kind_group = QButtonGroup(self)
        self.kind_group.addButton(self.replay_radio)
        self.kind_group.addButton(self.live_radio)
        live_saved = saved.get("provider") == "live" or (
            "provider" not in saved and bool(saved.get("base_url")))
        (self.live_radio if live_saved else self.replay_radio).setChecked(True)
        layout.addWidget(self.replay_radio)
        layout.addWidget(self.live_radio)
        self.live_fields = QWidget()
        self.live_fields.setObjectName("liveFields")
        form = QFormLayout(self.live_fields)
        self.base_url = QLineEdit(str(saved.get("base_url", "")))
        self.base_url.setObjectName("baseUrlEdit")
        self.base_url.setPlaceholderText("https://api.deepseek.com/v1 · http://localhost:11434/v1")
        self.model = QLineEdit(str(saved.get("model", "")))
        self.model.setObjectName("modelEdit")
        self.api_key = QLineEdit(str(saved.get("api_key", "")))
        self.api_key.setObjectName("apiKeyEdit")
        self.api_key.setEchoMode(QLineEdit.EchoMode.Password)
        self.profile = QComboBox()
        self.profile.setObjectName("profileCombo")
        self.profile.addItem("", "")  # "(from the URL: …)", said by _update_profile_guess
        for name in PROFILES:
            self.profile.addItem(tr(PROFILE_WORDS.get(name, name)), name)
        self.profile.setCurrentIndex(max(0, self.profile.findData(saved.get("profile", ""))))
        self.temperature = QDoubleSpinBox()
        self.temperature.setObjectName("temperatureSpin")
        self.temperature.setRange(0.0, 2.0)
        self.temperature.setSingleStep(0.1)
        self.temperature.setValue(float(saved.get("temperature", 0.1)))
        self.plan_wait = self._plan_wait_combo(str(saved.get("plan_wait", "always")))
        defaults = ProviderSettings()
        self.timeouts: dict[str, QDoubleSpinBox] = {}
        form.addRow(tr("Base URL"), self.base_url)
        form.addRow(tr("Model"), self.model)
        form.addRow(tr("API key"), self.api_key)
        form.addRow(tr("Kind of server"), self.profile)
        form.addRow(tr("Temperature"), self.temperature)
        for field, label in TIMEOUT_FIELDS:
            spin = QDoubleSpinBox()
            spin.setObjectName(field)
            spin.setRange(1.0, 3600.0)
            spin.setValue(float(saved.get(field, getattr(defaults, field))))
            self.timeouts[field] = spin
            form.addRow(tr(label), spin)
        self._add_model_behaviour_rows(form, saved, defaults)
        layout.addWidget(self.live_fields)
        from sam_plugin.ui.local_model_box import LocalModelBox

        self.local_box = LocalModelBox(parent=self)
        self.local_box.use.connect(self.use_endpoint)
        layout.addWidget(self.local_box)
        general = QFormLayout()
        self.length_unit = QComboBox()
        self.length_unit.setObjectName("lengthUnitCombo")
        self.length_unit.setEditable(True)
        self.length_unit.addItems(LENGTH_UNITS)
        for index, system in enumerate(SYSTEMS):
            self.length_unit.setItemData(index, units_words(system),
                                         Qt.ItemDataRole.ToolTipRole)
        self.length_unit.setCurrentText(unit_system(str(saved.get("length_unit") or "mm")).name)
        self.length_unit.setToolTip(tr("Shown with every value (coordinates, dimensions, "
                                       "stresses, densities) when the model declares no "
                                       "units"))
        self.max_revisions = QSpinBox()
        self.max_revisions.setObjectName("maxRevisionsSpin")
        self.max_revisions.setRange(0, 20)
        self.max_revisions.setValue(int(saved.get("max_revisions", DEFAULT_MAX_REVISIONS)))
        self.max_revisions.setSuffix(tr(" time(s) per spec"))
        # not a provider matter: usable under the replay too
        general.addRow(tr("Plan waits for Execute"), self.plan_wait)
        general.addRow(tr("Units (when the model has none)"), self.length_unit)
        general.addRow(tr("Ask for changes: at most"), self.max_revisions)
        layout.addLayout(general)
        self.key_note = QLabel(store.key_storage_note(tr))
        self.key_note.setObjectName("keyStorageNote")
        self.key_note.setWordWrap(True)
        layout.addWidget(self.key_note)
        self.env_note = QLabel(self._env_note())
        self.env_note.setObjectName("envOverrideNote")
        self.env_note.setWordWrap(True)
        self.env_note.setVisible(bool(self.env_note.text()))
        layout.addWidget(self.env_note)
        self.test_button = QPushButton(tr("Test connection"))
        self.test_button.setObjectName("testConnectionButton")
        self.test_result = QLabel()
        self.test_result.setObjectName("testConnectionResult")
        self.test_result.setWordWrap(True)
        layout.addWidget(self.test_button)
        layout.addWidget(self.test_result)
        from sam_plugin.ui.mcp_settings import McpSettingsBox

        self.mcp_box = McpSettingsBox(store)  # the dock's MCP server (docs/mcp.md)
        layout.addWidget(self.mcp_box)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.save_button = buttons.button(QDialogButtonBox.StandardButton.Save)
        self.save_button.setObjectName("saveSettingsButton")
        self.test_button.clicked.connect(self._on_test_clicked)
        self.live_radio.toggled.connect(self._on_kind_changed)
        self.base_url.textChanged.connect(self._update_profile_guess)
        self._test_task: asyncio.Future[Any] | None = None
        self._tested_ok: tuple[str, ...] | None = None  # the typed endpoint that answered
        self._save_untested: tuple[str, ...] | None = None  # saved anyway after a failed test
        self._update_profile_guess()
        self._on_kind_changed()

    def use_endpoint(self, base_url: str, model: str, profile: str, answered: bool) -> None:
        """Make a server on this computer the live provider and save: the local model (it
        just answered one token, so Save needs no second test) or one found running."""
        self.live_radio.setChecked(True)
        self.base_url.setText(base_url)
        self.model.setText(model)
        self.api_key.clear()
        self.profile.setCurrentIndex(max(0, self.profile.findData(profile)))
        # a small model on a CPU: a long design answer, slow first tokens
        for field, seconds in (("total_timeout", LOCAL_TOTAL_TIMEOUT),
                               ("idle_timeout", LOCAL_IDLE_TIMEOUT)):
            self.timeouts[field].setValue(max(self.timeouts[field].value(), seconds))
        if answered:
            self._tested_ok = self._endpoint()
        self.save()

    def kind(self) -> str:
        return "live" if self.live_radio.isChecked() else "replay"

    def _on_kind_changed(self, *args: Any) -> None:
        self.live_fields.setEnabled(self.kind() == "live")
        self.test_result.clear()

    def _update_profile_guess(self, *args: Any) -> None:
        from sam_plugin.runtime.config.settings import guess_profile

        guess = guess_profile(self.base_url.text().strip())
        self.profile.setItemText(0, tr("(from the URL: {kind})").format(
            kind=tr(PROFILE_WORDS.get(guess, guess))))

    @staticmethod
    def _plan_wait_combo(saved: str) -> QComboBox:
        """When the plan waits for executeButton (docs/architecture.md §9); ``always`` by
        default."""
        combo = QComboBox()
        combo.setObjectName("planWaitCombo")
        for value, words in (("always", tr("always")),
                             ("destructive", tr("only when destructive or warned")),
                             ("never", tr("never (execute right after compiling)"))):
            combo.addItem(words, value)
        combo.setCurrentIndex(max(0, combo.findData(saved)))
        return combo

    def _add_model_behaviour_rows(self, form: QFormLayout, saved: Mapping[str, Any],
                                  defaults: ProviderSettings) -> None:
        """Repair rounds and the profile options (None: as the profile says)."""
        self.repair_rounds = QSpinBox()
        self.repair_rounds.setObjectName("repairRoundsSpin")
        self.repair_rounds.setRange(0, 10)
        self.repair_rounds.setValue(int(saved.get("repair_rounds", DEFAULT_REPAIR_ROUNDS)))
        self.repair_rounds.setToolTip(tr(
            "How often the model may correct an operation the plugin rejected, before the run "
            "goes back to Review (0: never)"))
        form.addRow(tr("Corrections after a rejected operation"), self.repair_rounds)
        self.capability_overrides: dict[str, QComboBox] = {}
        for field, name, label in CAPABILITY_OVERRIDE_ROWS:
            combo = QComboBox()
            combo.setObjectName(name)
            combo.addItem(tr("(as usual for this kind of server)"), None)
            combo.addItem(tr("on"), True)
            combo.addItem(tr("off"), False)
            combo.setCurrentIndex(max(0, combo.findData(saved.get(field))))
            self.capability_overrides[field] = combo
            form.addRow(tr(label), combo)

    def _env_note(self) -> str:
        """Only the variables the user set (the demo sets none; see provider_choice.py)."""
        names = user_provider_variables(self.env)
        if not names:
            return ""
        note = tr("Set in your environment, and used instead of what is saved here: "
                  "{names}").format(names=", ".join(names))
        if environment.BASE_URL in names or environment.MODEL in names:
            note += " " + tr("(so the live provider from the environment answers, whichever "
                             "choice is saved here; unset them to choose here)")
        return note

    def values(self) -> dict[str, Any]:
        values: dict[str, Any] = {
            "provider": self.kind(),
            "length_unit": self.length_unit.currentText().strip(),
            "max_revisions": self.max_revisions.value(),
            "base_url": self.base_url.text().strip(),
            "model": self.model.text().strip(),
            "temperature": self.temperature.value(),
            "plan_wait": self.plan_wait.currentData(),
        }
        if self.profile.currentData():
            values["profile"] = self.profile.currentData()
        values.update({name: spin.value() for name, spin in self.timeouts.items()})
        values["repair_rounds"] = self.repair_rounds.value()
        for field, combo in self.capability_overrides.items():
            if combo.currentData() is not None:
                values[field] = combo.currentData()
        return values

    def settings(self) -> ProviderSettings:
        """The live settings exactly as typed (the environment is not consulted: Test
        connection tests what is in the dialog)."""
        typed = {**self.values(), "api_key": self.api_key.text()}
        return ProviderSettings.from_env({}, saved=typed)

    def policy(self) -> RunPolicy:
        """The run policy exactly as typed (plan wait, repair rounds)."""
        return RunPolicy.from_saved(self.values(), env={})

    def save(self) -> None:
        """Store and close; a live endpoint is tested first, and one that does not answer is
        saved only when Save is pressed again (the server may be down for now)."""
        try:
            settings = self.settings() if self.kind() == "live" else None
        except ValueError as error:
            self.test_result.setText(tr("Not saved: {error}").format(error=error))
            return
        typed = self._endpoint()
        if settings is None or typed in (self._tested_ok, self._save_untested):
            self._store_and_close()
            return
        self.test_result.setText(tr("Testing {url} before saving…").format(
            url=settings.base_url.strip()))
        self.save_button.setEnabled(False)
        self._test_task = asyncio.ensure_future(self._save_after_test(settings, typed))

    async def _save_after_test(self, settings: ProviderSettings, typed: tuple[str, ...]) -> bool:
        from sam_plugin.ui.connection_check import check_connection

        verdict = await check_connection(settings)
        self.save_button.setEnabled(True)
        if typed != self._endpoint():  # edited while it was tested: Save tests again
            self.test_result.setText(verdict.words)
            return False
        if verdict.ok:
            self._tested_ok = typed
            self._store_and_close()
            return True
        self._save_untested = typed
        self.save_button.setText(tr("Save anyway"))
        self.test_result.setText(tr("Not saved yet — {words} Press Save anyway to keep these "
                                    "settings all the same.").format(words=verdict.words))
        return False

    def _endpoint(self) -> tuple[str, ...]:
        """What a connection test depends on: the URL, the model and the key typed."""
        return (self.base_url.text().strip(), self.model.text().strip(), self.api_key.text())

    def _store_and_close(self) -> None:
        self.store.save(self.values(), self.api_key.text())
        self.mcp_box.save()
        self.accept()

    def _on_test_clicked(self) -> None:
        if self.kind() == "replay":
            self.test_result.setText(tr("Replay needs no connection: it answers the bundled "
                                        "example requests from recorded responses."))
            return
        self.test_result.setText(tr("Testing {url}…").format(url=self.base_url.text().strip()))
        self._test_task = asyncio.ensure_future(self._run_test())

    async def _run_test(self) -> str:
        from sam_plugin.ui.connection_check import check_connection

        typed = self._endpoint()
        try:
            verdict = await check_connection(self.settings())
        except ValueError as error:
            message = tr("Invalid settings: {error}").format(error=error)
        else:
            message = verdict.words
            if verdict.ok:
                self._tested_ok = typed  # Save needs no second test of the same endpoint
        self.test_result.setText(message)
        return message
