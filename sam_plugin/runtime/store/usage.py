"""What a run cost at the provider: calls, tokens in/out and seconds spent waiting for it."""

from __future__ import annotations

from typing import Any

from sam_plugin.runtime.store.run_store import ProviderUsage


class UsageMeter:
    """Adds up every provider call of one run (design, revisions, exploration, collection)."""

    def __init__(self, name: str, model: str) -> None:
        self.usage = ProviderUsage(name=name, model=model)

    def add(self, response: Any, seconds: float) -> None:
        """One finished (or failed) call; ``response`` may carry an OpenAI ``usage`` dict."""
        usage = self.usage
        update: dict[str, Any] = {"calls": usage.calls + 1,
                                  "seconds": round(usage.seconds + seconds, 3)}
        reported = getattr(response, "usage", None)
        if isinstance(reported, dict):
            for field, key in (("prompt_tokens", "prompt_tokens"),
                               ("completion_tokens", "completion_tokens")):
                value = reported.get(key)
                if isinstance(value, int):
                    update[field] = (getattr(usage, field) or 0) + value
        self.usage = usage.model_copy(update=update)
