"""The unit system a run's words for people say, for a run that is not the dock's (the CLI,
MCP plans, reruns): the model's declared units, else the one chosen in Settings (mm-N-t-s
when nothing was chosen), as the dock's ``unitLabel`` says them (docs/architecture.md)."""

from __future__ import annotations

from typing import Any

from sam_plugin.compilers.units import UnitSystem, declared_units, unit_system
from sam_plugin.runtime.config.store import SettingsStore


def model_units(host: Any, model_name: str) -> tuple[UnitSystem, bool]:
    """(the units, whether the model declares them) for ``model_name`` on ``host``."""
    try:
        model = host.model(model_name)
    except Exception:  # noqa: BLE001 - a host that cannot say: the Settings' units
        model = None
    declared = declared_units(model)
    if declared is not None:
        return declared, True
    return unit_system(str(SettingsStore().load().get("length_unit") or "mm")), False
