"""One example per Part tool, for MCP ``capabilities`` (docs/mcp.md "Tools"): a spec
step and the call that carries it out, about the part ``mcp_server.examples.EXAMPLE_PART``
describes (a 2 x 1 plate of unit QUADs, elements 1 and 2, the Shell1 section defined)."""

from __future__ import annotations

from typing import Any

_ALL: dict[str, Any] = {"by": "all"}

MCP_EXAMPLES: dict[str, dict[str, Any]] = {
    "build_part": {
        "step": {"capability": "build", "action": "build",
                 "values": {"shape": "QUAD", "size": [60, 100], "divisions": [6, 10]},
                 "text": "Build a 60 x 100 plate of 6 x 10 QUADs."},
        "arguments": {"patches": [{"id": "P", "shape": "QUAD", "divisions": [6, 10],
                                   "corners": [[0, 0, 0], [60, 0, 0], [60, 100, 0],
                                               [0, 100, 0]]}]},
    },
    "edit_part": {
        "step": {"capability": "edit", "action": "create_set", "values": {"name": "LEFT"},
                 "scope": {"by": "labels", "labels": [1]},
                 "text": "Put element 1 in a new set LEFT."},
        "arguments": {"element_sets": [{"name": "LEFT",
                                        "selection": {"by": "labels", "labels": [1]}}]},
    },
    "transform_part": {
        "step": {"capability": "transform", "action": "translate", "scope": _ALL,
                 "values": {"vector": [5, 0, 0]}, "text": "Move the whole part 5 along X."},
        "arguments": {"operations": [{"op": "translate", "vector": [5, 0, 0],
                                      "selection": _ALL}]},
    },
    "repair_part": {
        "step": {"capability": "repair", "action": "merge_nodes",
                 "values": {"tolerance": 0.001},
                 "text": "Merge nodes closer than 0.001."},
        "arguments": {"merge_coincident_nodes": {"tolerance": 0.001}},
    },
    "audit_part": {
        "step": {"capability": "audit", "action": "audit",
                 "values": {"checks": ["counts", "free_nodes"]},
                 "text": "Audit counts and free nodes."},
        "arguments": {"checks": ["counts", "free_nodes"]},
    },
}
