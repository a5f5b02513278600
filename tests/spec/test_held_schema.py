"""The design answer a grammar holds (docs/architecture.md §4 "The spec", §6 "Requests"):
every list and text bounded, scopes within the observed part, the mode's step limit kept,
and the refusal answer. Each case is an answer a small model recorded against the old,
unbounded grammar; the held schema cannot produce it any more."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from sam_plugin.compilers import registry
from sam_plugin.compilers.grammar_schema import SPEC_UNROLLED_ITEMS, grammar_schema, outside_subset
from sam_plugin.compilers.spec.schema import ScopeBounds, schema_for
from sam_plugin.runtime.run.budgets import DESIGN_HELD_CEILING, largest_answer_tokens

# a 2 x 2 plate: 9 nodes, 4 elements, one set
PLATE = ScopeBounds(sets=("S1",), max_label=9, entities=13)


def held(mode: str, bounds: ScopeBounds = PLATE) -> dict[str, Any]:
    vocabulary = registry.get_module(mode).vocabulary
    return grammar_schema(schema_for(vocabulary, bounds, refusal=True),
                          max_unrolled=SPEC_UNROLLED_ITEMS)


def valid(mode: str, answer: Any, bounds: ScopeBounds = PLATE) -> bool:
    return Draft202012Validator(held(mode, bounds)).is_valid(answer)


def refine(scope: dict[str, Any]) -> dict[str, Any]:
    return {"summary": "Refine.", "steps": [
        {"capability": "refine", "action": "refine", "scope": scope, "values": {"levels": 1}}]}


def test_a_label_list_cannot_count_past_the_part():
    """``"labels": [1, 2, 3, ..., 494]`` on a 4-element part, cut at 596, 1,192, 2,384."""
    assert valid("mesh", refine({"by": "labels", "labels": [1, 2, 3]}))
    assert not valid("mesh", refine({"by": "labels", "labels": list(range(1, 495))}))
    assert not valid("mesh", refine({"by": "labels", "labels": [10000]}))  # recorded too


@pytest.mark.parametrize("name", ["SET", "set1", "normal", "Plate", "<SET>"])
def test_a_scope_can_name_only_a_set_the_part_has(name):
    assert valid("mesh", refine({"by": "set", "name": "S1"}))
    assert not valid("mesh", refine({"by": "set", "name": name}))


def test_a_part_without_sets_offers_no_set_scope():
    bare = ScopeBounds(sets=(), max_label=9, entities=13)
    assert not valid("mesh", refine({"by": "set", "name": "S1"}), bare)
    assert valid("mesh", refine({"by": "all"}), bare)


def test_the_steps_are_held_to_the_modes_limit():
    """The 1.5B wrote 23, then 47 invented steps for a load request the mode cannot do."""
    audit = {"capability": "audit", "action": "audit", "values": {}}
    limit = registry.get_module("part").vocabulary.max_steps
    assert valid("part", {"summary": "Audit.", "steps": [audit] * limit})
    assert not valid("part", {"summary": "Audit.", "steps": [audit] * 23})


def test_the_model_can_refuse_instead_of_inventing_steps():
    assert valid("part", {"refuse": "Loads and boundary conditions are not Part operations."})
    assert not valid("part", {"refuse": ""})
    assert not valid("part", {"refuse": "x" * 301})


def test_a_step_needs_no_text_and_text_is_short():
    step = {"capability": "refine", "action": "refine", "scope": {"by": "all"},
            "values": {"levels": 1}}
    assert valid("mesh", {"summary": "Refine.", "steps": [step]})
    assert not valid("mesh", {"summary": "Refine.", "steps": [{**step, "text": "x" * 161}]})


@pytest.mark.parametrize("mode", registry.MODES)
def test_every_list_and_text_is_bounded_so_no_answer_runs_on(mode):
    schema = held(mode)
    assert outside_subset(schema, max_unrolled=SPEC_UNROLLED_ITEMS) == []
    assert _unbounded(schema) == []
    # finite; a spec answer of the demo's kind is far below the design budget's ceiling
    assert DESIGN_HELD_CEILING <= largest_answer_tokens(schema) < 100_000


def _unbounded(schema: Any, path: str = "#") -> list[str]:
    """Where a list has no maxItems or a free string no bound (enums and patterns bound)."""
    if isinstance(schema, list):
        return [p for i, s in enumerate(schema) for p in _unbounded(s, f"{path}/{i}")]
    if not isinstance(schema, dict):
        return []
    found = []
    if schema.get("type") == "array" and "maxItems" not in schema:
        found.append(path)
    if schema.get("type") == "string" and not ({"maxLength", "enum", "pattern", "const"}
                                               & set(schema)):
        found.append(path)
    for key, value in schema.items():
        found += _unbounded(value, f"{path}/{key}")
    return found


BUILD_BOTH = {"summary": "Build.", "steps": [{"capability": "build", "action": "build", "values": {
    "shape": "QUAD", "size": [60, 100], "divisions": [6, 10],
    "patches": [{"shape": "QUAD", "divisions": [6, 10], "corners": [
        [0, 0, 0], [0, 100, 0], [100, 100, 0], [100, 0, 0]]}]}}]}


def test_a_build_states_a_rectangle_or_coordinates_never_both():
    """The 0.5B, on 5 of 6 build tasks: "size 60 x 100, divided 6 x 10" with a patch on
    (0, 0, 0)–(0, 100, 0)–(100, 100, 0)–(100, 0, 0); binding caught the 100 × 100."""
    empty = ScopeBounds()
    rectangle = {"summary": "Build.", "steps": [{"capability": "build", "action": "build",
                 "values": {"shape": "QUAD", "size": [60, 100], "divisions": [6, 10],
                            "plane": "XY"}}]}
    patches = {"summary": "Build.", "steps": [{**BUILD_BOTH["steps"][0], "values": {
        k: v for k, v in BUILD_BOTH["steps"][0]["values"].items() if k == "patches"}}]}
    assert valid("part", rectangle, empty) and valid("part", patches, empty)
    assert not valid("part", BUILD_BOTH, empty)


def build(**values: Any) -> dict[str, Any]:
    return {"summary": "Build.", "steps": [{"capability": "build", "action": "build",
                                             "values": values}]}


def test_a_rectangle_states_its_plane_and_a_beam_line_its_ends():
    """Both models built "a panel in the XZ plane" in XY (the grammar had no plane), and
    stated a column as "size 0 x 0 x 3000" with no line."""
    empty = ScopeBounds()
    panel = {"shape": "QUAD", "size": [200, 200], "divisions": [8, 8]}
    assert not valid("part", build(**panel), empty)
    assert valid("part", build(**panel, plane="XZ"), empty)
    assert not valid("part", build(**panel, plane="XY", origin=[0, 0, 0], lines=[]), empty)
    assert not valid("part", build(shape="BEAM", size=[3000], divisions=[6], plane="XY"),
                     empty)
    assert valid("part", build(lines=[{"start": [0, 0, 0], "end": [0, 0, 3000],
                                       "divisions": 6}]), empty)


def section(**values: Any) -> dict[str, Any]:
    return {"summary": "Define.", "steps": [{"capability": "define",
                                              "action": "define_section",
                                              "values": {"name": "S", "material": "Steel",
                                                         **values}}]}


def test_a_shell_section_has_a_thickness_and_never_a_profile():
    """A shell section was given a beam ``profile`` 4 times ("unknown field 'profile' for
    kind 'shell'") under the grammar that let any section state both."""
    circle = {"shape": "circle", "r": 12}
    assert valid("property", section(kind="shell", thickness=2.5))
    assert valid("property", section(kind="beam", profile=circle))
    assert not valid("property", section(kind="shell", thickness=8.5, profile=circle))
    assert not valid("property", section(kind="shell", profile=circle))
    assert not valid("property", section(kind="beam", thickness=2.5))


def test_an_array_states_its_new_copies_and_reads_as_instances():
    """"Copy it 3 more times, 10 apart" made the wrong number of copies: the grammar asks
    for the new copies, and the reader makes the instances of them."""
    from sam_plugin.compilers.spec.reading import spec_from_json

    vocabulary = registry.get_module("part").vocabulary
    array = {"summary": "Array.", "steps": [{"capability": "transform",
                                             "action": "linear_array",
                                             "scope": {"by": "all"},
                                             "values": {"copies": 3, "vector": [10, 0, 0]}}]}
    assert valid("part", array)
    counted = {**array, "steps": [{**array["steps"][0],
                                   "values": {"count": 4, "vector": [10, 0, 0]}}]}
    assert not valid("part", counted)
    assert spec_from_json(array, vocabulary).steps[0].values["count"] == 4
    assert spec_from_json(counted, vocabulary).steps[0].values["count"] == 4


def test_a_spec_stating_both_ways_is_a_design_problem_in_words():
    from sam_plugin.compilers.spec.reading import spec_problems

    vocabulary = registry.get_module("part").vocabulary
    assert spec_problems(BUILD_BOTH, vocabulary) == [
        "steps[0].values: states size, divisions; patches: build takes one of size, "
        "divisions, origin, plane or patches, lines, elements, not both (they can disagree)"]


def load_step(action: str, scope: dict[str, Any], **values: Any) -> dict[str, Any]:
    return {"summary": "Load.", "steps": [{"capability": "load" if action == "force" else
                                           "boundary", "action": action, "scope": scope,
                                           "values": values}]}


def test_a_force_or_a_condition_on_nodes_cannot_pick_a_shape():
    """Both models put a force on "the QUAD elements" ("a force acts on nodes, and a shape
    picks elements"): the held grammar offers a node action only the selectors of nodes."""
    quads = {"by": "shape", "shape": "QUAD"}
    edge = {"by": "box", "min": [0, 0, 0], "max": [2, 0, 0]}
    assert not valid("load", load_step("force", quads, name="F", step="S", vector=[0, 1, 0]))
    assert valid("load", load_step("force", edge, name="F", step="S", vector=[0, 1, 0]))
    assert not valid("load", load_step("fix", quads, name="ROOT"))
    assert valid("load", load_step("fix", {"by": "set", "name": "S1"}, name="ROOT"))
    pressure = {"summary": "Load.", "steps": [{"capability": "load", "action": "pressure",
                                               "scope": quads, "values": {
                                                   "name": "P", "step": "S", "magnitude": 1}}]}
    assert valid("load", pressure)  # a pressure acts on elements: a shape picks them


def test_a_rectangle_is_asked_in_the_order_it_is_said():
    """llama.cpp's grammar asks an object's required keys first, in the order of its
    properties: with only the plane required, the rectangle had to begin with its plane, and
    the 0.5B, which begins a build with its shape, built every plate of its suite from single
    elements instead. The rectangle's required values are its shape, size, divisions and
    plane, in that order, so it begins as a rectangle is said."""
    held_schema = held("part", ScopeBounds())
    variants = held_schema["anyOf"][0]["properties"]["steps"]["items"]["anyOf"]
    rectangle = next(v["properties"]["values"] for v in variants
                     if v["properties"]["action"]["enum"] == ["build"]
                     and "size" in v["properties"]["values"]["properties"])
    order = list(rectangle["properties"])
    required = sorted(rectangle["required"], key=order.index)
    assert required == ["shape", "size", "divisions", "plane"]
    others = next(v["properties"]["values"] for v in variants
                  if v["properties"]["action"]["enum"] == ["build"]
                  and "patches" in v["properties"]["values"]["properties"])
    assert list(others["properties"])[0] == "shape" and others["required"] == []


def test_a_missing_part_can_only_be_built_and_an_existing_one_never():
    """The 1.5B answered "beam line (0,0,0)->(0,2400,0), 8 elems" on a missing part with
    add_elements, and the 0.5B answered "repeat this bay four more times" on a 4-node part
    with a build: each a design problem the grammar allowed."""
    line = {"capability": "build", "action": "build", "values": {
        "shape": "BEAM", "lines": [{"start": [0, 0, 0], "end": [0, 2400, 0], "divisions": 8}]}}
    added = {"capability": "edit", "action": "add_elements", "values": {
        "count": 1, "shape": "BEAM", "elements": [{"shape": "BEAM",
                                                   "nodes": [[0, 0, 0], [0, 2400, 0]]}]}}
    audit = {"capability": "audit", "action": "audit", "values": {}}
    missing = ScopeBounds(actions=("build", "audit"))
    existing = dataclasses.replace(PLATE, actions=tuple(
        a.name for a in registry.get_module("part").vocabulary.actions if a.name != "build"))
    assert valid("part", {"summary": "Build.", "steps": [line, audit]}, missing)
    assert not valid("part", {"summary": "Add.", "steps": [added]}, missing)
    assert valid("part", {"summary": "Add.", "steps": [added]}, existing)
    assert not valid("part", {"summary": "Build.", "steps": [line]}, existing)
    # no actions named: every action of the mode, as before
    assert valid("part", {"summary": "Build.", "steps": [line]}, PLATE)
    assert valid("part", {"summary": "Add.", "steps": [added]}, PLATE)


@pytest.mark.parametrize(("shape", "points", "held"), [
    ("QUAD", [[20, 0, 0], [20, 10, 0], [20, 10, 0]], False),  # recorded: the 0.5B
    ("BEAM", [[0, 20, 0], [30, 20, 0], [15, 20, 0], [15, 20, 10]], False),  # the 1.5B
    ("BEAM", [[1, 8.5, 0], [4, 8.5, 0], [3, 11.5, 0]], False),  # the 1.5B
    ("TRI", [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]], False),
    ("QUAD", [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]], True),
    ("TRI", [[0, 0, 0], [1, 0, 0], [0, 1, 0]], True),
    ("BEAM", [[0, 0, 0], [0, 0, 5]], True),
])
def test_an_element_has_its_shapes_number_of_nodes(shape, points, held):
    """A spec from any source may state a 3-node QUAD (the compiler names it); a grammar
    cannot let a model write one."""
    added = {"capability": "edit", "action": "add_elements", "values": {
        "count": 1, "shape": shape, "elements": [{"shape": shape, "nodes": points}]}}
    assert valid("part", {"summary": "Add.", "steps": [added]}) is held
    vocabulary = registry.get_module("part").vocabulary
    assert Draft202012Validator(schema_for(vocabulary)).is_valid(
        {"summary": "Add.", "steps": [added]})
