"""Mode name → DomainModule: the one list of the domains (docs/architecture.md "Adding a
domain"). Modules are imported lazily so one broken domain stays local; what a front end
shows of a mode before it is imported is data files of the domain's own package, read
without importing it: its title in each language (``mode_title.json``), the demo's
example requests with their recorded answers (``demo_examples.json``) and the repositories
its snapshot covers (``snapshot_covers.json``, the same as its ``snapshot_covers``: a test
holds the two together), so a run of one mode imports no other domain."""

from __future__ import annotations

import importlib
import importlib.util
import json
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Literal, get_args

if TYPE_CHECKING:  # the protocol names its modes by this Literal
    from sam_plugin.compilers.protocol import DomainModule

# the registered modes, each a package ``sam_plugin/compilers/<mode>/`` exposing ``MODULE``
ModeName = Literal["part", "property", "mesh", "load"]

_MODULE_PATHS = {mode: f"sam_plugin.compilers.{mode}" for mode in get_args(ModeName)}

MODES: tuple[str, ...] = tuple(_MODULE_PATHS)
TITLE_FILE = "mode_title.json"
COVERS_FILE = "snapshot_covers.json"


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


def domain_file(mode: str, name: str) -> Path | None:
    """The data file ``name`` of ``mode``'s package, found without running the package; None
    when it has none (or the mode is unknown)."""
    try:
        found = importlib.util.find_spec(module_path(mode))
    except (ValueError, ImportError):
        return None
    folders = list(found.submodule_search_locations or []) if found is not None else []
    path = Path(folders[0]) / name if folders else None
    return path if path is not None and path.is_file() else None


@cache
def mode_titles(mode: str) -> dict[str, str]:
    """``mode``'s title by language (``en``, ``zh_CN``), from its package's
    ``mode_title.json``; ``{"en": "Mode"}`` for a package that has none."""
    path = domain_file(mode, TITLE_FILE)
    if path is None:
        return {"en": mode.capitalize()}
    titles = json.loads(path.read_text(encoding="utf-8"))
    return {str(language): str(title) for language, title in titles.items()}


def mode_title(mode: str, language: str = "en") -> str:
    """``mode``'s title in ``language`` (English where it has none in that language)."""
    titles = mode_titles(mode)
    return titles.get(language) or titles["en"]


def domain_covers(mode: str) -> tuple[str, ...]:
    """``mode``'s ``snapshot_covers``, from its package's ``snapshot_covers.json`` (a list of
    names) without importing the package; from the imported module for one that has none."""
    path = domain_file(mode, COVERS_FILE)
    if path is None:
        return tuple(get_module(mode).snapshot_covers)
    return tuple(str(name) for name in json.loads(path.read_text(encoding="utf-8")))


def snapshot_covers() -> tuple[str, ...]:
    """Every registered domain's ``snapshot_covers``, in registry order, each once: a run of
    any mode keeps and restores every repository some domain may change."""
    covers: dict[str, None] = {}
    for mode in MODES:
        covers.update(dict.fromkeys(domain_covers(mode)))
    return tuple(covers)
