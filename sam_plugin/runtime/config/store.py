"""Where the dock keeps the provider settings the user saved, and where runs are written.

It lives in the runtime (no Qt) so that the CLI reads what the dock saved.
Non-secret fields go to ``settings.json`` in the per-user config directory (platformdirs).
The API key goes to the system keyring when a usable backend exists; otherwise it is kept in
that same file, and :meth:`SettingsStore.key_storage_note` says so plainly. Environment
variables (``SAM_AGENT_BASE_URL``, ``SAM_AGENT_API_KEY``, ``SAM_AGENT_MODEL``) override saved
values (docs/architecture.md §9); ``SAM_AGENT_RUNS_DIR`` sets the runs directory.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import platformdirs

from sam_plugin.runtime.config import env as environment
from sam_plugin.runtime.config.policy import RunPolicy
from sam_plugin.runtime.config.settings import ProviderSettings

APP_NAME = "sam-agent"
KEYRING_SERVICE = "sam-agent"
KEYRING_USER = "api_key"
# ``provider`` is the analyst's explicit choice, ``replay`` or ``live`` (provider_choice.py);
# ``length_unit`` (a unit system, ``mm-N-t-s``, or a length) is what values are shown in when a
# model declares none; ``max_revisions`` bounds Ask for changes
SAVED_FIELDS = ("provider", "base_url", "model", "profile", "temperature", "connect_timeout",
                "idle_read_timeout", "idle_timeout", "total_timeout", "length_unit",
                "max_revisions",
                "plan_wait", "repair_rounds", "text_tool_calls", "one_call_per_round",
                "strict_tools", "mcp_server", "mcp_token_sha256", "approval_channels",
                "constrained_calls", "design_max_tokens", "call_max_tokens", "design")
# the MCP server the dock may start (docs/mcp.md): {"enabled": bool, "port": int}, off by
# default; its bearer token is kept only as a SHA-256, where the API key is kept
MCP_TOKEN_USER = "mcp_token_sha256"
MCP_DEFAULT_PORT = 8765
# where a person may approve what an MCP client asks (docs/mcp.md "Trust boundary"): the
# dock, the client's form, ``sam-agent approve`` at a terminal; all three unless a site says
APPROVAL_CHANNELS = ("dock", "elicitation", "command")



def _channels_problem(saved: Any) -> str | None:
    """What is wrong with a saved ``approval_channels`` (None: a list of known names)."""
    if isinstance(saved, str):
        return f"{saved!r} is text, not a list"
    if not isinstance(saved, list):
        return f"{json.dumps(saved)} is not a list"
    if not saved:
        return "the list names no channel"
    unknown = [str(c) for c in saved if c not in APPROVAL_CHANNELS]
    if unknown:
        verb = "is not a channel" if len(unknown) == 1 else "are not channels"
        return f"{', '.join(unknown)} {verb}"
    return None


def default_settings_path(env: Mapping[str, str] | None = None) -> Path:
    """``SAM_AGENT_SETTINGS_FILE`` when set (tests, portable set-ups), else the per-user
    config directory's ``sam-agent/settings.json``."""
    return environment.settings_file(env) or Path(
        platformdirs.user_config_dir(APP_NAME)) / "settings.json"


def runs_dir_from_env(env: Mapping[str, str] | None = None) -> Path:
    """``SAM_AGENT_RUNS_DIR`` when set, else ``<user data dir>/sam-agent/runs``."""
    return environment.runs_dir(env) or Path(platformdirs.user_data_dir(APP_NAME)) / "runs"


def usable_keyring() -> Any | None:
    """The ``keyring`` module when it is installed and has a real backend, else ``None``."""
    try:
        import keyring  # type: ignore[import-not-found]  # optional: used when installed
        from keyring.backends import fail  # type: ignore[import-not-found]  # optional, as above
    except ImportError:
        return None
    try:
        if isinstance(keyring.get_keyring(), fail.Keyring):
            return None
    except Exception:  # a broken backend is no backend
        return None
    return keyring


class SettingsStore:
    """Load/save the user's provider settings; ``keyring`` is used when it works."""

    def __init__(self, path: Path | None = None, *, keyring_module: Any = "auto") -> None:
        self.path = path or default_settings_path()
        self._keyring = usable_keyring() if keyring_module == "auto" else keyring_module

    @property
    def uses_keyring(self) -> bool:
        return self._keyring is not None

    def key_storage_note(self, translate: Any = None) -> str:
        """Where the key is kept, in words; ``translate`` is the UI's ``tr`` (English without)."""
        tr = translate or (lambda text: text)
        if self.uses_keyring:
            return str(tr("The API key is kept in the system keyring."))
        return str(tr("No system keyring is available: the API key is kept in plain text in "
                      "{path}.")).format(path=self.path)

    def load(self) -> dict[str, Any]:
        """Saved values (API key included when one was saved); ``{}`` when nothing is saved."""
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = {}
        values = {k: data[k] for k in SAVED_FIELDS if k in data}
        key = self._read_key(data)
        if key:
            values["api_key"] = key
        return values

    def save(self, values: Mapping[str, Any], api_key: str) -> None:
        """Replace the provider fields; saved fields ``values`` does not name are kept."""
        data = {k: v for k, v in self.load().items() if k in SAVED_FIELDS}
        data.update({k: values[k] for k in SAVED_FIELDS if k in values})
        if self._keyring is not None:
            self._keyring.set_password(KEYRING_SERVICE, KEYRING_USER, api_key)
        else:
            data["api_key"] = api_key
        self._write(data)

    def _write(self, data: Mapping[str, Any]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temp = self.path.with_name(self.path.name + ".tmp")
        temp.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        if os.name == "posix":
            temp.chmod(0o600)  # the key may be in it
        os.replace(temp, self.path)

    def _raw(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def mcp_server(self) -> tuple[bool, int]:
        """(serve MCP over HTTP from the dock, the port): off by default."""
        saved = self._raw().get("mcp_server")
        saved = saved if isinstance(saved, dict) else {}
        port = saved.get("port")
        return (saved.get("enabled") is True,
                port if isinstance(port, int) and 0 < port < 65536 else MCP_DEFAULT_PORT)

    def save_mcp_server(self, *, enabled: bool, port: int) -> None:
        data = self._raw()
        data["mcp_server"] = {"enabled": bool(enabled), "port": int(port)}
        self._write(data)

    def approval_channels(self) -> tuple[str, ...]:
        """The channels a person may approve MCP plans on (all of them unless saved);
        ``ValueError`` (one line naming the legal names) when the saved value is not a list of
        one or more known channels: a site's choice is never widened or guessed."""
        raw = self._raw()
        if "approval_channels" not in raw:
            return APPROVAL_CHANNELS
        saved = raw["approval_channels"]
        problem = _channels_problem(saved)
        if problem is not None:
            raise ValueError(f"approval_channels in {self.path}: {problem}; give a list of one "
                             f"or more of {', '.join(APPROVAL_CHANNELS)}")
        return tuple(c for c in APPROVAL_CHANNELS if c in saved)

    def save_approval_channels(self, channels: tuple[str, ...]) -> None:
        unknown = sorted(set(channels) - set(APPROVAL_CHANNELS))
        if unknown:
            raise ValueError(f"approval channels: {', '.join(unknown)} unknown; legal: "
                             f"{', '.join(APPROVAL_CHANNELS)}")
        data = self._raw()
        data["approval_channels"] = [c for c in APPROVAL_CHANNELS if c in channels]
        self._write(data)

    def mcp_token_digest(self) -> str:
        """The SHA-256 of the MCP bearer token ("" before one was made)."""
        if self._keyring is not None:
            return str(self._keyring.get_password(KEYRING_SERVICE, MCP_TOKEN_USER) or "")
        return str(self._raw().get(MCP_TOKEN_USER) or "")

    def save_mcp_token_digest(self, digest: str) -> None:
        """Keep a new token's SHA-256 where the API key is kept (the token is never kept)."""
        if self._keyring is not None:
            self._keyring.set_password(KEYRING_SERVICE, MCP_TOKEN_USER, digest)
            return
        data = self._raw()
        data[MCP_TOKEN_USER] = digest
        self._write(data)

    def _read_key(self, data: Mapping[str, Any]) -> str:
        if self._keyring is not None:
            return self._keyring.get_password(KEYRING_SERVICE, KEYRING_USER) or ""
        return str(data.get("api_key") or "")

    def effective(self, env: Mapping[str, str] | None = None) -> ProviderSettings:
        """Saved settings overridden by the ``SAM_AGENT_*`` environment variables."""
        return ProviderSettings.from_env(env, saved=self.load())

    def policy(self, env: Mapping[str, str] | None = None) -> RunPolicy:
        """The saved run policy (plan wait, repair rounds), the undo budget from ``env``."""
        return RunPolicy.from_saved(self.load(), env)
