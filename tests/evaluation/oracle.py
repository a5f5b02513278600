"""What a careful model would answer for every task of eval/suite: the spec (with its
capability line) and one call per tool. Served by the loopback fake, it proves that each
task is solvable through the pipeline and that its acceptance checks are right."""

from __future__ import annotations

from typing import Any

ALL = {"by": "all"}


def box(low: list[float], high: list[float]) -> dict[str, Any]:
    return {"by": "box", "min": low, "max": high}


def patch(corners: list[list[float]], nu: int, nv: int, shape: str = "QUAD") -> dict[str, Any]:
    return {"id": "P1", "shape": shape, "corners": corners, "divisions": [nu, nv]}


def rect(x0: float, y0: float, x1: float, y1: float) -> list[list[float]]:
    return [[x0, y0, 0], [x1, y0, 0], [x1, y1, 0], [x0, y1, 0]]


STEEL = {"name": "Steel", "youngs_modulus": 210000, "poisson_ratio": 0.3}
MERGE = {"merge_coincident_nodes": {"tolerance": 0.001}}

# task name -> (capabilities line, [(tool, arguments)])
ORACLE: dict[str, tuple[str, list[tuple[str, dict[str, Any]]]]] = {
    "part_build_plate": ("Planned Part capabilities: build", [
        ("build_part", {"patches": [patch(rect(0, 0, 60, 100), 6, 10)]})]),
    "part_build_tri_plate": ("Planned Part capabilities: build", [
        ("build_part", {"patches": [patch(rect(0, 0, 40, 20), 4, 2, "TRI")]})]),
    "part_build_beam_line": ("Planned Part capabilities: build", [
        ("build_part", {"lines": [{"id": "L1", "start": [0, 0, 0], "end": [1000, 0, 0],
                                   "divisions": 10}]})]),
    "part_build_zh_plate": ("计划 Part 操作类别：build", [
        ("build_part", {"patches": [patch(rect(0, 0, 100, 50), 10, 5)]})]),
    "part_build_with_set": ("Planned Part capabilities: build", [
        ("build_part", {"patches": [patch(rect(0, 0, 30, 30), 3, 3)],
                        "element_sets": [{"name": "PLATE", "element_ids": ["P1"]}]})]),
    "part_edit_add_quad_reuse": ("Planned Part capabilities: edit", [
        ("edit_part", {"nodes": [{"id": "a", "coordinates": [2, 0, 0]},
                                 {"id": "b", "coordinates": [3, 0, 0]},
                                 {"id": "c", "coordinates": [3, 1, 0]},
                                 {"id": "d", "coordinates": [2, 1, 0]}],
                       "add_elements": [{"id": "q", "shape": "QUAD",
                                         "node_ids": ["a", "b", "c", "d"]}]})]),
    "part_edit_delete_box": ("Planned Part capabilities: edit", [
        ("edit_part", {"delete_elements": box([0, 0, 0], [5, 5, 0])})]),
    "part_edit_move_node": ("Planned Part capabilities: edit", [
        ("edit_part", {"move_nodes": [{"label": 5, "coordinates": [1, 1, 0.5]}]})]),
    "part_edit_set_by_box": ("Planned Part capabilities: edit", [
        ("edit_part", {"element_sets": [{"name": "LEFT",
                                         "selection": box([0, 0, 0], [2, 10, 0])}]})]),
    "part_edit_replace_everything": ("Planned Part capabilities: edit", [
        ("edit_part", {"clear_all": True, "add_patches": [patch(rect(0, 0, 10, 10), 1, 1)]})]),
    "part_edit_zh_add_beam": ("计划 Part 操作类别：edit", [
        ("edit_part", {"add_lines": [{"id": "L1", "start": [0, 0, 0], "end": [0, 0, 100],
                                      "divisions": 1}]})]),
    "part_transform_translate": ("Planned Part capabilities: transform", [
        ("transform_part", {"operations": [{"op": "translate", "vector": [100, 0, 0]}]})]),
    "part_transform_rotate": ("Planned Part capabilities: transform", [
        ("transform_part", {"operations": [{"op": "rotate", "origin": [0, 0, 0],
                                            "axis": [0, 0, 1], "angle_deg": 90}]})]),
    "part_transform_mirror_copy": ("Planned Part capabilities: transform", [
        ("transform_part", {"operations": [{"op": "mirror", "origin": [0, 0, 0],
                                            "normal": [1, 0, 0], "copy": True}]})]),
    "part_transform_scale": ("Planned Part capabilities: transform", [
        ("transform_part", {"operations": [{"op": "scale", "origin": [0, 0, 0],
                                            "factor": 2}]})]),
    "part_transform_linear_array": ("Planned Part capabilities: transform", [
        ("transform_part", {"operations": [{"op": "linear_array", "vector": [10, 0, 0],
                                            "count": 4}]})]),
    "part_chain_copy_merge_audit": ("Planned Part capabilities: transform, repair, audit", [
        ("transform_part", {"operations": [{"op": "translate_copy", "vector": [10, 0, 0]}]}),
        ("repair_part", MERGE),
        ("audit_part", {})]),
    "part_chain_zh_translate_merge_audit": ("计划 Part 操作类别：transform, repair, audit", [
        ("transform_part", {"operations": [{"op": "translate", "vector": [500, 0, 0]}]}),
        ("repair_part", MERGE),
        ("audit_part", {})]),
    "part_repair_merge": ("Planned Part capabilities: repair", [("repair_part", MERGE)]),
    "part_repair_duplicates_free": ("Planned Part capabilities: repair", [
        ("repair_part", {"delete_duplicate_elements": True, "delete_free_nodes": True})]),
    "part_audit_only": ("Planned Part capabilities: audit", [("audit_part", {})]),
    "part_large_translate": ("Planned Part capabilities: transform", [
        ("transform_part", {"operations": [{"op": "translate", "vector": [0, 0, 25]}]})]),
    "property_define_shell": ("Planned Property capabilities: define", [
        ("define_property", {"materials": [{**STEEL, "density": 7.85e-9}],
                             "sections": [{"name": "SHELL_5", "kind": "shell",
                                           "material": "Steel", "thickness": 5}]})]),
    "property_define_beam_section": ("Planned Property capabilities: define", [
        ("define_property", {"materials": [{"name": "Alu", "youngs_modulus": 70000,
                                            "poisson_ratio": 0.33}],
                             "sections": [{"name": "BEAM_R", "kind": "beam", "material": "Alu",
                                           "profile": {"shape": "rectangle", "a": 10,
                                                       "b": 20}}]})]),
    "property_chain_define_assign_audit": (
        "Planned Property capabilities: define, assign, audit", [
            ("define_property", {"materials": [STEEL],
                                 "sections": [{"name": "S5", "kind": "shell",
                                               "material": "Steel", "thickness": 5}]}),
            ("assign_property", {"assignments": [{"section": "S5", "selection": ALL}]}),
            ("audit_property", {})]),
    "property_assign_set": ("Planned Property capabilities: assign", [
        ("assign_property", {"assignments": [{"section": "SHELL_2",
                                              "selection": {"by": "set", "name": "LEFT"}}]})]),
    "property_beam_orientation": ("Planned Property capabilities: assign", [
        ("assign_property", {"assignments": [{"section": "B1", "selection": ALL}],
                             "beam_orientations": [{"selection": ALL, "n1": [0, 0, 1]}]})]),
    "property_zh_define_assign": ("计划 Property 操作类别：define, assign", [
        ("define_property", {"materials": [STEEL],
                             "sections": [{"name": "SHELL_2", "kind": "shell",
                                           "material": "Steel", "thickness": 2}]}),
        ("assign_property", {"assignments": [{"section": "SHELL_2", "selection": ALL}]})]),
    "property_audit_only": ("Planned Property capabilities: audit", [("audit_property", {})]),
    "mesh_refine_all": ("Planned Mesh capabilities: refine", [
        ("refine_mesh", {"selection": ALL, "levels": 1})]),
    "mesh_chain_refine_box_audit": ("Planned Mesh capabilities: refine, audit", [
        ("refine_mesh", {"selection": box([0, 0, 0], [2, 2, 0]), "levels": 1}),
        ("audit_mesh", {})]),
    "mesh_refine_beams_zh": ("计划 Mesh 操作类别：refine", [
        ("refine_mesh", {"selection": {"by": "shape", "shape": "BEAM"}, "levels": 2})]),
    "mesh_refine_keeps_sections": ("Planned Mesh capabilities: refine", [
        ("refine_mesh", {"selection": {"by": "set", "name": "TOP"}, "levels": 1})]),
    "mesh_large_refine_audit": ("Planned Mesh capabilities: refine, audit", [
        ("refine_mesh", {"selection": box([0, 0, 0], [10, 10, 0]), "levels": 1}),
        ("audit_mesh", {})]),
    # nothing may run: no capability of the module fits, or the compiler refuses
    "refuse_outside_load": ("This asks for loads and boundary conditions; Part mode has no "
                            "operation for them.", []),
    "refuse_zh_boundary": ("约束和载荷不在本模块的能力范围内。", []),
    "refuse_remesh_without_intent": ("Planned Part capabilities: edit", [
        ("edit_part", {"clear_all": True, "add_patches": [patch(rect(0, 0, 10, 10), 4, 4)]})]),
    "refuse_property_moves_nodes": ("Those are geometry changes, which Property mode never "
                                    "makes.", []),
    "refuse_zh_property_translate": ("这是几何变换，属性模式不能修改几何。", []),
    "refuse_mesh_delete": ("Mesh mode has no operation for this request.", []),
}
