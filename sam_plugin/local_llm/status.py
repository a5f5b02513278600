"""``sam-agent local status``: one answer for the CLI and the dock.

``not set up`` (no smoke-tested server or no checked model), ``building`` (a set-up runs),
``ready`` (set up, no server running) or ``serving`` (a server ``serve`` started answers);
with the base URL and the model name a provider setting takes.
"""

from __future__ import annotations

import json
from typing import Literal

from pydantic import BaseModel

from sam_plugin.local_llm import server
from sam_plugin.local_llm.catalog import MODELS
from sam_plugin.local_llm.home import LocalHome
from sam_plugin.local_llm.install import SetupRecord

State = Literal["not set up", "building", "ready", "serving"]
STATES: tuple[State, ...] = ("not set up", "building", "ready", "serving")


class LocalStatus(BaseModel):
    state: State
    base_url: str | None  # what Settings' Base URL takes (serve's default port when ready)
    model: str | None  # what Settings' Model takes
    home: str
    model_file: str | None = None
    variant: str | None = None  # the CPU variant built
    pid: int | None = None  # the server's, or the set-up's while building


def local_status(home: LocalHome | None = None) -> LocalStatus:
    home = home or LocalHome.default()
    setup = _setup_record(home)
    base = {"home": str(home.root)}
    builder = _building(home)
    if builder is not None:
        return LocalStatus(state="building", base_url=None, model=builder[1], pid=builder[0],
                           **base)
    if setup is None:
        return LocalStatus(state="not set up", base_url=None, model=None, **base)
    found = {"model_file": setup.model_file, "variant": setup.variant}
    for running in server.recorded_servers(home):
        return LocalStatus(state="serving", base_url=running.base_url, model=running.model,
                           pid=running.pid, **base, **found)
    return LocalStatus(state="ready", base_url=server.base_url(server.DEFAULT_PORT),
                       model=setup.alias, **base, **found)


def _setup_record(home: LocalHome) -> SetupRecord | None:
    """The model set up last, when its server and its checked file are still there."""
    try:
        setup = SetupRecord.model_validate_json(home.setup_record.read_text("utf-8"))
    except (OSError, ValueError):
        return None
    spec = MODELS.get(setup.model)
    checked = home.models / f"{spec.filename if spec else ''}.sha256"
    if spec is None or not (home.server_binary.exists() and home.build_record.exists()):
        return None
    try:
        if checked.read_text(encoding="utf-8").split()[:1] != [spec.sha256]:
            return None
    except OSError:
        return None
    return setup


def _building(home: LocalHome) -> tuple[int, str] | None:
    try:
        holder = json.loads(home.setup_lock.read_text(encoding="utf-8"))
        pid, model = int(holder["pid"]), str(holder["model"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return (pid, MODELS[model].alias if model in MODELS else model) if server.alive(pid) \
        else None
