"""The Load domain: analysis steps, loads and boundary conditions (docs/architecture.md §3
"Loads and boundary conditions", §4)."""

from __future__ import annotations

from sam_plugin.compilers.load.module import MODULE

__all__ = ["MODULE"]
