"""One example per Mesh tool, for MCP ``capabilities`` (docs/mcp.md "Tools"): a spec
step and the call that carries it out, about the part ``mcp_server.examples.EXAMPLE_PART``
describes (a 2 x 1 plate of unit QUADs, elements 1 and 2, the Shell1 section defined)."""

from __future__ import annotations

from typing import Any

_ALL: dict[str, Any] = {"by": "all"}

MCP_EXAMPLES: dict[str, dict[str, Any]] = {
    "refine_mesh": {
        "step": {"capability": "refine", "action": "refine", "scope": _ALL,
                 "values": {"levels": 1}, "text": "Refine every element once."},
        "arguments": {"selection": _ALL, "levels": 1},
    },
    "audit_mesh": {
        "step": {"capability": "audit", "action": "audit", "values": {},
                 "text": "Audit the mesh."},
        "arguments": {},
    },
}
