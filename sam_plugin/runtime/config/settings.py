"""Provider settings: endpoint, key, model, timeouts, retries and the endpoint's profile.

The API key is a ``SecretStr``: it never shows in ``repr``, ``str``, ``model_dump_json`` or
logs; only the provider reads it, with ``get_secret_value()``, to build the auth header.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, get_args
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator, model_validator

from sam_plugin.runtime.config import env as environment

Profile = Literal["openai", "deepseek", "ollama", "vllm", "llamacpp", "generic"]
PROFILES: tuple[str, ...] = get_args(Profile)
# how a collection round is held to its tool's schema (runtime/provider/constraint.py)
Constraint = Literal["none", "named", "wrapped", "format"]
# how a design answer is held to the spec's JSON Schema: the schema itself, JSON only, nothing
SpecFormat = Literal["json_schema", "json_object", "none"]

MIB = 1024 * 1024


class ProviderCapabilities(BaseModel):
    """What an endpoint accepts and how its models behave. ``tool_choice`` is never sent unless
    explicitly allowed: DeepSeek's thinking mode answers 400 "Thinking mode does not support
    this tool_choice".

    ``strict_tools``: the strict variant of each tool schema is sent (``"strict": true``);
    seen honoured by OpenAI only. DeepSeek accepts it on its ``/beta`` endpoint alone, and
    Ollama, vLLM and llama.cpp ignore the flag (llama.cpp constrains tool arguments by its own
    grammar), so it is off for them. Whatever strict decoding cannot express is checked by
    the compilers either way.
    ``text_tool_calls``: a call a model wrote as text in the message content (one fenced
    JSON block, one ``<tool_call>`` block, one bare object: the whole answer, nothing inside
    prose) is recovered when a tools response carried no structured call; on for the local
    servers, whose small models do this every day.
    ``one_call_per_round``: each collection round asks for the next tool only. llama.cpp's
    parser for a bare-JSON call template takes only the first call of an answer and ends the
    stream with an in-stream error on the second; a constrained round asks for one tool too.
    ``constraint``: how a round is held to its tool's schema (runtime/provider/constraint.py:
    ``wrapped`` llama.cpp, ``format`` Ollama, ``named`` vLLM and OpenAI, ``none``).
    ``spec_format``: how a design answer is held to the spec's JSON Schema: the schema as
    ``response_format`` (llama.cpp, vLLM, Ollama), ``json_object`` (DeepSeek: JSON, no
    schema), or not at all.
    ``design_tokens`` / ``call_tokens_max``: the output bound of a design answer, and the
    most a tool call is given (docs/architecture.md §6 "Requests"); settings override both.
    """

    model_config = ConfigDict(frozen=True)

    include_usage: bool  # accepts stream_options.include_usage
    strict_tools: bool  # accepts "strict": true on function definitions
    reasoning_field: bool  # streams reasoning_content apart from content
    tool_choice: bool  # tool_choice may be sent
    text_tool_calls: bool = False  # recover calls written as text in the content
    one_call_per_round: bool = False  # ask for one tool per collection round
    constraint: Constraint = "none"
    spec_format: SpecFormat = "none"
    # a constrained profile asks for one tool per round, so that every round is constrained
    one_call_when_constrained: bool = False
    design_tokens: int = 1024
    call_tokens_max: int = 2048


PROFILE_CAPABILITIES: dict[str, ProviderCapabilities] = {
    "openai": ProviderCapabilities(
        include_usage=True, strict_tools=True, reasoning_field=False, tool_choice=False,
        constraint="named", design_tokens=4096, call_tokens_max=8192,
    ),
    # a reasoning model spends part of max_tokens thinking: generous bounds
    "deepseek": ProviderCapabilities(
        include_usage=True, strict_tools=False, reasoning_field=True, tool_choice=False,
        design_tokens=8192, call_tokens_max=8192, spec_format="json_object",
    ),
    "ollama": ProviderCapabilities(
        include_usage=True, strict_tools=False, reasoning_field=False, tool_choice=False,
        text_tool_calls=True, constraint="format", one_call_when_constrained=True,
        spec_format="json_schema",
    ),
    "vllm": ProviderCapabilities(
        include_usage=True, strict_tools=False, reasoning_field=True, tool_choice=False,
        text_tool_calls=True, constraint="named", one_call_when_constrained=True,
        spec_format="json_schema",
    ),
    "llamacpp": ProviderCapabilities(
        include_usage=False, strict_tools=False, reasoning_field=True, tool_choice=False,
        text_tool_calls=True, one_call_per_round=True, constraint="wrapped",
        spec_format="json_schema",
    ),
    "generic": ProviderCapabilities(
        include_usage=False, strict_tools=False, reasoning_field=False, tool_choice=False
    ),
}

# Settings that override one profile capability each (None: the profile decides).
CAPABILITY_OVERRIDES: tuple[str, ...] = ("strict_tools", "text_tool_calls", "one_call_per_round")

# Hosted services refuse requests without a key; local servers do not need one.
PROFILES_NEEDING_KEY = frozenset({"openai", "deepseek"})


def hosted_profile(base_url: str) -> Profile | None:
    """The hosted service a URL names by its host (``api.deepseek.com``, ``api.openai.com``)."""
    try:
        host = (urlsplit(base_url.strip()).hostname or "").lower()
    except ValueError:
        return None
    if host == "deepseek.com" or host.endswith(".deepseek.com"):
        return "deepseek"
    if host == "openai.com" or host.endswith(".openai.com"):
        return "openai"
    return None


def guess_profile(base_url: str) -> Profile:
    """The profile before the server is asked: a hosted service by its host name, else
    ``generic``. Never from the port: a local server says what it is when probed
    (runtime/provider/probe.py)."""
    return hosted_profile(base_url) or "generic"


def _port_problem(url: str) -> str | None:
    """Why the port of ``url`` can take no connection (None: it has none, or a good one)."""
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        port = -1
    if port is None or 1 <= port <= 65535:
        return None
    written = parts.netloc.rpartition(":")[2]
    return f"{url!r} has the port {written}; a port is a whole number from 1 to 65535"


class ProviderSettings(BaseModel):
    """Everything needed to talk to one OpenAI-compatible chat endpoint."""

    # hide_input_in_errors: a rejected key must never be echoed in a validation message
    model_config = ConfigDict(frozen=True, extra="forbid", hide_input_in_errors=True)

    base_url: str = ""
    api_key: SecretStr = SecretStr("")
    model: str = ""
    temperature: float = Field(0.1, ge=0.0, le=2.0)
    profile: Profile = "generic"
    # True when no profile was given (SAM_AGENT_PROFILE, Settings): the server's probe decides
    profile_guessed: bool = False
    allow_tool_choice: bool = False  # overrides the profile; only for endpoints known to accept it
    # None: as the profile says (ProviderCapabilities); True/False overrides it
    strict_tools: bool | None = None
    text_tool_calls: bool | None = None
    one_call_per_round: bool | None = None
    # False: rounds are never held to their tool's schema (measuring, or a server that
    # mishandles it); None: as the profile says
    constrained_calls: bool | None = None
    # output bounds (tokens) of a design answer and of a tool call; None: as the profile and
    # the call's schema and observation say (runtime/run/budgets.py)
    design_max_tokens: int | None = Field(None, ge=64, le=131072)
    call_max_tokens: int | None = Field(None, ge=64, le=131072)
    connect_timeout: float = Field(10.0, gt=0)
    idle_read_timeout: float = Field(120.0, gt=0)  # longest silence between two body reads
    total_timeout: float = Field(600.0, gt=0)  # whole call, retries and waits included
    # no new SSE event for this long (a trickle of bytes or keep-alive comments is no event)
    idle_timeout: float = Field(60.0, gt=0)
    max_response_bytes: int = Field(16 * MIB, ge=1024)  # one response body, at most
    max_argument_bytes: int = Field(4 * MIB, ge=1024)  # one tool call's arguments, at most
    max_retries: int = Field(3, ge=0, le=10)  # for 429/5xx/connection failures before the body
    retry_broken_stream: bool = True  # a stream that breaks mid-body is retried once
    backoff_base: float = Field(0.5, ge=0)  # first wait; doubles per retry
    backoff_max: float = Field(8.0, ge=0)
    retry_after_max: float = Field(60.0, ge=0)  # a longer Retry-After surfaces the error instead

    @field_validator("api_key", mode="before")
    @classmethod
    def _header_safe_key(cls, value: Any) -> Any:
        # A key pasted with a line break or a non-breaking space cannot go into an HTTP
        # header; httpx would fail with the whole header (key included) in its message.
        raw = value.get_secret_value() if isinstance(value, SecretStr) else value
        if not isinstance(raw, str):
            return value
        key = raw.strip()
        if any(not (33 <= ord(ch) <= 126) for ch in key):
            raise ValueError(
                "api_key: contains a character that cannot be sent in an HTTP header (a space, "
                "line break or non-ASCII character, often from copy and paste); paste the key "
                "again"
            )
        return key

    @field_validator("base_url")
    @classmethod
    def _http_url(cls, value: str) -> str:
        # an empty URL is "not configured" (missing_fields says so); anything else must be
        # an HTTP(S) endpoint, or every request would fail as a retried connection error
        parts = urlsplit(value.strip())
        if value.strip() and (parts.scheme.lower() not in ("http", "https") or not parts.netloc):
            raise ValueError(
                f"{value.strip()!r} is not an http:// or https:// URL "
                "(e.g. https://api.deepseek.com/v1 or http://localhost:11434/v1)"
            )
        port = _port_problem(value.strip())
        if port is not None:
            raise ValueError(port)
        return value

    @model_validator(mode="before")
    @classmethod
    def _guess_profile_from_url(cls, data: Any) -> Any:
        if isinstance(data, dict) and not data.get("profile"):
            data = {**data, "profile": guess_profile(str(data.get("base_url") or "")),
                    "profile_guessed": True}
        return data

    @property
    def capabilities(self) -> ProviderCapabilities:
        caps = PROFILE_CAPABILITIES[self.profile]
        update: dict[str, Any] = {
            name: value
            for name in CAPABILITY_OVERRIDES
            if (value := getattr(self, name)) is not None
        }
        if self.allow_tool_choice:
            update["tool_choice"] = True
        if self.constrained_calls is False:
            update["constraint"] = "none"
            update["spec_format"] = "none"
        elif caps.constraint != "none" and caps.one_call_when_constrained and (
                self.one_call_per_round is None):
            update["one_call_per_round"] = True
        return caps.model_copy(update=update) if update else caps

    @property
    def chat_completions_url(self) -> str:
        base = self.base_url.strip().rstrip("/")
        if base.endswith("/chat/completions"):
            return base
        return f"{base}/chat/completions"

    @classmethod
    def from_env(
        cls, env: Mapping[str, str] | None = None, saved: Mapping[str, Any] | None = None
    ) -> ProviderSettings:
        """Saved (host) settings overridden by ``SAM_AGENT_BASE_URL``, ``SAM_AGENT_API_KEY``,
        ``SAM_AGENT_MODEL`` (and ``SAM_AGENT_PROFILE``) when those are set and non-empty.

        Unknown saved keys are ignored (the host's store holds other things too, and the run
        policy: ``config/policy.py``); a bad value raises a ``ValidationError`` naming the
        field (``env.PROVIDER_FIELDS`` names its variable).
        """
        variables = environment.provider_variables(env)
        values: dict[str, Any] = {
            key: value
            for key, value in (saved or {}).items()
            if key in cls.model_fields and value is not None and value != ""
        }
        values.update(variables.overrides)
        env_url = variables.overrides.get("base_url", "")
        saved_url = str((saved or {}).get("base_url") or "").strip()
        if env_url and env_url != saved_url and environment.PROFILE not in variables.names:
            # another URL from the environment: the saved profile described the saved URL
            values.pop("profile", None)
        return cls(**values)

    def missing_fields(self) -> list[str]:
        """Fields that must be filled before a call can succeed, in a fixed order."""
        missing = []
        if not self.base_url.strip():
            missing.append("base_url")
        if not self.model.strip():
            missing.append("model")
        if self.profile in PROFILES_NEEDING_KEY and not self.api_key.get_secret_value():
            missing.append("api_key")
        return missing

    def is_configured(self) -> bool:
        return not self.missing_fields()
