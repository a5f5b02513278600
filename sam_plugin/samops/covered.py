"""Model repositories a domain adds to the snapshot (docs/architecture.md §5 "Snapshot and
restore"), each captured, compared and put back by a samops module the domain names.

The snapshot itself knows the target part and the property definitions. A domain whose
calls change another repository of the model (the Load mode's steps, loads and boundary
conditions) names, in ``DomainModule.snapshot_covers``, a module ``sam_plugin.samops.<name>``
that provides:

- ``missing(model) -> list[str]``: the host calls it needs that ``model`` lacks;
- ``capture(model) -> list[Any]``: the entries as plain JSON data (lists, strings, numbers,
  booleans, None), in the host's order, so that a snapshot file keeps them exactly;
- ``differences(saved, model) -> list[str]``: what differs now, in the analyst's words;
- ``restore(model, saved) -> None``: put the entries back (called after the part and the
  definitions are back, so the sets they name exist again).

A name is a plain identifier: a snapshot file can only name a module that ships in samops.
"""

from __future__ import annotations

import importlib
import json
from types import ModuleType
from typing import Any

Covered = dict[str, list[Any]]  # covering module name -> its entries as captured
_CALLS = ("missing", "capture", "differences", "restore")


def covering_module(name: str) -> ModuleType:
    """The samops module ``name`` (ValueError when it is no covering module)."""
    if not isinstance(name, str) or not name.isidentifier():
        raise ValueError(f"covered repository {name!r} is not a samops module name")
    try:
        module = importlib.import_module(f"sam_plugin.samops.{name}")
    except ImportError:
        raise ValueError(f"covered repository {name!r}: no such samops module") from None
    lacking = [call for call in _CALLS if not callable(getattr(module, call, None))]
    if lacking:
        raise ValueError(f"samops.{name} covers no repository: it lacks {', '.join(lacking)}")
    return module


def missing(model: Any, names: tuple[str, ...]) -> list[str]:
    return [call for name in names for call in covering_module(name).missing(model)]


def capture(model: Any, names: tuple[str, ...]) -> Covered:
    """Each module's entries, as plain data (a JSON round trip: what a file gives back)."""
    return {name: json.loads(json.dumps(covering_module(name).capture(model)))
            for name in names}


def differences(saved: Covered, model: Any) -> list[str]:
    return [line for name, entries in saved.items()
            for line in covering_module(name).differences(entries, model)]


def restore(model: Any, saved: Covered) -> None:
    for name, entries in saved.items():
        covering_module(name).restore(model, entries)
