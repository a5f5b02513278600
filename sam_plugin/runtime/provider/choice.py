"""Who answers: the bundled replay (recorded responses) or a live OpenAI-compatible provider.

One rule for the dock and the CLI, so that both say the same thing:

1. ``--replay`` (the demo's or the CLI's flag, or ``SAM_AGENT_REPLAY=1``) forces the replay,
   until the analyst saves another choice in the dock's Settings;
2. provider variables the *user* set (``SAM_AGENT_BASE_URL`` / ``SAM_AGENT_MODEL``, with
   ``SAM_AGENT_API_KEY`` and ``SAM_AGENT_PROFILE``) choose a live provider, over saved values
   (docs/architecture.md §9); CLI flags count as such variables;
3. the choice saved in Settings (``provider: replay | live``);
4. nothing chosen: a live provider when saved values configure one, else the replay (the
   CLI has no default: it asks for a provider or ``--replay``).

No Qt here; the replay server itself is started by the caller (``sam_plugin.demo``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import urlsplit

from sam_plugin.runtime.config import env as environment
from sam_plugin.runtime.config.settings import ProviderSettings

ProviderKind = Literal["replay", "live"]
PROVIDER_KINDS: tuple[ProviderKind, ...] = ("replay", "live")
REPLAY_MODEL = "replay-recorded"  # the model name the replay server answers as
# what the replay's refusal of an unknown request advises; a front end that says the same
# advice in its own words leaves this sentence out of the message it shows
REPLAY_ADVICE = ("Pick one under Examples in the dock, or answer your own words with a model "
                 "on this computer: Settings… → Local model (on this computer) → Set up (or a "
                 "live model there, or SAM_AGENT_BASE_URL and SAM_AGENT_MODEL).")
REPLAY_PROFILE = "vllm"  # streams the recorded reasoning apart from the spec; needs no key


@dataclass(frozen=True)
class ProviderChoice:
    """The provider a run will use, and why (``reason`` is said next to the label)."""

    kind: ProviderKind
    reason: str  # "--replay" | "environment" | "saved" | "nothing configured"
    env_names: tuple[str, ...] = ()  # the user's provider variables in effect
    live: ProviderSettings | None = None  # for ``live``; may be incomplete

    @property
    def is_replay(self) -> bool:
        return self.kind == "replay" or (self.live is not None
                                         and self.live.model == REPLAY_MODEL)

    def settings(self, replay_url: Callable[[], str] | None = None) -> ProviderSettings:
        """The settings a run uses; for the replay, ``replay_url()`` starts its server."""
        if self.kind == "live":
            assert self.live is not None
            return self.live
        if replay_url is None:
            raise ValueError("provider: the replay was chosen but no replay server is available")
        return replay_settings(replay_url())

    def name(self) -> str:
        """Short, for ``result.json`` and History: ``Replay`` or the profile."""
        if self.is_replay:
            return "Replay"
        assert self.live is not None
        return self.live.profile

    def model(self) -> str:
        return REPLAY_MODEL if self.kind == "replay" else (self.live.model if self.live else "")

    def describe(self, detection: Any = None) -> str:
        """English: ``Replay — recorded responses, not a live model`` or
        ``deepseek · deepseek-chat (api.deepseek.com)``; once the server was asked
        (``detection``, runtime/provider/probe.py) ``llama.cpp b11434, profile llamacpp ·
        qwen (127.0.0.1:8080)``. The dock translates the first."""
        if self.is_replay:
            return "Replay — recorded responses, not a live model"
        assert self.live is not None
        host = endpoint_host(self.live.base_url) or "no URL"
        model = self.live.model or "no model"
        if detection is not None:
            server = detection.server.words()
            return f"{server}, profile {detection.profile} · {model} ({host})"
        if self.live.profile_guessed and self.live.profile == "generic":
            return f"{model} ({host}), server not asked yet"
        return f"{self.live.profile} · {model} ({host})"


def replay_settings(base_url: str) -> ProviderSettings:
    # the bundled recordings were made unconstrained, one request per recorded answer
    return ProviderSettings(base_url=base_url, model=REPLAY_MODEL, profile=REPLAY_PROFILE,
                            constrained_calls=False)


def endpoint_host(base_url: str) -> str:
    """``host[:port]`` of a URL, never its path or credentials."""
    try:
        parts = urlsplit(base_url.strip())
        host = parts.hostname or ""
        return f"{host}:{parts.port}" if parts.port else host
    except ValueError:
        return ""


def user_provider_variables(env: Mapping[str, str]) -> tuple[str, ...]:
    """The provider variables set (non-empty) in ``env``, in a fixed order."""
    return environment.provider_variables(env).names


def choose(
    env: Mapping[str, str],
    saved: Mapping[str, Any],
    *,
    force_replay: bool = False,
    default_replay: bool = True,
) -> ProviderChoice:
    """See the module docstring. Raises ``ValueError`` (pydantic's, naming the field) when the
    live settings that apply do not validate."""
    if force_replay:
        return ProviderChoice(kind="replay", reason="--replay")
    names = user_provider_variables(env)
    if environment.BASE_URL in names or environment.MODEL in names:
        return ProviderChoice(kind="live", reason="environment", env_names=names,
                              live=ProviderSettings.from_env(env, saved=saved))
    saved_kind = str(saved.get("provider") or "")
    live = ProviderSettings.from_env(env, saved=saved)
    if saved_kind == "replay":
        return ProviderChoice(kind="replay", reason="saved")
    if saved_kind == "live":
        return ProviderChoice(kind="live", reason="saved", env_names=names, live=live)
    if live.is_configured() or not default_replay:
        return ProviderChoice(kind="live", reason="saved" if live.base_url else
                              "nothing configured", env_names=names, live=live)
    return ProviderChoice(kind="replay", reason="nothing configured")


class ProviderChooser:
    """The dock's current choice, read again each time (Settings may have saved another).

    A forced replay (``--replay``, or ``SAM_AGENT_REPLAY=1``) holds until the analyst saves a
    choice in Settings.
    """

    def __init__(self, store: Any, env: Mapping[str, str] | None = None, *,
                 force_replay: bool = False, default_replay: bool = True) -> None:
        self.store = store
        self.env = environment.environ(env)
        self.force_replay = force_replay or environment.replay_forced(self.env)
        self.default_replay = default_replay

    def current(self) -> ProviderChoice:
        return choose(self.env, self.store.load(), force_replay=self.force_replay,
                      default_replay=self.default_replay)

    def chosen_in_settings(self) -> None:
        self.force_replay = False
