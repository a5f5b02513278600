"""Every ``SAM_AGENT_*`` environment variable: named here, read here and nowhere else
(docs/architecture.md §6 and §9).

Each reader takes the environment as a mapping (``os.environ`` when None), so that tests,
the CLI's flags (written over a copy) and the settings dialog (which must not consult the
process) pass their own. A value that cannot be used raises ``EnvironmentValueError`` naming
the variable and its legal values. The provider variables are read as text: their one
validation is ``ProviderSettings`` (the legal profiles, URLs and timeouts live there), and
the CLI names the variable when it refuses one.

Names the composed script finds in its namespace (``SAM_AGENT_TARGET``,
``SAM_AGENT_COMPLETED``, ...) are no environment variables: they belong to the composer.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from sam_plugin.errors import EnvironmentValueError

Environ = Mapping[str, str]

BASE_URL = "SAM_AGENT_BASE_URL"
API_KEY = "SAM_AGENT_API_KEY"
MODEL = "SAM_AGENT_MODEL"
PROFILE = "SAM_AGENT_PROFILE"
TIMEOUT = "SAM_AGENT_TIMEOUT"
IDLE_TIMEOUT = "SAM_AGENT_IDLE_TIMEOUT"
REPLAY = "SAM_AGENT_REPLAY"
REPLAY_DELAY = "SAM_AGENT_REPLAY_DELAY"
RUNS_DIR = "SAM_AGENT_RUNS_DIR"
SETTINGS_FILE = "SAM_AGENT_SETTINGS_FILE"
UNDO_RUNS = "SAM_AGENT_UNDO_RUNS"
UNDO_BUDGET_MB = "SAM_AGENT_UNDO_BUDGET_MB"
CALLS = "SAM_AGENT_CALLS"
LLM_HOME = "SAM_AGENT_LLM_HOME"
# where a run's tool calls come from (docs/architecture.md §4 "Calls from the steps")
CALL_SOURCES = ("spec", "model")
DESIGN = "SAM_AGENT_DESIGN"
# how the spec is asked (docs/architecture.md §4 "The design, asked in parts")
DESIGN_PROTOCOLS = ("parts", "whole")

# the variables by which a user chooses a live provider, in the order they are listed
USER_PROVIDER_VARIABLES = (BASE_URL, MODEL, API_KEY, PROFILE)
# ProviderSettings field -> the variable that overrides it
PROVIDER_FIELDS: dict[str, str] = {
    "base_url": BASE_URL,
    "api_key": API_KEY,
    "model": MODEL,
    "profile": PROFILE,
    "total_timeout": TIMEOUT,
    "idle_timeout": IDLE_TIMEOUT,
}
TRUE_WORDS = ("1", "true", "yes")
FALSE_WORDS = ("0", "false", "no")


def environ(env: Environ | None = None) -> Environ:
    return os.environ if env is None else env


def _text(env: Environ | None, name: str) -> str:
    return environ(env).get(name, "").strip()


@dataclass(frozen=True)
class ProviderVariables:
    """The provider overrides set (non-empty) in an environment, as text."""

    overrides: Mapping[str, str]  # ProviderSettings field -> value

    @property
    def names(self) -> tuple[str, ...]:
        """The user's provider variables in effect, in a fixed order."""
        fields = {PROVIDER_FIELDS[f] for f in self.overrides}
        return tuple(name for name in USER_PROVIDER_VARIABLES if name in fields)


def provider_variables(env: Environ | None = None) -> ProviderVariables:
    values = {field: _text(env, name) for field, name in PROVIDER_FIELDS.items()}
    return ProviderVariables({field: value for field, value in values.items() if value})


def replay_forced(env: Environ | None = None) -> bool:
    """``SAM_AGENT_REPLAY=1``: how ``sam-agent demo --replay`` tells the plugin it loads."""
    value = _text(env, REPLAY).lower()
    if value in TRUE_WORDS:
        return True
    if value in FALSE_WORDS or not value:
        return False
    raise _illegal(REPLAY, value, "1, true, yes (replay) or 0, false, no, unset (as chosen)")


def replay_delay(env: Environ | None = None) -> float:
    """``SAM_AGENT_REPLAY_DELAY``: seconds between the replay's streamed pieces (0 unset)."""
    return _number(env, REPLAY_DELAY, "a number of seconds, 0 or more") or 0.0


def runs_dir(env: Environ | None = None) -> Path | None:
    """``SAM_AGENT_RUNS_DIR``, or None (the per-user default applies)."""
    value = _text(env, RUNS_DIR)
    return Path(value) if value else None


def settings_file(env: Environ | None = None) -> Path | None:
    """``SAM_AGENT_SETTINGS_FILE``, or None (the per-user default applies)."""
    value = _text(env, SETTINGS_FILE)
    return Path(value) if value else None


def llm_home(env: Environ | None = None) -> Path | None:
    """``SAM_AGENT_LLM_HOME`` (else ``LLM_HOME``, the name the shell script used): where the
    local model lives, or None (the per-user cache applies)."""
    value = _text(env, LLM_HOME) or _text(env, "LLM_HOME")
    return Path(value).expanduser() if value else None


def calls(env: Environ | None = None) -> str | None:
    """``SAM_AGENT_CALLS``: ``spec`` (computed from the confirmed steps) or ``model`` (the
    model fills them in), or None (the saved setting applies)."""
    value = _text(env, CALLS).lower()
    if not value:
        return None
    if value not in CALL_SOURCES:
        raise _illegal(CALLS, value, " or ".join(CALL_SOURCES))
    return value


def design(env: Environ | None = None) -> str | None:
    """``SAM_AGENT_DESIGN``: ``parts`` (the actions, then each action's values) or ``whole``
    (the spec in one request), or None (the saved setting applies)."""
    value = _text(env, DESIGN).lower()
    if not value:
        return None
    if value not in DESIGN_PROTOCOLS:
        raise _illegal(DESIGN, value, " or ".join(DESIGN_PROTOCOLS))
    return value


def undo_runs(env: Environ | None = None) -> int | None:
    """``SAM_AGENT_UNDO_RUNS``: how many verified runs keep an undo snapshot."""
    value = _text(env, UNDO_RUNS)
    if not value:
        return None
    try:
        count = int(value)
    except ValueError:
        count = -1
    if count < 0:
        raise _illegal(UNDO_RUNS, value, "a whole number, 0 or more (0 turns undo off)")
    return count


def undo_megabytes(env: Environ | None = None) -> float | None:
    """``SAM_AGENT_UNDO_BUDGET_MB``: the megabytes the undo snapshots may hold."""
    return _number(env, UNDO_BUDGET_MB, "a number of megabytes, 0 or more (0 turns undo off)")


def _number(env: Environ | None, name: str, legal: str) -> float | None:
    value = _text(env, name)
    if not value:
        return None
    try:
        number = float(value)
    except ValueError:
        number = -1.0
    if not (number >= 0 and math.isfinite(number)):
        raise _illegal(name, value, legal)
    return number


def _illegal(name: str, value: str, legal: str) -> EnvironmentValueError:
    return EnvironmentValueError(f"{name}: {value!r} cannot be used; legal: {legal}")
