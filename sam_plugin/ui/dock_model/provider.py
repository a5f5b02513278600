"""Who answers the dock: ``providerLabel``, the replay banner and the server a run detected.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sam_plugin.runtime.event_types import ServerDetected
from sam_plugin.ui.dock_model import (
    DockController,
    locked,
)
from sam_plugin.ui.dock_model.build import REPLAY_STYLE
from sam_plugin.ui.i18n import tr
from sam_plugin.ui.local_model_words import local_model_note
from sam_plugin.ui.selection_row import selection_words

if TYPE_CHECKING:
    from sam_plugin.ui.dock import SamAgentDock


class ProviderSection:
    """The provider row of the dock and what the replay can and cannot do."""

    def __init__(self, dock: SamAgentDock, provider_choice: Callable[[], Any] | None) -> None:
        self.dock = dock
        self._provider_choice = provider_choice
        self.run_provider: str | None = None  # providerLabel's text when the shown run began

    def refresh_provider(self) -> None:
        """``providerLabel`` says who answers; the replay banner shows only for the replay."""
        dock = self.dock
        choice, problem = None, ""
        if self._provider_choice is not None:
            try:
                choice = self._provider_choice()
            except ValueError as error:
                problem = str(error)
        if choice is None:
            text = tr("Answering: no provider ({problem}) — open Settings…").format(
                problem=problem or tr("not configured"))
            replay = False
        elif choice.is_replay:
            text = tr("Answering: Replay — recorded responses, not a live model")
            replay = True
        elif choice.reason == "nothing configured":  # a real host: no Replay unless chosen
            text = tr("Answering: no model configured — open Settings… (or set "
                      "SAM_AGENT_BASE_URL and SAM_AGENT_MODEL)")
            replay = False
        else:
            text = tr("Answering: {provider}").format(provider=choice.describe())
            text += local_model_note(choice)
            missing = choice.live.missing_fields() if choice.live is not None else []
            if missing:
                text += " " + tr("(incomplete: {fields})").format(fields=", ".join(missing))
            else:
                self._ask_server(choice)
            replay = False
        dock.provider_label.setText(text)
        # the examples are the Replay's requests on the demo's sample workspace
        dock.example_label.setVisible(replay)
        dock.example_combo.setVisible(replay)
        if self.run_provider not in (None, text) and not locked(dock.phase()):
            dock.run_actions.clear_run_view()  # what is shown was answered by another provider
        reason = self._provider_reason(choice)
        if replay:  # the label is the replay notice; how to go live is one hover away
            reason += "\n" + tr("The replay answers only the bundled example requests: pick "
                                "one under Examples, or choose a live provider (DeepSeek, "
                                "OpenAI, a local Ollama or vLLM URL) in Settings…")
        dock.provider_label.setToolTip(reason)
        dock.provider_label.setStyleSheet(REPLAY_STYLE if replay else "padding:2px;")

    def _ask_server(self, choice: Any) -> None:
        """Which server answers (probed once per URL, within 2 s): named in ``providerLabel``
        when it says; a run's ``server_detected`` names it too."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no event loop yet: the first run's server_detected says it

        async def ask() -> None:
            from sam_plugin.runtime.provider.probe import detect

            detection = await detect(choice.live)
            self._show_detection(choice, detection)

        loop.create_task(ask())

    def show_server(self, detected: ServerDetected) -> None:
        from sam_plugin.runtime.provider.probe import Detection, ServerInfo

        choice = self._provider_choice() if self._provider_choice is not None else None
        server = detected.server or {}
        try:
            detection = Detection(
                server=ServerInfo(kind=server.get("kind", "unknown"),
                                  version=str(server.get("version", "")),
                                  note=str(detected.note)),
                profile=detected.profile,
                profile_from=detected.profile_from)
        except ValueError:
            return
        self._show_detection(choice, detection)

    def _show_detection(self, choice: Any, detection: Any) -> None:
        dock = self.dock
        if choice is None or choice.is_replay or choice.live is None:
            return
        dock.provider_label.setText(
            tr("Answering: {provider}").format(provider=choice.describe(detection))
            + local_model_note(choice))
        if detection.server.note:
            dock.provider_label.setToolTip(detection.words())

    @staticmethod
    def _provider_reason(choice: Any) -> str:
        if choice is None:
            return ""
        reasons: dict[str, str] = {
            "--replay": tr("Chosen by --replay for this session; Settings… can change it"),
            "environment": tr("From your environment: {names}").format(
                names=", ".join(choice.env_names)),
            "saved": tr("Saved in Settings…"),
            "nothing configured": tr("No provider is configured: the bundled replay answers"),
        }
        return reasons.get(choice.reason, str(choice.reason))

    def show_binding_problem(self, text: str) -> None:
        self.show_replay_notice(text)

    def show_font_problem(self, text: str) -> None:
        dock = self.dock
        dock.font_notice.setText(text)
        dock.font_notice.show()

    def show_replay_notice(self, text: str) -> None:
        dock = self.dock
        dock.replay_banner.setText(text)
        dock.replay_banner.show()

    def answers_from_replay(self) -> bool:
        """Whether the recorded replay answers this dock (it cannot revise a spec)."""
        if self._provider_choice is None:
            return False
        try:
            return bool(getattr(self._provider_choice(), "is_replay", False))
        except ValueError:
            return False

    def replay_ignores_pick(self, controller: DockController) -> list[str]:
        """The Replay answers with a recorded spec: when the analyst acts on a pick that no
        step's scope names, it says so (a live model is sent the pick)."""
        picked = self.dock.run_selection
        spec = controller.spec
        if picked is None or spec is None or not self.answers_from_replay():
            return []
        if any(step.scope is not None and getattr(step.scope, "by", "") == "labels"
               and tuple(sorted(getattr(step.scope, "labels", ()))) == picked.labels
               for step in spec.steps):
            return []
        return [tr("Replay answered with the recorded example, which does not act on your "
                   "pick ({picked}): its steps' scopes are the recorded ones. Edit a step's "
                   "scope to act on the pick, or use a live model.").format(
                       picked=selection_words(picked))]
