"""One example per Load tool, for MCP ``capabilities`` (docs/mcp.md "Tools"): a spec step and
the call that carries it out, about the part ``mcp_server.examples.EXAMPLE_PART`` describes
(a 2 x 1 plate of unit QUADs, elements 1 and 2) in a model that has the static step Load-1 (a
load cannot be created in ``Initial``)."""

from __future__ import annotations

from typing import Any

_ALL: dict[str, Any] = {"by": "all"}
_EDGE: dict[str, Any] = {"by": "box", "min": [0, 0, 0], "max": [0, 1, 0]}

MCP_EXAMPLES: dict[str, dict[str, Any]] = {
    "define_step": {
        "step": {"capability": "step", "action": "define_step",
                 "values": {"name": "Load-2", "previous": "Load-1"},
                 "text": "Define the static step Load-2 after Load-1."},
        "arguments": {"steps": [{"name": "Load-2", "previous": "Load-1"}]},
    },
    "apply_load": {
        "step": {"capability": "load", "action": "pressure", "scope": _ALL,
                 "values": {"name": "P1", "step": "Load-1", "magnitude": 1.5},
                 "text": "Apply a pressure of 1.5 on every element in Load-1."},
        "arguments": {"loads": [{"name": "P1", "kind": "pressure", "step": "Load-1",
                                 "magnitude": 1.5, "selection": _ALL}]},
    },
    "apply_boundary": {
        "step": {"capability": "boundary", "action": "fix", "scope": _EDGE,
                 "values": {"name": "Fixed", "step": "Initial",
                            "dofs": ["u1", "u2", "u3", "ur1", "ur2", "ur3"]},
                 "text": "Fix the nodes of the edge x = 0."},
        "arguments": {"conditions": [{"name": "Fixed", "kind": "fix", "step": "Initial",
                                      "dofs": ["u1", "u2", "u3", "ur1", "ur2", "ur3"],
                                      "selection": _EDGE}]},
    },
    "audit_loads": {
        "step": {"capability": "audit", "action": "audit", "values": {},
                 "text": "Audit the loads and boundary conditions."},
        "arguments": {},
    },
}
