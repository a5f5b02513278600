"""One small scenario per tool, and the transform → repair → audit chain."""

from __future__ import annotations

from functools import partial

from restore_support import Scenario, plate


def _nothing(sam: object) -> None:
    """Model-1 without the target part (build creates it)."""


PATCH = {"id": "P1", "shape": "QUAD", "corners": [[0, 0, 0], [2, 0, 0], [2, 2, 0], [0, 2, 0]],
         "divisions": [2, 2]}

BUILD = Scenario(
    "build_part", "part", _nothing,
    "Build a 2 x 2 plate meshed 2 x 2 with QUAD elements, all in the set Skin.\n"
    "Planned Part capabilities: build",
    [("build_part", {"patches": [PATCH], "element_sets": [{"name": "Skin",
                                                             "element_ids": ["P1"]}]})],
    "build a 2 x 2 plate meshed 2 x 2 with QUAD elements and put them in a set Skin")

EDIT = Scenario(
    "edit_part", "part", plate,
    "Add one unit QUAD right of the plate at x = 2..3, delete element 1, move node 9 to "
    "(2, 2.5, 0).\nPlanned Part capabilities: edit",
    [("edit_part", {
        "nodes": [{"id": "a", "coordinates": [2, 0, 0]}, {"id": "b", "coordinates": [3, 0, 0]},
                  {"id": "c", "coordinates": [3, 1, 0]}, {"id": "d", "coordinates": [2, 1, 0]}],
        "add_elements": [{"id": "q", "shape": "QUAD", "node_ids": ["a", "b", "c", "d"]}],
        "delete_elements": {"by": "labels", "labels": [1]},
        "move_nodes": [{"label": 9, "coordinates": [2, 2.5, 0]}]})],
    "add a quad right of the plate, delete element 1 and move node 9 to (2, 2.5, 0)")

TRANSFORM = Scenario(
    "transform_part", "part", plate,
    "Translate everything by (10, 0, 0), rotate it 90 degrees about Z through the origin, "
    "then copy it by translating 0 along Y by 5.\nPlanned Part capabilities: transform",
    [("transform_part", {"operations": [
        {"op": "translate", "vector": [10, 0, 0]},
        {"op": "rotate", "origin": [0, 0, 0], "axis": [0, 0, 1], "angle_deg": 90},
        {"op": "translate_copy", "vector": [0, 5, 0]}]})],
    "translate the plate 10 along X, rotate it 90 degrees about Z and copy it 5 along Y")

REPAIR = Scenario(
    "repair_part", "part", partial(plate, doubled=True),
    "Merge coincident nodes (tolerance 1e-6), delete duplicate elements and free nodes.\n"
    "Planned Part capabilities: repair",
    [("repair_part", {"merge_coincident_nodes": {"tolerance": 1e-6},
                      "delete_duplicate_elements": True, "delete_free_nodes": True})],
    "merge coincident nodes, delete duplicate elements and free nodes")

AUDIT = Scenario(
    "audit_part", "part", plate,
    "Audit counts and free nodes.\nPlanned Part capabilities: audit",
    [("audit_part", {"checks": ["counts", "free_nodes"]})], "audit counts and free nodes")

DEFINE = Scenario(
    "define_property", "property", plate,
    "Define material Alu (E = 70000, nu = 0.33, density 2.7e-9), a shell section Thin of "
    "Alu 1.5 thick and a beam section Tube of Alu with a pipe profile r = 5, t = 1.\n"
    "Planned Property capabilities: define",
    [("define_property", {
        "materials": [{"name": "Alu", "youngs_modulus": 70000, "poisson_ratio": 0.33,
                       "density": 2.7e-9}],
        "sections": [{"name": "Thin", "kind": "shell", "material": "Alu", "thickness": 1.5},
                     {"name": "Tube", "kind": "beam", "material": "Alu",
                      "profile": {"shape": "pipe", "r": 5, "t": 1}}]})],
    "define aluminium, a 1.5 shell section and a pipe beam section")

ASSIGN = Scenario(
    "assign_property", "property", partial(plate, beams=True, properties=True),
    "Assign Skin to all QUAD elements and Rail to the set Edge; orient the Edge beams with "
    "n1 = (0, 0, 1).\nPlanned Property capabilities: assign",
    [("assign_property", {
        "assignments": [{"section": "Skin", "selection": {"by": "shape", "shape": "QUAD"}},
                        {"section": "Rail", "selection": {"by": "set", "name": "Edge"}}],
        "beam_orientations": [{"selection": {"by": "set", "name": "Edge"}, "n1": [0, 0, 1]}]})],
    "assign Skin to the quads and Rail to the edge beams, n1 along Z")

AUDIT_PROPERTY = Scenario(
    "audit_property", "property", partial(plate, properties=True),
    "Audit the properties.\nPlanned Property capabilities: audit",
    [("audit_property", {})], "audit the properties")

REFINE = Scenario(
    "refine_mesh", "mesh", partial(plate, beams=True),
    "Refine every element once.\nPlanned Mesh capabilities: refine",
    [("refine_mesh", {"selection": {"by": "all"}, "levels": 1})], "refine all elements once")

AUDIT_MESH = Scenario(
    "audit_mesh", "mesh", plate,
    "Audit the mesh.\nPlanned Mesh capabilities: audit", [("audit_mesh", {})], "audit the mesh")

CHAIN = Scenario(
    "transform+repair+audit", "part", plate,
    "Copy the plate by translating it 2 along X, then merge coincident nodes (tolerance 1e-6) "
    "and audit counts and free nodes.\nPlanned Part capabilities: transform, repair, audit",
    [("transform_part", {"operations": [{"op": "translate_copy", "vector": [2, 0, 0]}]}),
     ("repair_part", {"merge_coincident_nodes": {"tolerance": 1e-6}}),
     ("audit_part", {"checks": ["counts", "free_nodes"]})],
    "copy the plate 2 along X, merge coincident nodes and audit")

DEFINE_ASSIGN = Scenario(
    "define+assign", "property", plate,
    "Define material Steel (E = 210000, nu = 0.3) and a shell section Shell-1 of Steel, "
    "thickness 2; assign Shell-1 to all elements.\nPlanned Property capabilities: define, assign",
    [("define_property", {
        "materials": [{"name": "Steel", "youngs_modulus": 210000, "poisson_ratio": 0.3}],
        "sections": [{"name": "Shell-1", "kind": "shell", "material": "Steel",
                      "thickness": 2}]}),
     ("assign_property", {"assignments": [{"section": "Shell-1", "selection": {"by": "all"}}]})],
    "steel shell 2 mm on everything")

TRANSFORM_REPAIR = Scenario(
    "transform+repair", "part", plate,
    "Copy the plate by translating it 2 along X, then merge coincident nodes (tolerance "
    "1e-6).\nPlanned Part capabilities: transform, repair",
    [("transform_part", {"operations": [{"op": "translate_copy", "vector": [2, 0, 0]}]}),
     ("repair_part", {"merge_coincident_nodes": {"tolerance": 1e-6}})],
    "copy the plate 2 along X and merge coincident nodes")

FAULT_MATRIX = [BUILD, EDIT, TRANSFORM, REPAIR, AUDIT, DEFINE, ASSIGN, AUDIT_PROPERTY, REFINE,
                AUDIT_MESH, CHAIN]
UNDOABLE = [BUILD, EDIT, TRANSFORM_REPAIR, DEFINE_ASSIGN, REFINE]
