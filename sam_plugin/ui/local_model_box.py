"""Settings' "Local model (on this computer)": the state of ``sam-agent local`` in words, a
button that sets it up in the background (a progress bar and Cancel) or, once ready, starts it
and makes it the provider; an Ollama or llama-server already running here is offered too.

The set-up runs in a thread owned by :data:`RUNNER`, not by the dialog: closing Settings does
not stop it, and Settings opened again shows it going on. The work is
``sam_plugin.local_llm``; what ``localModelStatus`` says comes from the same
:func:`~sam_plugin.local_llm.status.local_status` as ``sam-agent local status --json``.
"""

from __future__ import annotations

import threading
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import (
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from sam_plugin.errors import LocalModelError, SetupCancelled
from sam_plugin.local_llm.catalog import DEFAULT_MODEL, model_spec
from sam_plugin.local_llm.cpu import usable_cores
from sam_plugin.local_llm.estimate import estimate, gib, minutes
from sam_plugin.local_llm.home import LocalHome
from sam_plugin.local_llm.needs import install_hint, missing_tools
from sam_plugin.local_llm.progress import STAGE_WORDS, Progress
from sam_plugin.local_llm.running import RunningServer, find_running
from sam_plugin.local_llm.status import LocalStatus, local_status
from sam_plugin.ui.i18n import tr

PROGRESS_STEPS = 1000


class LocalModelRunner(QObject):
    """One set-up (or start) at a time, in a thread; its news as signals in the GUI thread."""

    progressed = Signal(object)  # Progress
    finished = Signal(str)  # "" when it worked, else the one line that says why
    started = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.thread: threading.Thread | None = None
        self.cancel = threading.Event()
        self.last: Progress | None = None
        self.kind = ""  # "setup" | "serve"

    def busy(self) -> bool:
        return self.thread is not None and self.thread.is_alive()

    def set_up(self, home: LocalHome, model: str = DEFAULT_MODEL) -> None:
        from sam_plugin.local_llm.install import setup_for_this_machine

        def work() -> None:
            setup_for_this_machine(model_spec(model), self._progress, home=home,
                                   cancel=self.cancel).run()

        self._start("setup", work)

    def serve(self, home: LocalHome) -> None:
        from sam_plugin.local_llm.serve import ServeOptions, serve

        self._start("serve", lambda: serve(home, ServeOptions(), cancel=self.cancel))

    def stop(self) -> None:
        self.cancel.set()

    def _progress(self, progress: Progress) -> None:
        self.last = progress
        self.progressed.emit(progress)

    def _start(self, kind: str, work: Any) -> None:
        if self.busy():
            return
        self.kind, self.last = kind, None
        self.cancel = threading.Event()

        def run() -> None:
            try:
                work()
            except SetupCancelled:
                self.finished.emit(tr("Stopped: what was done is kept, and Set up resumes "
                                      "from there."))
            except LocalModelError as error:
                self.finished.emit(str(error))
            except Exception as error:  # noqa: BLE001 - said in the dialog, never lost
                self.finished.emit(f"{type(error).__name__}: {error}")
            else:
                self.finished.emit("")

        self.thread = threading.Thread(target=run, name=f"sam-agent-local-{kind}", daemon=True)
        self.thread.start()
        self.started.emit()


RUNNER: LocalModelRunner | None = None


def runner() -> LocalModelRunner:
    global RUNNER
    if RUNNER is None:
        RUNNER = LocalModelRunner()
    return RUNNER


class LocalModelBox(QGroupBox):
    """objectName ``localModelBox``; ``use`` asks the dialog to make an endpoint the
    provider: (base URL, model, kind of server, answered already)."""

    use = Signal(str, str, str, bool)

    def __init__(self, home: LocalHome | None = None, parent: QWidget | None = None,
                 look_for_servers: bool = True) -> None:
        super().__init__(tr("Local model (on this computer)"), parent)
        self.setObjectName("localModelBox")
        self.home = home or LocalHome.default()
        self.runner = runner()
        self.problem = ""  # the last set-up's failure, said until the next try
        layout = QVBoxLayout(self)
        self.status_label = QLabel()
        self.status_label.setObjectName("localModelStatus")
        self.status_label.setWordWrap(True)
        layout.addWidget(self.status_label)
        row = QHBoxLayout()
        self.button = QPushButton()
        self.button.setObjectName("localModelButton")
        self.progress = QProgressBar()
        self.progress.setObjectName("localModelProgress")
        self.progress.setRange(0, PROGRESS_STEPS)
        self.cancel_button = QPushButton(tr("Cancel"))
        self.cancel_button.setObjectName("localModelCancel")
        row.addWidget(self.button)
        row.addWidget(self.progress, 1)
        row.addWidget(self.cancel_button)
        layout.addLayout(row)
        self.found_label = QLabel()
        self.found_label.setObjectName("localServerFound")
        self.found_label.setWordWrap(True)
        self.found_button = QPushButton()
        self.found_button.setObjectName("useFoundServerButton")
        layout.addWidget(self.found_label)
        layout.addWidget(self.found_button)
        self.found: list[RunningServer] = []
        self.button.clicked.connect(self._on_button)
        self.cancel_button.clicked.connect(self.runner.stop)
        self.found_button.clicked.connect(self._use_found)
        self.runner.progressed.connect(self._on_progress)
        self.runner.finished.connect(self._on_finished)
        self.refresh()
        self._show_found(self._servers_elsewhere() if look_for_servers else [])

    # ------------------------------------------------------------------ state
    def status(self) -> LocalStatus:
        """What ``sam-agent local status --json`` says."""
        return local_status(self.home)

    def refresh(self) -> None:
        now = self.status()
        mine = self.runner.busy()
        self.progress.setVisible(mine)
        self.cancel_button.setVisible(mine)
        self.button.setEnabled(not mine and now.state != "building")
        if mine and self.runner.kind == "serve":
            self.status_label.setText(tr("Starting the local model on this computer…"))
            self.button.setText(tr("Starting…"))
            return
        if mine or now.state == "building":
            self.button.setText(tr("Setting up…"))
            self.status_label.setText(self._building_words(mine))
            return
        self.button.setText(tr("Set up") if now.state == "not set up" else tr("Use it"))
        words = {"not set up": self._not_set_up_words, "ready": self._ready_words,
                 "serving": self._serving_words}[now.state](now)
        if self.problem:
            words = self.problem + "\n" + words
        self.status_label.setText(words)

    def _not_set_up_words(self, now: LocalStatus) -> str:
        spec = model_spec(DEFAULT_MODEL)
        found = estimate(spec, usable_cores())
        return tr("Not set up. Set up downloads {download} and builds llama.cpp for this "
                  "computer: about {minutes} on its {cores} core(s), {disk} of disk, {ram} of "
                  "RAM to run it. It needs cmake and a C++ compiler.").format(
            download=gib(found.download_mib), minutes=minutes(found.total_seconds),
            cores=found.cores, disk=gib(found.disk_peak_mib), ram=gib(found.ram_mib)) \
            + self._missing_words()

    @staticmethod
    def _missing_words() -> str:
        missing = missing_tools()
        if not missing:
            return ""
        return " " + tr("Missing here: {tools}; install them with: {command}").format(
            tools=", ".join(missing), command=install_hint())

    def _ready_words(self, now: LocalStatus) -> str:
        return tr("Ready: {model}. Use it starts it on this computer ({url}) and answers "
                  "through it.").format(model=now.model, url=now.base_url)

    def _serving_words(self, now: LocalStatus) -> str:
        return tr("Running on this computer: {model} at {url}.").format(model=now.model,
                                                                        url=now.base_url)

    def _building_words(self, mine: bool) -> str:
        if not mine:
            return tr("Being set up by another process (sam-agent local setup); Settings "
                      "shows it ready once it is done.")
        last = self.runner.last
        if last is None:
            return tr("Setting up…")
        return tr("Setting up: {stage}").format(stage=progress_words(last))

    # ------------------------------------------------------------------ actions
    def _on_button(self) -> None:
        now = self.status()
        self.problem = ""
        if now.state == "not set up":
            self.runner.set_up(self.home)
        elif now.state == "ready":
            self.runner.serve(self.home)
        elif now.state == "serving" and now.base_url and now.model:
            self.use.emit(now.base_url, now.model, "llamacpp", True)
            return
        self.refresh()

    def _on_progress(self, progress: Progress) -> None:
        self.progress.setValue(int(progress.fraction * PROGRESS_STEPS))
        self.progress.setFormat(progress_words(progress))
        self.refresh()

    def _on_finished(self, problem: str) -> None:
        kind = self.runner.kind
        if self.runner.thread is not None:
            self.runner.thread.join(5)
        self.problem = problem
        self.refresh()
        now = self.status()
        if not problem and kind == "serve" and now.base_url and now.model:
            self.use.emit(now.base_url, now.model, "llamacpp", True)

    # ------------------------------------------------------------------ found elsewhere
    def _servers_elsewhere(self) -> list[RunningServer]:
        """Running servers that are not the one ``sam-agent local serve`` started."""
        mine = self.status().base_url if self.status().state == "serving" else None
        return [found for found in find_running() if found.base_url != mine]

    def _show_found(self, found: list[RunningServer]) -> None:
        self.found = found
        self.found_label.setVisible(bool(found))
        self.found_button.setVisible(bool(found))
        if not found:
            return
        first = found[0]
        self.found_label.setText(tr("Also running on this computer: {kind} at {url} "
                                    "(models: {models})").format(
            kind=first.kind, url=first.base_url, models=", ".join(first.models) or tr("none")))
        self.found_button.setText(tr("Use {kind}").format(kind=first.kind))
        self.found_button.setEnabled(bool(first.models))

    def _use_found(self) -> None:
        if self.found and self.found[0].models:
            first = self.found[0]
            kind = "ollama" if first.kind == "Ollama" else "llamacpp"
            self.use.emit(first.base_url, first.models[0], kind, False)


def progress_words(progress: Progress) -> str:
    """``compile 45/210`` in the language shown (the stage word translated)."""
    text = tr(STAGE_WORDS[progress.stage])
    if progress.total and progress.stage != "download":
        text += f" {progress.done}/{progress.total}"
    if progress.seconds_left:
        text += " · " + tr("about {minutes} left").format(minutes=minutes(progress.seconds_left))
    return text
