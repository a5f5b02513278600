"""What a careful model would answer for every task of eval/suite-words: the spec's steps as
data (docs/architecture.md §4 "The spec"), or the words of a refusal, answered as
``{"refuse": why}``. Served by the loopback fake, it proves that each task is solvable through
the pipeline with the calls computed from the steps, and that its acceptance checks are
right. Units the request says in words are converted here, as the model's units (mm-N-t-s)
need: "70 GPa" is 70000, "5 cm" is 50, "7850 kg/m3" is 7.85e-9."""

from __future__ import annotations

from typing import Any

from oracle import ALL, Steps, box, edge, element, load, mesh, part, prop, rect, step_patch


def labels(*numbers: int) -> dict[str, Any]:
    return {"by": "labels", "labels": list(numbers)}


def named(name: str) -> dict[str, Any]:
    return {"by": "set", "name": name}


def shape(name: str) -> dict[str, Any]:
    return {"by": "shape", "shape": name}


def line(start: list[float], end: list[float], divisions: int) -> dict[str, Any]:
    return {"start": start, "end": end, "divisions": divisions}


def beam_line(start: list[float], end: list[float], divisions: int) -> dict[str, Any]:
    return part("build", shape="BEAM", lines=[line(start, end, divisions)])


def patch_build(corners: list[list[float]], nu: int, nv: int,
                shape_name: str = "QUAD") -> dict[str, Any]:
    return part("build", shape=shape_name, patches=[step_patch(corners, nu, nv, shape_name)])


def quad(*corners: list[float]) -> dict[str, Any]:
    return element("QUAD", *corners)


def beam(a: list[float], b: list[float]) -> dict[str, Any]:
    return element("BEAM", a, b)


def section(name: str, material: str, **values: Any) -> dict[str, Any]:
    kind = "shell" if "thickness" in values else "beam"
    return prop("define_section", name=name, kind=kind, material=material, **values)


def audit_part(*checks: str) -> Steps:
    return [part("audit", checks=list(checks))]


ORIGIN = [0, 0, 0]

# task name -> the spec's steps, or the words of a refusal
ORACLE_WORDS: dict[str, Steps | str] = {
    # -- Part: build
    "part_build_panel_xz": [patch_build([[0, 0, 0], [200, 0, 0], [200, 0, 200], [0, 0, 200]],
                                        8, 8)],
    "part_build_web_yz": [patch_build([[0, 0, 0], [0, 120, 0], [0, 120, 40], [0, 0, 40]], 6, 2)],
    "part_build_zh_xz_strip": [patch_build([[0, 0, 0], [300, 0, 0], [300, 0, 100],
                                            [0, 0, 100]], 6, 2)],
    "part_build_floor_cm_set": [part("build", shape="QUAD", size=[1200, 800], divisions=[12, 8],
                                     sets=["FLOOR"])],
    "part_build_column": [beam_line(ORIGIN, [0, 0, 3000], 6)],
    "part_build_zh_beam": [beam_line([100, 0, 0], [100, 0, 900], 9)],
    "part_build_rail_shorthand": [beam_line(ORIGIN, [0, 2400, 0], 8)],
    "part_build_tri_strip": [part("build", shape="TRI", size=[90, 30], divisions=[3, 1])],
    "part_build_zh_tri": [part("build", shape="TRI", size=[60, 40], divisions=[3, 2])],
    # -- Part: edit
    "part_add_node_above_middle": [part("add_nodes", count=1, points=[[20, 20, 25]])],
    "part_add_nodes_shorthand": [part("add_nodes", count=2, points=[[0, 0, 50], [60, 0, 50]])],
    "part_zh_add_nodes": [part("add_nodes", count=2, points=[[0, 0, -10], [30, 30, -10]])],
    "part_add_quad_right_side": [part("add_elements", count=1, shape="QUAD", elements=[
        quad([20, 0, 0], [30, 0, 0], [30, 10, 0], [20, 10, 0])])],
    "part_add_stiffener_top_edge": [part("add_elements", count=3, shape="BEAM", elements=[
        beam([0, 20, 0], [10, 20, 0]), beam([10, 20, 0], [20, 20, 0]),
        beam([20, 20, 0], [30, 20, 0])])],
    "part_zh_add_tri_corner": [part("add_elements", count=1, shape="TRI", elements=[
        element("TRI", [10, 10, 0], [15, 10, 0], [10, 15, 0])])],
    "part_extend_patch_shorthand": [part("add_elements", count=2, shape="QUAD", patches=[
        step_patch([[10, 0, 0], [30, 0, 0], [30, 10, 0], [10, 10, 0]], 2, 1)])],
    "part_delete_middle_four": [part("delete_elements", box([10, 10, 0], [30, 30, 0]))],
    "part_delete_labels_shorthand": [part("delete_elements", labels(3, 4, 7))],
    "part_zh_delete_left_column": [part("delete_elements", box([0, 0, 0], [10, 30, 0]))],
    "part_delete_corner_node": [part("delete_nodes", labels(9))],
    "part_delete_nodes_shorthand": [part("delete_nodes", labels(1, 2))],
    "part_zh_delete_top_nodes": [part("delete_nodes", box([0, 0, 50], [10, 10, 50]))],
    "part_lift_centre_node": [part("move_nodes", labels=[5], to=[[15, 15, 2.5]])],
    "part_move_nodes_shorthand": [part("move_nodes", labels=[3, 6],
                                       to=[[22, 0, 0], [22, 10, 0]])],
    "part_zh_move_corner": [part("move_nodes", labels=[1], to=[[-5, -5, 0]])],
    "part_set_top_row": [part("create_set", box([0, 20, 0], [30, 30, 0]), name="TOP_ROW")],
    "part_set_tris_shorthand": [part("create_set", shape("TRI"), name="TRIS")],
    "part_zh_set_labels": [part("create_set", labels(1, 2, 5, 6), name="CORNER")],
    "part_start_over_one_quad": [part("clear_all"), part(
        "add_elements", count=1, shape="QUAD", patches=[step_patch(rect(0, 0, 25, 25), 1, 1)])],
    "part_wipe_then_beam_shorthand": [part("clear_all"), part(
        "add_elements", count=4, shape="BEAM", lines=[line(ORIGIN, [400, 0, 0], 4)])],
    "part_zh_clear_rebuild": [part("clear_all"), part(
        "add_elements", count=4, shape="QUAD", patches=[step_patch(rect(0, 0, 20, 20), 2, 2)])],
    # -- Part: transform
    "part_shift_y_mm": [part("translate", ALL, vector=[0, 150, 0])],
    "part_raise_cm": [part("translate", ALL, vector=[0, 0, 50])],
    "part_zh_shift_negative_x": [part("translate", ALL, vector=[-30, 0, 0])],
    "part_copy_alongside": [part("translate_copy", ALL, vector=[20, 0, 0])],
    "part_copy_beam_shorthand": [part("translate_copy", ALL, vector=[0, 0, 200])],
    "part_zh_copy_above": [part("translate_copy", ALL, vector=[0, 0, 100])],
    "part_quarter_turn": [part("rotate", ALL, angle_deg=90, axis=[1, 0, 0], origin=ORIGIN)],
    "part_zh_rotate_about_y": [part("rotate", ALL, angle_deg=90, axis=[0, 1, 0],
                                    origin=ORIGIN)],
    "part_rotate_about_centre_shorthand": [part("rotate", ALL, angle_deg=90, axis=[0, 0, 1],
                                                origin=[20, 10, 0])],
    "part_mirror_stitch": [part("mirror", ALL, copy=True, normal=[1, 0, 0], origin=[10, 0, 0]),
                           part("merge_nodes")],
    "part_mirror_copy_shorthand": [part("mirror", ALL, copy=True, normal=[0, 1, 0],
                                        origin=ORIGIN)],
    "part_zh_mirror_no_copy": [part("mirror", ALL, copy=False, normal=[1, 0, 0],
                                    origin=ORIGIN)],
    "part_twice_as_big": [part("scale", ALL, factor=2, origin=[7.5, 7.5, 0])],
    "part_scale_half_middle_shorthand": [part("scale", ALL, factor=0.5, origin=[10, 10, 0])],
    "part_zh_scale_three": [part("scale", ALL, factor=3, origin=ORIGIN)],
    "part_array_four_more": [part("linear_array", ALL, count=5, vector=[25, 0, 0])],
    "part_array_shorthand": [part("linear_array", ALL, count=3, vector=[0, 12, 0])],
    "part_zh_array": [part("linear_array", ALL, count=3, vector=[0, 15, 0])],
    # -- Part: repair
    "part_join_two_halves": [part("merge_nodes")],
    "part_zh_merge_beams": [part("merge_nodes", tolerance=0.1)],
    "part_merge_shorthand": [part("merge_nodes", tolerance=0.01)],
    "part_remove_doubled_quads": [part("delete_duplicate_elements")],
    "part_zh_clean_duplicates_and_strays": [part("delete_duplicate_elements"),
                                            part("delete_free_nodes")],
    "part_cleanup_shorthand": [part("delete_free_nodes"), part("delete_duplicate_elements")],
    "part_tidy_double_and_stray_nodes": [part("merge_nodes"), part("delete_free_nodes")],
    # -- Part: audit
    "part_count_triangles": audit_part("counts"),
    "part_check_shorthand": audit_part("free_nodes", "coincident_nodes"),
    "part_zh_audit_degenerate": audit_part("degenerate_elements"),
    # -- Property
    "property_gpa_shell_everywhere": [
        prop("define_material", name="Aluminium", E=70000, nu=0.33),
        section("AL_SKIN", "Aluminium", thickness=2.5),
        prop("assign_section", ALL, section="AL_SKIN")],
    "property_s355_si_density": [prop("define_material", name="S355", E=210000, nu=0.3,
                                      density=7.85e-9)],
    "property_zh_q235_skin": [prop("define_material", name="Q235", E=206000, nu=0.3),
                              section("SKIN", "Q235", thickness=3)],
    "property_shell_shorthand": [section("T8", "Steel", thickness=8)],
    "property_zh_rect_beam": [section("RECT_B", "Steel",
                                      profile={"shape": "rectangle", "a": 20, "b": 40})],
    "property_round_bar_diameter": [section("ROD", "Steel", profile={"shape": "circle", "r": 6})],
    "property_pipe_shorthand": [section("P60", "Steel",
                                        profile={"shape": "pipe", "r": 30, "t": 4})],
    "property_i_section": [section("IPE200", "Steel", profile={
        "shape": "I", "l": 100, "h": 200, "b1": 100, "b2": 100, "t1": 8.5, "t2": 8.5,
        "t3": 5.6})],
    "property_section_on_rib_set": [prop("assign_section", named("RIB"), section="SHELL_4")],
    "property_right_half_thick": [prop("assign_section", box([20, 0, 0], [40, 20, 0]),
                                       section="THICK")],
    "property_zh_assign_edge_set": [prop("assign_section", named("EDGE"), section="THIN")],
    "property_beams_point_up": [prop("orient_beams", ALL, n1=[0, 0, 1])],
    "property_zh_orient_y": [prop("orient_beams", ALL, n1=[0, 1, 0])],
    "property_assign_orient_shorthand": [prop("assign_section", shape("BEAM"), section="ROD"),
                                         prop("orient_beams", shape("BEAM"), n1=[0, -1, 0])],
    "property_frame_shell_and_bar": [
        section("SH6", "Steel", thickness=6),
        section("BAR30", "Steel", profile={"shape": "circle", "r": 15}),
        prop("assign_section", shape("QUAD"), section="SH6"),
        prop("assign_section", shape("BEAM"), section="BAR30")],
    "property_which_unassigned": [prop("audit")],
    "property_audit_shorthand": [prop("audit")],
    "property_zh_audit": [prop("audit")],
    # -- Mesh
    "mesh_refine_corner_twice": [mesh("refine", box([0, 0, 0], [20, 20, 0]), levels=2)],
    "mesh_twice_as_fine": [mesh("refine", ALL, levels=1)],
    "mesh_zh_refine_three": [mesh("refine", ALL, levels=3)],
    "mesh_refine_set_shorthand": [mesh("refine", named("HOT"), levels=2)],
    "mesh_split_beams_in_half": [mesh("refine", shape("BEAM"), levels=1)],
    "mesh_middle_then_check": [mesh("refine", box([10, 10, 0], [30, 30, 0]), levels=1),
                               mesh("audit")],
    "mesh_beams_eight_times_finer": [mesh("refine", shape("BEAM"), levels=3)],
    "mesh_zh_refine_triangles": [mesh("refine", shape("TRI"), levels=1)],
    "mesh_quads_into_sixteen": [mesh("refine", named("FINE"), levels=2)],
    "mesh_zh_left_strip_three": [mesh("refine", box([0, 0, 0], [10, 10, 0]), levels=3)],
    "mesh_is_it_ok": [mesh("audit")],
    "mesh_audit_shorthand": [mesh("audit")],
    "mesh_zh_audit": [mesh("audit")],
    # -- nothing may run: the mode does not do what is asked
    "refuse_part_pressure_top": "A pressure is a load; Part mode does not apply loads.",
    "refuse_zh_property_point_force": "集中力是载荷，属性模式不施加载荷。",
    "refuse_mesh_pin_left_edge": "A support is a boundary condition; Mesh mode only refines.",
    "refuse_zh_part_fix_bottom": "固定约束是边界条件，部件模式不施加边界条件。",
    "refuse_part_contact_friction": "Contact and friction are not part of Part mode.",
    "refuse_property_static_step": "An analysis step is not a property.",
    "refuse_mesh_submit_job": "Jobs are not submitted from Mesh mode.",
    "refuse_part_youngs_modulus": "Young's modulus is a material value; Property mode sets it.",
    "refuse_zh_mesh_density": "密度是材料参数，网格模式不修改材料。",
    "refuse_part_shell_thickness": "A shell section is defined in Property mode.",
    "refuse_mesh_assign_section": "Sections are assigned in Property mode.",
    "refuse_property_move_top_nodes": "Moving nodes changes geometry; Property mode never does.",
    "refuse_zh_mesh_rotate": "旋转是几何变换，网格模式只做细化。",
    "refuse_mesh_coarsen": "Mesh mode refines; it cannot coarsen.",
    "refuse_mesh_tri_mesh": "Mesh mode cannot change the element type.",
    "refuse_zh_part_remesh": "重新划分网格不在部件模式的能力范围内。",
    "refuse_part_export_inp": "Exporting files is not something Part mode does.",
    "refuse_zh_property_save_as": "另存模型不是属性模式的操作。",
    "load_words_pressure_on_roof": [load("pressure", named("ROOF"), name="ROOFP",
                                         step="Squeeze", magnitude=3)],
    "load_words_push_corner": [load("force", edge([0, 40, 0], [0, 40, 0]), name="PUSH",
                                    step="Squeeze", vector=[0, -50, 0])],
    "load_words_clamp_bottom": [load("fix", edge([0, 0, 0], [40, 0, 0]), name="ROOT")],
    "load_words_lift_top": [load("displace", edge([0, 40, 0], [40, 40, 0]), name="LIFT",
                                 step="Squeeze", values={"u2": 0.2})],
    "load_words_step_then_pull": [load("define_step", name="Bend", previous="Initial"),
                                  load("force", labels(25), name="SIDE", step="Bend",
                                       vector=[10, 0, 0])],
    "load_words_zh_pressure": [load("pressure", named("ROOF"), name="P4", step="Squeeze",
                                    magnitude=4)],
    "load_words_zh_pin_left": [load("fix", edge([0, 0, 0], [0, 40, 0]), name="PIN",
                                    dofs=["u1", "u2"])],
    "refuse_zh_load_initial_pressure": "初始步 Initial 里不能施加载荷，载荷要放在后面的分析步里。",
}
