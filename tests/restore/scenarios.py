"""One small scenario per tool, and the transform → repair → audit chain."""

from __future__ import annotations

from functools import partial

from restore_support import Scenario, plate

from tests.support.specs import ALL, answer, labels, named_set, step


def _nothing(sam: object) -> None:
    """Model-1 without the target part (build creates it)."""


PATCH = {"id": "P1", "shape": "QUAD", "corners": [[0, 0, 0], [2, 0, 0], [2, 2, 0], [0, 2, 0]],
         "divisions": [2, 2]}

BUILD = Scenario(
    "build_part", "part", _nothing,
    answer(step("build", shape="QUAD", size=[2, 2], divisions=[2, 2], sets=["Skin"]),
           summary="Build a 2 x 2 plate meshed 2 x 2 with QUAD elements, all in the set Skin."),
    [("build_part", {"patches": [PATCH], "element_sets": [{"name": "Skin",
                                                             "element_ids": ["P1"]}]})],
    "build a 2 x 2 plate meshed 2 x 2 with QUAD elements and put them in a set Skin")

EDIT = Scenario(
    "edit_part", "part", plate,
    answer(step("add_elements", count=1, shape="QUAD"), step("delete_elements", labels(1)),
           step("move_nodes", labels=[9], to=[2, 2.5, 0]),
           summary="Add one unit QUAD right of the plate, delete element 1, move node 9."),
    [("edit_part", {
        "nodes": [{"id": "a", "coordinates": [2, 0, 0]}, {"id": "b", "coordinates": [3, 0, 0]},
                  {"id": "c", "coordinates": [3, 1, 0]}, {"id": "d", "coordinates": [2, 1, 0]}],
        "add_elements": [{"id": "q", "shape": "QUAD", "node_ids": ["a", "b", "c", "d"]}],
        "delete_elements": {"by": "labels", "labels": [1]},
        "move_nodes": [{"label": 9, "coordinates": [2, 2.5, 0]}]})],
    "add a quad right of the plate, delete element 1 and move node 9 to (2, 2.5, 0)")

TRANSFORM = Scenario(
    "transform_part", "part", plate,
    answer(step("translate", ALL, vector=[10, 0, 0]),
           step("rotate", ALL, angle_deg=90, axis=[0, 0, 1], origin=[0, 0, 0]),
           step("translate_copy", ALL, vector=[0, 5, 0]),
           summary="Translate, rotate 90 degrees about Z, then copy 5 along Y."),
    [("transform_part", {"operations": [
        {"op": "translate", "vector": [10, 0, 0]},
        {"op": "rotate", "origin": [0, 0, 0], "axis": [0, 0, 1], "angle_deg": 90},
        {"op": "translate_copy", "vector": [0, 5, 0]}]})],
    "translate the plate 10 along X, rotate it 90 degrees about Z and copy it 5 along Y")

REPAIR = Scenario(
    "repair_part", "part", partial(plate, doubled=True),
    answer(step("merge_nodes", tolerance=1e-6), step("delete_duplicate_elements"),
           step("delete_free_nodes"),
           summary="Merge coincident nodes, delete duplicate elements and free nodes."),
    [("repair_part", {"merge_coincident_nodes": {"tolerance": 1e-6},
                      "delete_duplicate_elements": True, "delete_free_nodes": True})],
    "merge coincident nodes within 1e-6, delete duplicate elements and free nodes")

AUDIT = Scenario(
    "audit_part", "part", plate,
    answer(step("audit", checks=["counts", "free_nodes"]),
           summary="Audit counts and free nodes."),
    [("audit_part", {"checks": ["counts", "free_nodes"]})], "audit counts and free nodes")

DEFINE = Scenario(
    "define_property", "property", plate,
    answer(step("define_material", mode="property", name="Alu", E=70000, nu=0.33,
                density=2.7e-9),
           step("define_section", mode="property", name="Thin", kind="shell", material="Alu",
                thickness=1.5),
           step("define_section", mode="property", name="Tube", kind="beam", material="Alu",
                profile={"shape": "pipe", "r": 5, "t": 1}),
           summary="Aluminium, a 1.5 shell section and a pipe beam section."),
    [("define_property", {
        "materials": [{"name": "Alu", "youngs_modulus": 70000, "poisson_ratio": 0.33,
                       "density": 2.7e-9}],
        "sections": [{"name": "Thin", "kind": "shell", "material": "Alu", "thickness": 1.5},
                     {"name": "Tube", "kind": "beam", "material": "Alu",
                      "profile": {"shape": "pipe", "r": 5, "t": 1}}]})],
    "define aluminium (E 70000, nu 0.33, density 2.7e-9), a 1.5 shell section and a pipe "
    "beam section of radius 5 and wall 1")

ASSIGN = Scenario(
    "assign_property", "property", partial(plate, beams=True, properties=True),
    answer(step("assign_section", {"by": "shape", "shape": "QUAD"}, mode="property",
                section="Skin"),
           step("assign_section", named_set("Edge"), mode="property", section="Rail"),
           step("orient_beams", named_set("Edge"), mode="property", n1=[0, 0, 1]),
           summary="Skin on the quads, Rail on the edge beams, n1 along Z."),
    [("assign_property", {
        "assignments": [{"section": "Skin", "selection": {"by": "shape", "shape": "QUAD"}},
                        {"section": "Rail", "selection": {"by": "set", "name": "Edge"}}],
        "beam_orientations": [{"selection": {"by": "set", "name": "Edge"}, "n1": [0, 0, 1]}]})],
    "assign Skin to the quads and Rail to the edge beams, n1 along Z")

AUDIT_PROPERTY = Scenario(
    "audit_property", "property", partial(plate, properties=True),
    answer(step("audit", mode="property"), summary="Audit the properties."),
    [("audit_property", {})], "audit the properties")

REFINE = Scenario(
    "refine_mesh", "mesh", partial(plate, beams=True),
    answer(step("refine", ALL, mode="mesh", levels=1), summary="Refine every element once."),
    [("refine_mesh", {"selection": {"by": "all"}, "levels": 1})], "refine all elements once")

AUDIT_MESH = Scenario(
    "audit_mesh", "mesh", plate,
    answer(step("audit", mode="mesh"), summary="Audit the mesh."), [("audit_mesh", {})],
    "audit the mesh")

CHAIN = Scenario(
    "transform+repair+audit", "part", plate,
    answer(step("translate_copy", ALL, vector=[2, 0, 0]), step("merge_nodes", tolerance=1e-6),
           step("audit", checks=["counts", "free_nodes"]),
           summary="Copy the plate 2 along X, merge coincident nodes and audit."),
    [("transform_part", {"operations": [{"op": "translate_copy", "vector": [2, 0, 0]}]}),
     ("repair_part", {"merge_coincident_nodes": {"tolerance": 1e-6}}),
     ("audit_part", {"checks": ["counts", "free_nodes"]})],
    "copy the plate 2 along X, merge coincident nodes within 1e-6 and audit")

DEFINE_ASSIGN = Scenario(
    "define+assign", "property", plate,
    answer(step("define_material", mode="property", name="Steel", E=210000, nu=0.3),
           step("define_section", mode="property", name="Shell-1", kind="shell",
                material="Steel", thickness=2),
           step("assign_section", ALL, mode="property", section="Shell-1"),
           summary="Steel shell 2 mm on everything."),
    [("define_property", {
        "materials": [{"name": "Steel", "youngs_modulus": 210000, "poisson_ratio": 0.3}],
        "sections": [{"name": "Shell-1", "kind": "shell", "material": "Steel",
                      "thickness": 2}]}),
     ("assign_property", {"assignments": [{"section": "Shell-1", "selection": {"by": "all"}}]})],
    "steel (E 210000, nu 0.3) shell 2 mm on everything")

TRANSFORM_REPAIR = Scenario(
    "transform+repair", "part", plate,
    answer(step("translate_copy", ALL, vector=[2, 0, 0]), step("merge_nodes", tolerance=1e-6),
           summary="Copy the plate 2 along X and merge coincident nodes."),
    [("transform_part", {"operations": [{"op": "translate_copy", "vector": [2, 0, 0]}]}),
     ("repair_part", {"merge_coincident_nodes": {"tolerance": 1e-6}})],
    "copy the plate 2 along X and merge coincident nodes within 1e-6")

FAULT_MATRIX = [BUILD, EDIT, TRANSFORM, REPAIR, AUDIT, DEFINE, ASSIGN, AUDIT_PROPERTY, REFINE,
                AUDIT_MESH, CHAIN]
UNDOABLE = [BUILD, EDIT, TRANSFORM_REPAIR, DEFINE_ASSIGN, REFINE]
