"""Mode name → DomainModule. Modules are imported lazily so one broken domain stays local."""

from __future__ import annotations

import importlib

from sam_plugin.compilers.protocol import DomainModule

_MODULE_PATHS = {
    "part": "sam_plugin.compilers.part",
    "property": "sam_plugin.compilers.property",
    "mesh": "sam_plugin.compilers.mesh",
    "load": "sam_plugin.compilers.load",
}

MODES: tuple[str, ...] = tuple(_MODULE_PATHS)


def module_path(mode: str) -> str:
    """The package of ``mode``'s domain."""
    try:
        return _MODULE_PATHS[mode]
    except KeyError:
        raise ValueError(f"mode: unknown mode {mode!r}; legal modes: {', '.join(MODES)}") from None


def get_module(mode: str) -> DomainModule:
    """The domain module for ``mode`` (its package exposes ``MODULE``)."""
    module: DomainModule = importlib.import_module(module_path(mode)).MODULE
    return module


def snapshot_covers() -> tuple[str, ...]:
    """Every registered domain's ``snapshot_covers``, in registry order, each once: a run of
    any mode keeps and restores every repository some domain may change."""
    covers: dict[str, None] = {}
    for mode in MODES:
        covers.update(dict.fromkeys(get_module(mode).snapshot_covers))
    return tuple(covers)
