"""Each action's own grammar in the design asked in parts (docs/architecture.md §4 "The
design, asked in parts"): a shell section states a thickness and never a profile; a section
named is one the model has or an earlier step defines; a set named exists; labels lie within
the part. The grammar is the schema a server holds the answer to; ``step_problems`` says the
same where a server does not hold it."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from sam_plugin.compilers import registry
from sam_plugin.compilers.grammar_schema import SPEC_UNROLLED_ITEMS, grammar_schema, outside_subset
from sam_plugin.compilers.spec import parts
from sam_plugin.compilers.spec.refusal_category import REFUSAL_CATEGORIES
from sam_plugin.compilers.spec.schema import ScopeBounds, picking
from sam_plugin.compilers.spec.vocabulary import ActionDef

FACTS = parts.StepFacts(bounds=ScopeBounds(sets=("TOP",), max_label=16, entities=25),
                        names={"sections": ("PLATE",), "materials": ("STEEL",)},
                        first_labels=(1, 2), extent=(40.0, 20.0, 0.0))


def action(mode: str, name: str) -> ActionDef:
    found = registry.get_module(mode).vocabulary.action(name)
    assert found is not None
    return found


def valid(schema: dict[str, Any], answer: dict[str, Any]) -> bool:
    return Draft202012Validator(schema).is_valid(answer)


SHELL = {"name": "SKIN", "kind": "shell", "material": "STEEL", "thickness": 2.5}
BEAM = {"name": "RODS", "kind": "beam", "material": "STEEL",
        "profile": {"shape": "circle", "r": 3}}


def test_a_shell_section_has_a_thickness_and_never_a_profile():
    grammar = parts.step_grammar(action("property", "define_section"), FACTS)
    assert valid(grammar, {"values": SHELL}) and valid(grammar, {"values": BEAM})
    assert not valid(grammar, {"values": {**SHELL, "profile": {"shape": "circle", "r": 3}}})
    assert not valid(grammar, {"values": {k: v for k, v in SHELL.items() if k != "thickness"}})
    assert not valid(grammar, {"values": {**BEAM, "thickness": 2}})
    assert parts.step_problems(action("property", "define_section"),
                               {"values": {**SHELL, "profile": {"shape": "circle", "r": 3}}},
                               FACTS) == ["values.profile: a shell section states thickness, "
                                          "never profile"]


def test_a_section_named_is_the_models_or_an_earlier_steps():
    assign = action("property", "assign_section")
    grammar = parts.step_grammar(assign, FACTS)
    scope = {"by": "set", "name": "TOP"}
    assert valid(grammar, {"scope": scope, "values": {"section": "PLATE"}})
    assert not valid(grammar, {"scope": scope, "values": {"section": "RODS"}})
    assert parts.step_problems(assign, {"scope": scope, "values": {"section": "RODS"}}, FACTS) \
        == ["values.section: 'RODS' is no section of the model nor of an earlier step; "
            "sections: PLATE"]


def test_a_set_named_exists_and_labels_lie_within_the_part():
    translate = action("part", "translate")
    grammar = parts.step_grammar(translate, FACTS)
    move = {"vector": [1, 0, 0]}
    assert valid(grammar, {"scope": {"by": "set", "name": "TOP"}, "values": move})
    assert not valid(grammar, {"scope": {"by": "set", "name": "BOTTOM"}, "values": move})
    assert not valid(grammar, {"scope": {"by": "labels", "labels": [17]}, "values": move})
    assert parts.step_problems(translate, {"scope": {"by": "labels", "labels": [3, 17]},
                                           "values": move}, FACTS) == [
        "scope.labels: 17 lie outside the part's labels 1–16"]


def test_a_repair_whose_scope_picked_nothing_names_only_the_shapes_the_part_has():
    bounds, needs = picking(FACTS.bounds, ("picking_scope",), {"BEAM": 4})
    assign = action("property", "assign_section")
    grammar = parts.step_grammar(assign, replace(FACTS, bounds=bounds), needs)
    on = {"section": "PLATE"}
    assert valid(grammar, {"scope": {"by": "shape", "shape": "BEAM"}, "values": on})
    assert not valid(grammar, {"scope": {"by": "shape", "shape": "QUAD"}, "values": on})
    assert not valid(grammar, {"values": on})
    assert picking(FACTS.bounds, ("scope",), {"BEAM": 4}) == (FACTS.bounds, ("scope",))


def test_a_repair_of_a_step_that_emptied_the_part_cannot_take_every_element_again():
    delete = action("part", "delete_elements")
    bounds, needs = picking(FACTS.bounds, ("partial_scope",), {"QUAD": 6})
    grammar = parts.step_grammar(delete, replace(FACTS, bounds=bounds), needs)
    assert not valid(grammar, {"scope": {"by": "all"}, "values": {}})
    assert not valid(grammar, {"scope": {"by": "shape", "shape": "QUAD"}, "values": {}})
    assert valid(grammar, {"scope": {"by": "labels", "labels": [5, 6]}, "values": {}})
    # a shape only some elements have still picks part of the part
    bounds, needs = picking(FACTS.bounds, ("partial_scope",), {"QUAD": 4, "TRI": 2})
    grammar = parts.step_grammar(delete, replace(FACTS, bounds=bounds), needs)
    assert valid(grammar, {"scope": {"by": "shape", "shape": "TRI"}, "values": {}})
    assert valid(grammar, {"scope": {"by": "shape", "shape": "QUAD"}, "values": {}})
    assert not valid(grammar, {"scope": {"by": "shape", "shape": "BEAM"}, "values": {}})
    assert not valid(grammar, {"scope": {"by": "all"}, "values": {}})


def test_a_section_defined_again_for_beams_is_held_to_a_beam_section():
    section = action("property", "define_section")
    grammar = parts.step_grammar(section, FACTS, ("kind:beam",))
    assert valid(grammar, {"values": BEAM})
    assert not valid(grammar, {"values": SHELL})


def test_a_repair_whose_remedy_is_a_scope_holds_the_step_to_state_one():
    create_set = action("part", "create_set")
    assert "scope" not in parts.step_grammar(create_set, FACTS)["required"]
    assert parts.step_grammar(create_set, FACTS, ("scope",))["required"] == ["scope", "values"]


@pytest.mark.parametrize("mode", registry.MODES)
def test_every_grammar_stays_within_what_servers_turn_into_a_grammar(mode):
    vocabulary = registry.get_module(mode).vocabulary
    first = grammar_schema(parts.actions_schema(vocabulary), max_unrolled=SPEC_UNROLLED_ITEMS)
    assert outside_subset(first, max_unrolled=SPEC_UNROLLED_ITEMS) == []
    for each in vocabulary.actions:
        held = grammar_schema(parts.step_grammar(each, FACTS), max_unrolled=SPEC_UNROLLED_ITEMS)
        assert outside_subset(held, max_unrolled=SPEC_UNROLLED_ITEMS) == [], each.name


def test_the_first_answer_is_an_ordered_plan_or_one_category():
    vocabulary = registry.get_module("mesh").vocabulary
    schema = parts.actions_schema(vocabulary)
    plan = [{"action": "refine", "words": "refine twice"}]
    assert valid(schema, {"cannot": "none", "actions": plan})
    assert not valid(schema, {"actions": plan})  # "cannot" first, always
    assert not valid(schema, {"cannot": "none",
                              "actions": [{"action": "coarsen", "words": "coarsen"}]})
    for category in REFUSAL_CATEGORIES:  # no category is the Mesh mode's own
        assert valid(schema, {"cannot": category, "actions": []})
    part = parts.actions_schema(registry.get_module("part").vocabulary)
    assert not valid(part, {"cannot": "geometry", "actions": []})  # the Part mode's own
    assert not valid(schema, {"cannot": "mesh_generation"})
    read = parts.read_actions({"cannot": "mesh_generation", "actions": []}, vocabulary)
    assert read == parts.ActionsAnswer(category="mesh_generation")
    # the earlier forms, as scripted providers answer
    read = parts.read_actions({"cannot": "mesh_generation", "words": "coarsen it"}, vocabulary)
    assert read == parts.ActionsAnswer(category="mesh_generation", words="coarsen it")
    assert parts.read_actions({"actions": plan}, vocabulary) == parts.ActionsAnswer(
        actions=(parts.PlannedAction("refine", "refine twice"),))
    # planned actions win over a category beside them; neither is no first answer
    assert parts.read_actions({"cannot": "job", "actions": plan}, vocabulary) == \
        parts.ActionsAnswer(actions=(parts.PlannedAction("refine", "refine twice"),))
    assert parts.read_actions({"cannot": "none", "actions": []}, vocabulary) is None


def test_examples_come_from_the_part_so_no_two_parts_share_one():
    rotate = action("part", "rotate")
    small = parts.example_answer(rotate, FACTS)
    other = parts.example_answer(rotate, parts.StepFacts(
        bounds=ScopeBounds(sets=("LEFT",), max_label=9, entities=13), extent=(3.0, 3.0, 0.0)))
    assert small["scope"] == {"by": "set", "name": "TOP"}
    assert other["scope"] == {"by": "set", "name": "LEFT"}
    assert small["values"] != other["values"]


def test_a_build_states_its_plane_and_a_beam_line_its_start_and_end():
    build = action("part", "build")
    grammar = parts.step_grammar(build, parts.StepFacts())
    rectangle = {"shape": "QUAD", "size": [40, 20], "divisions": [4, 2], "plane": "XZ"}
    assert valid(grammar, {"values": rectangle})
    assert not valid(grammar, {"values": {**rectangle, "plane": "XW"}})
    assert not valid(grammar, {"values": {k: v for k, v in rectangle.items() if k != "plane"}})
    assert not valid(grammar, {"values": {"shape": "BEAM", "size": [3000], "divisions": [6],
                                          "plane": "XY"}})
    line = {"start": [0, 0, 0], "end": [0, 0, 3000], "divisions": 6}
    assert valid(grammar, {"values": {"shape": "BEAM", "lines": [line]}})
    assert not valid(grammar, {"values": {"lines": [{"start": [0, 0, 0], "divisions": 6}]}})


def test_the_whole_specs_grammar_holds_each_way_as_the_parts_do():
    """One grammar per way of stating an action, derived once: the whole spec's step
    variants state what the parts' values do (a rectangle its plane, QUAD or TRI)."""
    from sam_plugin.compilers.part.prompts import design_prompt
    from sam_plugin.compilers.spec.schema import schema_for

    vocabulary = registry.get_module("part").vocabulary
    held = schema_for(vocabulary, ScopeBounds(), refusal=True)
    variants = held["anyOf"][0]["properties"]["steps"]["items"]["anyOf"]
    rectangle = next(v["properties"]["values"] for v in variants
                     if v["properties"]["action"]["enum"] == ["build"]
                     and "size" in v["properties"]["values"]["properties"])
    assert "plane" in rectangle["required"]
    assert rectangle["properties"]["shape"] == {"type": "string", "enum": ["QUAD", "TRI"]}
    line = next(x for x in design_prompt().splitlines() if x.startswith("- build: build"))
    assert line.startswith("- build: build — shape, size, divisions, origin, plane, patches, "
                           "lines, nodes, elements, sets;")


def test_where_no_server_holds_the_grammar_the_same_rules_are_said():
    build = action("part", "build")
    assert parts.step_problems(build, {"values": {"shape": "QUAD", "size": [4, 2],
                                                  "divisions": [4, 2]}}, FACTS) == [
        "values.plane: a step stating size and divisions states its plane too: XY or XZ or YZ"]
    assert parts.step_problems(build, {"values": {"shape": "BEAM", "size": [3000],
                                                  "divisions": [6], "plane": "XY"}}, FACTS) == [
        "values.shape: 'BEAM' cannot be stated by size and divisions; legal: QUAD, TRI (else "
        "give the coordinates: a line by its start and end)"]


def test_the_requests_quantities_are_said_converted_into_the_models_units():
    from sam_plugin.compilers.units import unit_system

    mm, m = unit_system("mm-N-t-s"), unit_system("m-N-kg-s")
    request = "A floor 1.2 m by 80 cm, 2.5 mm thick, of 70 GPa aluminium."
    assert parts.quantities_words(request, mm) == (
        "The request's quantities in this model's units (write these numbers): "
        "1.2 m = 1200 mm in this model; 80 cm = 800 mm in this model; "
        "2.5 mm = 2.5 mm in this model; 70 GPa = 70000 MPa in this model.")
    assert parts.quantities_words(request, m) == (
        "The request's quantities in this model's units (write these numbers): "
        "1.2 m = 1.2 m in this model; 80 cm = 0.8 m in this model; "
        "2.5 mm = 0.0025 m in this model; "
        "70 GPa = 70000000000 Pa in this model.")
    # a quantity already in the model's unit is said too: the number to write is the same
    assert parts.quantities_words("Move set S1 by 5 mm.", mm) == (
        "The request's quantities in this model's units (write these numbers): "
        "5 mm = 5 mm in this model.")
    assert parts.quantities_words("Density 7850 kg/m3.", mm) == (
        "The request's quantities in this model's units (write these numbers): "
        "7850 kg/m³ = 7.85e-9 t/mm³ in this model.")
    assert parts.quantities_words("Move set S1 by 5.", mm) == ""
