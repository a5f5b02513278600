"""What a careful model would answer for every task of eval/suite: the spec as data (its
steps, docs/architecture.md §4 "The spec") and one call per tool carrying them out. Served
by the loopback fake, it proves that each task is solvable through the pipeline and that its
acceptance checks are right; a refusal is words, never a spec."""

from __future__ import annotations

from typing import Any

from tests.support.specs import step

ALL = {"by": "all"}
LEFT = {"by": "set", "name": "LEFT"}


def box(low: list[float], high: list[float]) -> dict[str, Any]:
    return {"by": "box", "min": low, "max": high}


def patch(corners: list[list[float]], nu: int, nv: int, shape: str = "QUAD") -> dict[str, Any]:
    return {"id": "P1", "shape": shape, "corners": corners, "divisions": [nu, nv]}


def rect(x0: float, y0: float, x1: float, y1: float) -> list[list[float]]:
    return [[x0, y0, 0], [x1, y0, 0], [x1, y1, 0], [x0, y1, 0]]


def element(shape: str, *nodes: list[float]) -> dict[str, Any]:
    """A new element as a step states it: its shape and the coordinates of its nodes."""
    return {"shape": shape, "nodes": list(nodes)}


def step_patch(corners: list[list[float]], nu: int, nv: int,
               shape: str = "QUAD") -> dict[str, Any]:
    """A patch as a step states it (no id: ids are the call's own)."""
    return {"shape": shape, "corners": corners, "divisions": [nu, nv]}


STEEL = {"name": "Steel", "youngs_modulus": 210000, "poisson_ratio": 0.3}
MERGE = {"merge_coincident_nodes": {"tolerance": 0.001}}

Steps = list[dict[str, Any]]


def part(action: str, scope: dict[str, Any] | None = None, **values: Any) -> dict[str, Any]:
    return step(action, scope, mode="part", **values)


def prop(action: str, scope: dict[str, Any] | None = None, **values: Any) -> dict[str, Any]:
    return step(action, scope, mode="property", **values)


def mesh(action: str, scope: dict[str, Any] | None = None, **values: Any) -> dict[str, Any]:
    return step(action, scope, mode="mesh", **values)


def load(action: str, scope: dict[str, Any] | None = None, **values: Any) -> dict[str, Any]:
    return step(action, scope, mode="load", **values)


def edge(low: list[float], high: list[float]) -> dict[str, Any]:
    return {"by": "box", "min": low, "max": high}


SIX = ["u1", "u2", "u3", "ur1", "ur2", "ur3"]
MERGE_STEP = part("merge_nodes", tolerance=0.001)

# task name -> (the spec's steps, or the words of a refusal; [(tool, arguments)])
ORACLE: dict[str, tuple[Steps | str, list[tuple[str, dict[str, Any]]]]] = {
    "part_build_plate": ([part("build", shape="QUAD", size=[60, 100], divisions=[6, 10])], [
        ("build_part", {"patches": [patch(rect(0, 0, 60, 100), 6, 10)]})]),
    "part_build_tri_plate": ([part("build", shape="TRI", size=[40, 20], divisions=[4, 2],
                                   elements=16)], [
        ("build_part", {"patches": [patch(rect(0, 0, 40, 20), 4, 2, "TRI")]})]),
    "part_build_beam_line": ([part("build", shape="BEAM", size=[1000], divisions=[10])], [
        ("build_part", {"lines": [{"id": "L1", "start": [0, 0, 0], "end": [1000, 0, 0],
                                   "divisions": 10}]})]),
    "part_build_zh_plate": ([part("build", shape="QUAD", size=[100, 50], divisions=[10, 5])], [
        ("build_part", {"patches": [patch(rect(0, 0, 100, 50), 10, 5)]})]),
    "part_build_with_set": ([part("build", shape="QUAD", size=[30, 30], divisions=[3, 3],
                                  sets=["PLATE"])], [
        ("build_part", {"patches": [patch(rect(0, 0, 30, 30), 3, 3)],
                        "element_sets": [{"name": "PLATE", "element_ids": ["P1"]}]})]),
    "part_edit_add_quad_reuse": ([part("add_elements", count=1, shape="QUAD", elements=[
        element("QUAD", [2, 0, 0], [3, 0, 0], [3, 1, 0], [2, 1, 0])])], [
        ("edit_part", {"nodes": [{"id": "a", "coordinates": [2, 0, 0]},
                                 {"id": "b", "coordinates": [3, 0, 0]},
                                 {"id": "c", "coordinates": [3, 1, 0]},
                                 {"id": "d", "coordinates": [2, 1, 0]}],
                       "add_elements": [{"id": "q", "shape": "QUAD",
                                         "node_ids": ["a", "b", "c", "d"]}]})]),
    "part_edit_delete_box": ([part("delete_elements", box([0, 0, 0], [5, 5, 0]))], [
        ("edit_part", {"delete_elements": box([0, 0, 0], [5, 5, 0])})]),
    "part_edit_move_node": ([part("move_nodes", labels=[5], to=[1, 1, 0.5])], [
        ("edit_part", {"move_nodes": [{"label": 5, "coordinates": [1, 1, 0.5]}]})]),
    "part_edit_set_by_box": ([part("create_set", box([0, 0, 0], [2, 10, 0]), name="LEFT")], [
        ("edit_part", {"element_sets": [{"name": "LEFT",
                                         "selection": box([0, 0, 0], [2, 10, 0])}]})]),
    "part_edit_replace_everything": ([part("clear_all"), part(
        "add_elements", count=1, shape="QUAD", patches=[step_patch(rect(0, 0, 10, 10), 1, 1)])], [
        ("edit_part", {"clear_all": True, "add_patches": [patch(rect(0, 0, 10, 10), 1, 1)]})]),
    "part_edit_zh_add_beam": ([part("add_elements", count=1, shape="BEAM", elements=[
        element("BEAM", [0, 0, 0], [0, 0, 100])])], [
        ("edit_part", {"nodes": [{"id": "a", "coordinates": [0, 0, 0]},
                                 {"id": "b", "coordinates": [0, 0, 100]}],
                       "add_elements": [{"id": "e", "shape": "BEAM",
                                         "node_ids": ["a", "b"]}]})]),
    "part_transform_translate": ([part("translate", ALL, vector=[100, 0, 0])], [
        ("transform_part", {"operations": [{"op": "translate", "vector": [100, 0, 0]}]})]),
    "part_transform_rotate": ([part("rotate", ALL, angle_deg=90, axis=[0, 0, 1],
                                    origin=[0, 0, 0])], [
        ("transform_part", {"operations": [{"op": "rotate", "origin": [0, 0, 0],
                                            "axis": [0, 0, 1], "angle_deg": 90}]})]),
    "part_transform_mirror_copy": ([part("mirror", ALL, copy=True, normal=[1, 0, 0],
                                         origin=[0, 0, 0])], [
        ("transform_part", {"operations": [{"op": "mirror", "origin": [0, 0, 0],
                                            "normal": [1, 0, 0], "copy": True}]})]),
    "part_transform_scale": ([part("scale", ALL, factor=2, origin=[0, 0, 0])], [
        ("transform_part", {"operations": [{"op": "scale", "origin": [0, 0, 0],
                                            "factor": 2}]})]),
    "part_transform_linear_array": ([part("linear_array", ALL, count=4, vector=[10, 0, 0])], [
        ("transform_part", {"operations": [{"op": "linear_array", "vector": [10, 0, 0],
                                            "count": 4}]})]),
    "part_chain_copy_merge_audit": ([part("translate_copy", ALL, vector=[10, 0, 0]),
                                     MERGE_STEP, part("audit")], [
        ("transform_part", {"operations": [{"op": "translate_copy", "vector": [10, 0, 0]}]}),
        ("repair_part", MERGE),
        ("audit_part", {})]),
    "part_chain_zh_translate_merge_audit": ([part("translate", ALL, vector=[500, 0, 0]),
                                             MERGE_STEP, part("audit")], [
        ("transform_part", {"operations": [{"op": "translate", "vector": [500, 0, 0]}]}),
        ("repair_part", MERGE),
        ("audit_part", {})]),
    "part_repair_merge": ([MERGE_STEP], [("repair_part", MERGE)]),
    "part_repair_duplicates_free": ([part("delete_duplicate_elements"),
                                     part("delete_free_nodes")], [
        ("repair_part", {"delete_duplicate_elements": True, "delete_free_nodes": True})]),
    "part_audit_only": ([part("audit")], [("audit_part", {})]),
    "part_large_translate": ([part("translate", ALL, vector=[0, 0, 25])], [
        ("transform_part", {"operations": [{"op": "translate", "vector": [0, 0, 25]}]})]),
    "property_define_shell": ([prop("define_material", name="Steel", E=210000, nu=0.3,
                                    density=7.85e-9),
                               prop("define_section", name="SHELL_5", kind="shell",
                                    material="Steel", thickness=5)], [
        ("define_property", {"materials": [{**STEEL, "density": 7.85e-9}],
                             "sections": [{"name": "SHELL_5", "kind": "shell",
                                           "material": "Steel", "thickness": 5}]})]),
    "property_define_beam_section": ([prop("define_material", name="Alu", E=70000, nu=0.33),
                                      prop("define_section", name="BEAM_R", kind="beam",
                                           material="Alu",
                                           profile={"shape": "rectangle", "a": 10, "b": 20})], [
        ("define_property", {"materials": [{"name": "Alu", "youngs_modulus": 70000,
                                            "poisson_ratio": 0.33}],
                             "sections": [{"name": "BEAM_R", "kind": "beam", "material": "Alu",
                                           "profile": {"shape": "rectangle", "a": 10,
                                                       "b": 20}}]})]),
    "property_chain_define_assign_audit": (
        [prop("define_material", name="Steel", E=210000, nu=0.3),
         prop("define_section", name="S5", kind="shell", material="Steel", thickness=5),
         prop("assign_section", ALL, section="S5"), prop("audit")], [
            ("define_property", {"materials": [STEEL],
                                 "sections": [{"name": "S5", "kind": "shell",
                                               "material": "Steel", "thickness": 5}]}),
            ("assign_property", {"assignments": [{"section": "S5", "selection": ALL}]}),
            ("audit_property", {})]),
    "property_assign_set": ([prop("assign_section", LEFT, section="SHELL_2")], [
        ("assign_property", {"assignments": [{"section": "SHELL_2", "selection": LEFT}]})]),
    "property_beam_orientation": ([prop("assign_section", ALL, section="B1"),
                                   prop("orient_beams", ALL, n1=[0, 0, 1])], [
        ("assign_property", {"assignments": [{"section": "B1", "selection": ALL}],
                             "beam_orientations": [{"selection": ALL, "n1": [0, 0, 1]}]})]),
    "property_zh_define_assign": ([prop("define_material", name="Steel", E=210000, nu=0.3),
                                   prop("define_section", name="SHELL_2", kind="shell",
                                        material="Steel", thickness=2),
                                   prop("assign_section", ALL, section="SHELL_2")], [
        ("define_property", {"materials": [STEEL],
                             "sections": [{"name": "SHELL_2", "kind": "shell",
                                           "material": "Steel", "thickness": 2}]}),
        ("assign_property", {"assignments": [{"section": "SHELL_2", "selection": ALL}]})]),
    "property_audit_only": ([prop("audit")], [("audit_property", {})]),
    "mesh_refine_all": ([mesh("refine", ALL, levels=1)], [
        ("refine_mesh", {"selection": ALL, "levels": 1})]),
    "mesh_chain_refine_box_audit": ([mesh("refine", box([0, 0, 0], [2, 2, 0]), levels=1),
                                     mesh("audit")], [
        ("refine_mesh", {"selection": box([0, 0, 0], [2, 2, 0]), "levels": 1}),
        ("audit_mesh", {})]),
    "mesh_refine_beams_zh": ([mesh("refine", {"by": "shape", "shape": "BEAM"}, levels=2)], [
        ("refine_mesh", {"selection": {"by": "shape", "shape": "BEAM"}, "levels": 2})]),
    "mesh_refine_keeps_sections": ([mesh("refine", {"by": "set", "name": "TOP"}, levels=1)], [
        ("refine_mesh", {"selection": {"by": "set", "name": "TOP"}, "levels": 1})]),
    "mesh_large_refine_audit": ([mesh("refine", box([0, 0, 0], [10, 10, 0]), levels=1),
                                 mesh("audit")], [
        ("refine_mesh", {"selection": box([0, 0, 0], [10, 10, 0]), "levels": 1}),
        ("audit_mesh", {})]),
    # nothing may run: no action of the module fits (the answer is words, not a spec), or the
    # compiler refuses (a remesh needs clear_all, which the request does not authorize)
    "refuse_outside_load": ("This asks for loads and boundary conditions; Part mode has no "
                            "operation for them.", []),
    "refuse_zh_boundary": ("约束和载荷不在本模块的能力范围内。", []),
    "refuse_remesh_without_intent": ([part("clear_all"), part(
        "add_elements", count=16, shape="QUAD", patches=[step_patch(rect(0, 0, 10, 10), 4, 4)])], [
        ("edit_part", {"clear_all": True, "add_patches": [patch(rect(0, 0, 10, 10), 4, 4)]})]),
    "refuse_property_moves_nodes": ("Those are geometry changes, which Property mode never "
                                    "makes.", []),
    "refuse_zh_property_translate": ("这是几何变换，属性模式不能修改几何。", []),
    "refuse_mesh_delete": ("Mesh mode has no operation for this request.", []),
    "load_pressure_set": (
        [load("pressure", {"by": "set", "name": "TOP"}, name="PTOP", step="Load-1",
              magnitude=5)],
        [("apply_load", {"loads": [{"name": "PTOP", "kind": "pressure", "step": "Load-1",
                                    "magnitude": 5,
                                    "selection": {"by": "set", "name": "TOP"}}]})]),
    "load_force_node_at_point": (
        [load("force", edge([40, 40, 0], [40, 40, 0]), name="TIP", step="Load-1",
              vector=[0, -200, 0])],
        [("apply_load", {"loads": [{"name": "TIP", "kind": "force", "step": "Load-1",
                                    "vector": [0, -200, 0],
                                    "selection": edge([40, 40, 0], [40, 40, 0])}]})]),
    "load_fix_edge": (
        [load("fix", edge([0, 0, 0], [0, 40, 0]), name="CLAMP")],
        [("apply_boundary", {"conditions": [{"name": "CLAMP", "kind": "fix",
                                             "step": "Initial", "dofs": SIX,
                                             "selection": edge([0, 0, 0], [0, 40, 0])}]})]),
    "load_displace_edge": (
        [load("displace", edge([40, 0, 0], [40, 40, 0]), name="PULL", step="Load-1",
              values={"u1": 0.5})],
        [("apply_boundary", {"conditions": [{"name": "PULL", "kind": "displace",
                                             "step": "Load-1", "values": {"u1": 0.5},
                                             "selection": edge([40, 0, 0], [40, 40, 0])}]})]),
    "load_step_then_pressure": (
        [load("define_step", name="Load-1", previous="Initial"),
         load("pressure", ALL, name="PALL", step="Load-1", magnitude=2)],
        [("define_step", {"steps": [{"name": "Load-1", "previous": "Initial"}]}),
         ("apply_load", {"loads": [{"name": "PALL", "kind": "pressure", "step": "Load-1",
                                    "magnitude": 2, "selection": ALL}]})]),
    "load_zh_fix_bottom": (
        [load("fix", edge([0, 0, 0], [40, 0, 0]), name="BASE")],
        [("apply_boundary", {"conditions": [{"name": "BASE", "kind": "fix",
                                             "step": "Initial", "dofs": SIX,
                                             "selection": edge([0, 0, 0], [40, 0, 0])}]})]),
    "load_zh_force_point": (
        [load("force", edge([40, 0, 0], [40, 0, 0]), name="F1", step="Load-1",
              vector=[100, 0, 0])],
        [("apply_load", {"loads": [{"name": "F1", "kind": "force", "step": "Load-1",
                                    "vector": [100, 0, 0],
                                    "selection": edge([40, 0, 0], [40, 0, 0])}]})]),
    "refuse_load_pressure_initial": ("A load cannot be created in the Initial step; Load "
                                     "mode applies loads in a later step.", []),
}
