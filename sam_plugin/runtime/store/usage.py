"""What a run cost at the provider: calls, tokens in/out and seconds spent waiting for it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from sam_plugin.runtime.store.run_store import ProviderUsage


@runtime_checkable
class ReportsUsage(Protocol):
    """A provider answer (a chat response, an exploration) with the OpenAI ``usage`` dict."""

    usage: Mapping[str, Any] | None


class UsageMeter:
    """Adds up every provider call of one run (design, revisions, exploration, collection)."""

    def __init__(self, name: str, model: str) -> None:
        self.usage = ProviderUsage(name=name, model=model)

    def add(self, response: object, seconds: float) -> None:
        """One finished call (``response``, which may report its usage), or a failed one
        (None)."""
        usage = self.usage
        update: dict[str, Any] = {"calls": usage.calls + 1,
                                  "seconds": round(usage.seconds + seconds, 3)}
        reported = response.usage if isinstance(response, ReportsUsage) else None
        if isinstance(reported, Mapping):
            prompt, completion = reported.get("prompt_tokens"), reported.get("completion_tokens")
            if isinstance(prompt, int):
                update["prompt_tokens"] = (usage.prompt_tokens or 0) + prompt
            if isinstance(completion, int):
                update["completion_tokens"] = (usage.completion_tokens or 0) + completion
        self.usage = usage.model_copy(update=update)
