"""The Part domain: tool schemas, IR, compilers and prompts (docs/architecture.md §4, §5)."""

from __future__ import annotations

from sam_plugin.compilers.part.module import MODULE

__all__ = ["MODULE"]
