"""One example per tool, for ``capabilities`` (docs/mcp.md "Tools"): a spec step and the call
that carries it out, as an agent would send them in ``plan_change``.

Examples, never defaults: an agent copies shapes from them, so each is small and plainly
about a made-up part. Each domain contributes its own (``DomainModule.mcp_examples``);
``tests/mcp/test_capabilities.py`` plans each one on a part it fits, so none goes stale.
"""

from __future__ import annotations

import copy
from typing import Any

from sam_plugin.compilers.protocol import DomainModule

# the part the examples are about: a 2 x 1 QUAD plate, elements 1 and 2, corner (0, 0, 0)
EXAMPLE_PART = "a 2 x 1 plate of unit QUADs (elements 1, 2), the Shell1 section defined"


def example(module: DomainModule, tool: str) -> dict[str, Any] | None:
    """The example ``module`` gives for ``tool`` (a fresh copy), or None."""
    found = module.mcp_examples.get(tool)
    return copy.deepcopy(dict(found)) if found is not None else None
