"""The Mesh domain: uniform refinement and the mesh audit (docs/architecture.md §4, §5)."""

from __future__ import annotations

from sam_plugin.compilers.mesh.module import MODULE

__all__ = ["MODULE"]
