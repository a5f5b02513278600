"""SAM Agent plugin: human-gated deterministic tool compilation for the SAM pre-processor.

The host (SAM, or the offline host in ``stubs/``) reads ``plugin.json`` and calls
``load(host)`` / ``unload(host)``; everything else is imported lazily so that the core
runs without Qt.
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"


def load(host: Any) -> Any:
    """Plugin entry point called by the host with its host object."""
    from sam_plugin.ui.host_adapter import load_plugin

    return load_plugin(host)


def unload(host: Any) -> None:
    """Remove the dock and release every connection the plugin made."""
    from sam_plugin.ui.host_adapter import unload_plugin

    unload_plugin(host)
