"""One example per Property tool, for MCP ``capabilities`` (docs/mcp.md "Tools"): a spec
step and the call that carries it out, about the part ``mcp_server.examples.EXAMPLE_PART``
describes (a 2 x 1 plate of unit QUADs, elements 1 and 2, the Shell1 section defined)."""

from __future__ import annotations

from typing import Any

_ALL: dict[str, Any] = {"by": "all"}

MCP_EXAMPLES: dict[str, dict[str, Any]] = {
    "define_property": {
        "step": {"capability": "define", "action": "define_material",
                 "values": {"name": "Steel", "E": 210000, "nu": 0.3},
                 "text": "Define the material Steel, E 210000, nu 0.3."},
        "arguments": {"materials": [{"name": "Steel", "youngs_modulus": 210000,
                                     "poisson_ratio": 0.3}]},
    },
    "assign_property": {
        "step": {"capability": "assign", "action": "assign_section", "scope": _ALL,
                 "values": {"section": "Shell1"},
                 "text": "Assign Shell1 to every element."},
        "arguments": {"assignments": [{"section": "Shell1", "selection": _ALL}]},
    },
    "audit_property": {
        "step": {"capability": "audit", "action": "audit", "values": {},
                 "text": "Audit the properties."},
        "arguments": {},
    },
}
