"""SAM Agent plugin: human-gated deterministic tool compilation for the SAM pre-processor.

The host (SAM, or the offline host in ``stubs/``) reads ``plugin.json`` and calls
``load(host)`` / ``unload(host)`` with an object shaped as ``host_api.PluginHost``;
everything else is imported lazily so that the core runs without Qt.
"""

from __future__ import annotations

import logging
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sam_plugin.host_api import PluginHost
    from sam_plugin.launch import Launch

__version__ = "0.1.0"


def load(host: PluginHost, launch: Launch | None = None) -> Any:
    """Plugin entry point called by the host with its host object (and, from the demo, its
    ``launch`` configuration). A host that cannot carry the dock (another Qt binding, an old
    Qt or host, a missing member) gets one logged line and ``None`` back instead of an
    exception (docs/install.md)."""
    from sam_plugin.host_check import load_problem

    problem = load_problem(host)
    if problem:
        logging.getLogger(__name__).error(problem)
        return None
    from sam_plugin.ui.host_adapter import load_plugin

    return load_plugin(host, launch)


def unload(host: PluginHost) -> None:
    """Remove the dock and release every connection the plugin made (nothing when the load
    was refused: then no Qt is imported either)."""
    adapter = sys.modules.get("sam_plugin.ui.host_adapter")
    if adapter is not None:
        adapter.unload_plugin(host)
