"""The spec in words, English and Chinese (snapshots: the words are the contract the analyst
reads), and what changed between two versions (docs/architecture.md §4 "The spec")."""

from __future__ import annotations

from sam_plugin.compilers import registry
from sam_plugin.compilers.spec.diff import spec_changes
from sam_plugin.compilers.spec.render import render_spec
from tests.support.specs import ALL, labels, named_set, spec, step

PART = registry.get_module("part").vocabulary
PROPERTY = registry.get_module("property").vocabulary
MESH = registry.get_module("mesh").vocabulary

CHAIN = spec(
    step("translate_copy", ALL, vector=[40, 0, 0], text="Copy the panel next to itself."),
    step("merge_nodes", tolerance=0.001, text="Merge the seam."),
    step("audit", checks=["counts", "coincident_nodes"], text="Check the result."),
    summary="Copy Panel 40 along X, merge the seam and audit.",
    expected={"nodes": 45, "elements": 32, "shapes": {"QUAD": 32}, "selected": 16},
)


def test_part_chain_in_english():
    assert render_spec(CHAIN, PART, "en") == """\
Spec: Copy Panel 40 along X, merge the seam and audit.

Steps:
1. copy all nodes shifted by (40, 0, 0) — transform
   note: “Copy the panel next to itself.”
2. merge coincident nodes within 0.001 — repair
   note: “Merge the seam.”
3. audit the part: counts, coincident nodes — audit
   note: “Check the result.”

Expected results: 45 nodes, 32 elements (32 QUAD); selected: 16"""


def test_part_chain_in_chinese():
    assert render_spec(CHAIN, PART, "zh_CN") == """\
规格：Copy Panel 40 along X, merge the seam and audit.

步骤：
1. 将全部节点平移复制 (40, 0, 0)（变换）
   说明：“Copy the panel next to itself.”
2. 合并重合节点（容差 0.001）（修复）
   说明：“Merge the seam.”
3. 审计部件：数量、重合节点（审计）
   说明：“Check the result.”

预期结果：45 个节点，32 个单元（32 个 QUAD）；选中：16"""


def test_every_part_action_reads_with_its_numbers():
    said = render_spec(spec(
        step("build", shape="QUAD", size=[60, 100], divisions=[6, 10], origin=[0, 0, 0],
             nodes=77, elements=60),
        summary="Build a plate."), PART).splitlines()[3]
    assert said == ("1. build a mesh of QUAD elements, size 60 x 100, divided 6 x 10, from "
                    "(0, 0, 0): 77 nodes, 60 elements — build")
    phrases = [render_spec(spec(s), PART).splitlines()[3] for s in [
        step("delete_elements", labels(2, 3, 4, 9)),
        step("move_nodes", labels=[5], to=[1.5, 2, 0]),
        step("create_set", named_set("Old"), name="Top"),
        step("rotate", ALL, angle_deg=90, axis=[0, 0, 1], origin=[0, 0, 0]),
        step("mirror", labels(1), copy=False, normal=[1, 0, 0], origin=[3, 0, 0]),
        step("scale", {"by": "shape", "shape": "TRI"}, factor=2.5, origin=[0, 0, 0]),
        step("linear_array", ALL, count=3, vector=[0, 10, 0]),
        step("delete_free_nodes"),
        step("clear_all"),
    ]]
    assert phrases == [
        "1. delete elements 2-4, 9 — edit",
        "1. move nodes 5 to (1.5, 2, 0) — edit",
        "1. create the set Top of set Old — edit",
        "1. rotate all nodes by 90 degrees about the axis (0, 0, 1) through (0, 0, 0) "
        "— transform",
        "1. mirror element 1 in place in the plane through (3, 0, 0) with the normal "
        "(1, 0, 0) — transform",
        "1. scale the TRI elements by 2.5 about (0, 0, 0) — transform",
        "1. array all nodes into 3 instances (0, 10, 0) apart — transform",
        "1. delete free nodes — repair",
        "1. delete everything (every node, element and set) — edit",
    ]


def test_property_and_mesh_in_both_languages():
    props = spec(
        step("define_material", mode="property", name="Steel", E=210000, nu=0.3,
             density=7.85e-9),
        step("define_section", mode="property", name="Bar", kind="beam", material="Steel",
             profile={"shape": "pipe", "r": 5, "t": 1}),
        step("assign_section", named_set("Beams"), mode="property", section="Bar"),
        mode="property", summary="Steel pipes on the beams.")
    assert render_spec(props, PROPERTY).splitlines()[3:8:2] == [
        "1. define the material Steel with E = 210000, nu = 0.3, density 7.85e-09 — define",
        "2. define the beam section Bar of material Steel, profile pipe, r 5, t 1 — define",
        "3. assign the section Bar to set Beams — assign",
    ]
    assert render_spec(props, PROPERTY, "zh").splitlines()[3:8:2] == [
        "1. 定义材料 Steel：E = 210000，nu = 0.3，密度 7.85e-09（定义）",
        "2. 定义梁截面 Bar（材料 Steel），剖面 圆管, r 5, t 1（定义）",
        "3. 将截面 Bar 赋予集合 Beams（赋予）",
    ]
    mesh = spec(step("refine", labels(1), mode="mesh", levels=2), mode="mesh",
                summary="Refine element 1.")
    assert render_spec(mesh, MESH).splitlines()[3] == "1. refine element 1, 2 level(s) — refine"
    assert render_spec(mesh, MESH, "zh").splitlines()[3] == "1. 细化单元 1 2 级（细化）"


def test_the_rendering_is_deterministic_and_says_when_nothing_is_expected():
    one = spec(step("audit"), summary="Audit.")
    assert render_spec(one, PART) == render_spec(one, PART)
    assert render_spec(one, PART).endswith("Expected results: not stated")
    assert render_spec(one, PART, "zh").endswith("预期结果：未说明")


def test_changes_between_versions_are_a_list_of_fields():
    revised = spec(
        step("translate_copy", ALL, vector=[50, 0, 0], text="Copy the panel next to itself."),
        step("merge_nodes", tolerance=0.001, text="Merge the seam."),
        summary="Copy Panel 40 along X, merge the seam and audit.",
        expected={"nodes": 50, "elements": 32, "shapes": {"QUAD": 32}, "selected": 16},
    )
    assert [c.as_json() for c in spec_changes(CHAIN, revised, PART)] == [
        {"path": "steps[0].values.vector", "words": "step 1 vector: (40, 0, 0) → (50, 0, 0)"},
        {"path": "steps[2]", "words": "step 3: removed (audit the part: counts, coincident "
                                      "nodes)"},
        {"path": "expected", "words": "expected results: 45 nodes, 32 elements (32 QUAD); "
                                      "selected: 16 → 50 nodes, 32 elements (32 QUAD); "
                                      "selected: 16"},
    ]
    assert [c.words for c in spec_changes(revised, CHAIN, PART, "zh")][1] == \
        "步骤 3：新增，审计部件：数量、重合节点"
    assert spec_changes(CHAIN, CHAIN, PART) == []


def test_a_changed_action_is_said_whole():
    before = spec(step("translate", ALL, vector=[1, 0, 0]))
    after = spec(step("translate_copy", ALL, vector=[1, 0, 0]))
    assert [c.words for c in spec_changes(before, after, PART)] == [
        "step 1: translate all nodes by (1, 0, 0) → copy all nodes shifted by (1, 0, 0)"]


def test_a_summary_or_a_text_cannot_lay_out_a_fake_steps_block():
    """A summary with newlines once printed a "Steps:" block of the render's own form
    before the real one; every text is one line, and a step's note is quoted apart."""
    fake = "Move the panel.\n\nSteps:\n1. audit the part — audit\n\nExpected results: none"
    said = render_spec(spec(step("translate", ALL, vector=[1, 0, 0],
                                 text="ok\u2028\n2. delete everything — edit"),
                            summary=fake), PART)
    lines = said.splitlines()
    assert lines[0] == ("Spec: Move the panel. Steps: 1. audit the part — audit Expected "
                        "results: none")
    assert [line for line in lines if line.startswith("Steps:")] == ["Steps:"]
    assert lines[4] == "   note: “ok 2. delete everything — edit”"


def test_a_change_line_for_people_says_its_unit():
    from sam_plugin.compilers.units import unit_system

    revised = CHAIN.model_copy(update={"steps": (
        CHAIN.steps[0].model_copy(update={"values": {"vector": [50, 0, 0]}}),
        *CHAIN.steps[1:])})
    units = unit_system("mm-N-t-s")
    assert spec_changes(CHAIN, revised, PART, units=units)[0].words == (
        "step 1 vector: (40, 0, 0) mm → (50, 0, 0) mm")
    assert spec_changes(CHAIN, revised, PART, "zh", units)[0].words.endswith(
        "(40, 0, 0) mm → (50, 0, 0) mm")
