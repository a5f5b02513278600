"""One example per tool, for ``capabilities`` (docs/mcp.md "Tools"): a spec step and the call
that carries it out, as an agent would send them in ``plan_change``.

Examples, never defaults: an agent copies shapes from them, so each is small and plainly
about a made-up part. ``tests/mcp/test_examples.py`` reads each step as a spec of its mode
and compiles each call on a part it fits, so none goes stale.
"""

from __future__ import annotations

from typing import Any

# the part the examples are about: a 2 x 1 QUAD plate, elements 1 and 2, corner (0, 0, 0)
EXAMPLE_PART = "a 2 x 1 plate of unit QUADs (elements 1, 2), the Shell1 section defined"

_ALL: dict[str, Any] = {"by": "all"}

EXAMPLES: dict[str, dict[str, Any]] = {
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


def example(tool: str) -> dict[str, Any] | None:
    """The example of ``tool`` (a fresh copy), or None."""
    import copy

    found = EXAMPLES.get(tool)
    return copy.deepcopy(found) if found is not None else None
