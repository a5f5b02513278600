"""The provider line's note when the local model of ``sam-agent local`` answers."""

from __future__ import annotations

from typing import Any

from sam_plugin.local_llm.status import local_status
from sam_plugin.runtime.provider.choice import endpoint_host
from sam_plugin.ui.i18n import tr


def local_model_note(choice: Any) -> str:
    """`` — the local model, on this computer`` when ``choice`` is its endpoint, else ""."""
    live = getattr(choice, "live", None)
    if choice is None or choice.is_replay or live is None:
        return ""
    now = local_status()
    if now.state not in ("ready", "serving") or now.base_url is None:
        return ""
    if endpoint_host(live.base_url) != endpoint_host(now.base_url) or live.model != now.model:
        return ""
    return " — " + tr("the local model, on this computer")
