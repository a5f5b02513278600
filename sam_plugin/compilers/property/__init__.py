"""The Property domain: materials, sections, assignments, orientations.

Tools and script: docs/architecture.md §4, §5.
"""

from __future__ import annotations

from sam_plugin.compilers.property.module import MODULE

__all__ = ["MODULE"]
