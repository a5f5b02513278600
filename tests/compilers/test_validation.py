"""The validation pipeline: one actionable line per problem, never an anyOf replay."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from sam_plugin.compilers.part.ir import TransformPartIR
from sam_plugin.compilers.part.schemas import SCHEMAS
from sam_plugin.compilers.validation import schema_diagnostics, validate_call
from sam_plugin.errors import CompileError

TRANSFORM = SCHEMAS["transform_part"]


def _lines(schema: dict, value: object) -> list[str]:
    return [str(d) for d in schema_diagnostics(schema, value)]


def test_unknown_op_is_one_line_with_the_legal_ops() -> None:
    lines = _lines(TRANSFORM, {"operations": [{"op": "spin", "vector": [1, 0, 0]}]})
    assert lines == ["operations[0].op: unknown op 'spin'; legal op values: translate, rotate, "
                     "mirror, scale, translate_copy, linear_array"]


def test_field_of_another_variant_says_remove_it() -> None:
    lines = _lines(TRANSFORM, {"operations": [{"op": "translate", "vector": [1, 0, 0],
                                               "count": 3}]})
    assert lines == ["operations[0].count: unknown field 'count' for op 'translate'; remove it "
                     "(allowed fields: op, vector, selection), or write op 'linear_array', "
                     "which has it"]


def test_a_field_no_other_variant_has_only_says_remove_it() -> None:
    lines = _lines(TRANSFORM, {"operations": [{"op": "translate", "vector": [1, 0, 0],
                                               "colour": "red"}]})
    assert lines == ["operations[0].colour: unknown field 'colour' for op 'translate'; remove "
                     "it (allowed fields: op, vector, selection)"]


def test_a_shell_section_given_a_profile_names_the_beam_kind() -> None:
    """The 1.5B wrote a round bar as a shell section with a profile: the words name both
    fixes, since only the analyst's request says which was meant."""
    from sam_plugin.compilers.property.schemas import DEFINE

    lines = _lines(DEFINE, {"sections": [{"kind": "shell", "name": "ROD", "material": "Steel",
                                          "profile": {"shape": "circle", "r": 6}}]})
    assert lines == [
        "sections[0].profile: unknown field 'profile' for kind 'shell'; remove it (allowed "
        "fields: kind, name, material, thickness), or write kind 'beam', which has it",
        "sections[0].thickness: required field is missing"]


def test_missing_field_of_the_chosen_variant() -> None:
    lines = _lines(TRANSFORM, {"operations": [{"op": "linear_array", "vector": [1, 0, 0]}]})
    assert lines == ["operations[0].count: required field is missing"]


def test_enum_gives_the_legal_values() -> None:
    lines = _lines(SCHEMAS["build_part"], {"patches": [{
        "id": "P", "shape": "HEX", "corners": [[0, 0, 0]] * 4, "divisions": [1, 1]}]})
    assert lines == ["patches[0].shape: 'HEX' is not a legal value; legal values: QUAD, TRI"]


def test_vec3_length_and_root_unknown_field() -> None:
    lines = _lines(SCHEMAS["build_part"], {"nodez": [], "nodes": [
        {"id": "a", "coordinates": [0, 0]}]})
    assert lines == [
        "nodes[0].coordinates: needs exactly 3 items, got 2",
        "nodez: unknown field 'nodez'; remove it (allowed fields: nodes, elements, patches, "
        "lines, element_sets)",
    ]


def test_bad_selector_kind_inside_an_op() -> None:
    lines = _lines(TRANSFORM, {"operations": [{"op": "translate", "vector": [1, 0, 0],
                                               "selection": {"by": "everything"}}]})
    assert lines == ["operations[0].selection.by: unknown by 'everything'; legal by values: "
                     "all, labels, set, shape, box"]


def test_pattern_message_names_the_rule() -> None:
    lines = _lines(SCHEMAS["build_part"], {"nodes": [{"id": "1a", "coordinates": [0, 0, 0]}]})
    assert lines == ["nodes[0].id: '1a' is not valid: a local id starts with a letter, then up "
                     "to 31 letters, digits or _"]


def test_pipeline_rejects_bad_json_nan_and_non_objects() -> None:
    with pytest.raises(CompileError, match="arguments are not valid JSON"):
        validate_call("t", "{oops", TRANSFORM, TransformPartIR)
    with pytest.raises(CompileError, match="NaN is not a finite number"):
        validate_call("t", '{"operations":[{"op":"translate","vector":[NaN,0,0]}]}',
                      TRANSFORM, TransformPartIR)
    with pytest.raises(CompileError, match="every number must be finite"):
        validate_call("t", {"operations": [{"op": "translate",
                                            "vector": [float("inf"), 0, 0]}]},
                      TRANSFORM, TransformPartIR)
    with pytest.raises(CompileError, match="a number too large to be finite"):
        validate_call("t", '{"operations":[{"op":"scale","origin":[0,0,0],"factor":1e400}]}',
                      TRANSFORM, TransformPartIR)
    with pytest.raises(CompileError, match="must be a JSON object, got array"):
        validate_call("t", "[]", TRANSFORM, TransformPartIR)


def test_pipeline_drops_strict_mode_nulls_and_normalizes() -> None:
    ir = validate_call("t", '{"operations":[{"op":"translate","vector":[1,0,0],'
                       '"selection":null}]}', TRANSFORM, TransformPartIR)
    assert ir.operations[0].selection.by == "all"


def test_pipeline_reports_ir_rules_with_the_path() -> None:
    args = {"operations": [{"op": "translate", "vector": [1, 0, 0],
                            "selection": {"by": "box", "min": [5, 0, 0], "max": [1, 1, 1]}}]}
    with pytest.raises(CompileError) as err:
        validate_call("transform_part", args, TRANSFORM, TransformPartIR)
    assert [str(d) for d in err.value.diagnostics] == [
        "operations[0].selection: box min x=5.0 exceeds max x=1.0; min holds "
        "the smallest x, y, z"]


def test_domain_checks_run_last_and_only_on_valid_structure() -> None:
    calls: list[BaseModel] = []

    def checks(ir: BaseModel) -> list:
        calls.append(ir)
        return []

    with pytest.raises(CompileError):
        validate_call("t", {"operations": []}, TRANSFORM, TransformPartIR, checks)
    assert calls == []
    validate_call("t", {"operations": [{"op": "scale", "origin": [0, 0, 0], "factor": 2}]},
                  TRANSFORM, TransformPartIR, checks)
    assert len(calls) == 1


_TOO_DEEP = ("arguments: nested too deeply; at most 64 levels of arrays and objects are "
             "allowed — send the flat object the tool's schema describes")


@pytest.mark.parametrize("arguments", [
    '{"operations":' + "[" * 100_000 + "]" * 100_000 + "}",
    '{"operations":' + "[" * 500 + "]" * 500 + "}",
    '{"operations":' + '{"a":' * 65 + "1" + "}" * 65 + "}",
])
def test_deeply_nested_json_is_a_diagnostic_not_an_internal_error(arguments: str) -> None:
    with pytest.raises(CompileError) as info:
        validate_call("transform_part", arguments, TRANSFORM, TransformPartIR)
    assert [str(d) for d in info.value.diagnostics] == [_TOO_DEEP]


def test_deeply_nested_mapping_and_a_self_containing_one_are_diagnostics() -> None:
    deep: list = []
    for _ in range(5000):
        deep = [deep]
    cyclic: dict = {}
    cyclic["operations"] = [cyclic]
    for arguments in ({"operations": deep}, cyclic):
        with pytest.raises(CompileError) as info:
            validate_call("transform_part", arguments, TRANSFORM, TransformPartIR)
        assert [str(d) for d in info.value.diagnostics] == [_TOO_DEEP]


def test_nesting_at_the_limit_still_reaches_the_schema() -> None:
    arguments = '{"operations":' + "[" * 63 + "]" * 63 + "}"
    with pytest.raises(CompileError) as info:
        validate_call("transform_part", arguments, TRANSFORM, TransformPartIR)
    assert str(info.value.diagnostics[0]) == "operations[0]: expected object, got array"


def test_schema_recursion_is_a_diagnostic() -> None:
    nested: list = []
    for _ in range(5000):
        nested = [nested]
    assert _lines({"type": "array", "items": {"$ref": "#"}}, nested) == [_TOO_DEEP]
