"""One shape, two spellings, kept equal by a test (docs/architecture.md §4): each tool's wire
JSON Schema and its pydantic IR, and the host's readback record and its typed model.

The comparison itself is tried against changes to either side, so a parity that passed
because it saw nothing would fail here.
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import pytest
from pydantic import ValidationError, create_model

from sam_plugin.compilers import registry
from sam_plugin.compilers.evidence import Readback
from sam_plugin.samops.records import PartRecord
from tests.support.shape_parity import record_differences, schema_differences


def _tools() -> list[tuple[str, str]]:
    return [(mode, tool) for mode in registry.MODES
            for tool in registry.get_module(mode).schemas]


def _module(mode: str) -> Any:
    return registry.get_module(mode)


@pytest.mark.parametrize(("mode", "tool"), _tools())
def test_each_tools_schema_and_ir_have_one_shape(mode, tool):
    module = _module(mode)
    assert schema_differences(module.schemas[tool], module.compilers[tool].ir_type) == []


def test_every_tool_has_both_a_schema_and_an_ir():
    for mode in registry.MODES:
        module = _module(mode)
        assert set(module.schemas) == set(module.compilers) == set(module.tool_names.values())


def test_a_schema_changed_on_its_own_is_seen():
    module = _module("part")
    transform, ir = module.schemas["transform_part"], module.compilers["transform_part"].ir_type
    ops = ["properties", "operations", "items", "anyOf"]

    def changed(edit: Any) -> list[str]:
        wire = copy.deepcopy(transform)
        node = wire
        for key in ops:
            node = node[key]
        edit(node)
        return schema_differences(wire, ir)

    assert changed(lambda o: o[0]["properties"].pop("selection")) == [
        "$.operations[]<translate>.selection: only in the IR"]
    assert changed(lambda o: o[2]["properties"].update(copy={"type": "integer"})) == [
        "$.operations[]<mirror>.copy: type 'integer' in the schema, 'boolean' in the IR"]
    assert changed(lambda o: o[1]["required"].remove("angle_deg")) == [
        "$.operations[]<rotate>: required ['axis', 'op', 'origin'] in the schema, "
        "['angle_deg', 'axis', 'op', 'origin'] in the IR"]
    assert changed(lambda o: o.pop()) == ["$.operations[]<linear_array>: only in the IR"]
    audit = copy.deepcopy(module.schemas["audit_part"])
    audit["properties"]["checks"]["items"]["enum"].remove("quality")
    [problem] = schema_differences(audit, module.compilers["audit_part"].ir_type)
    assert problem.startswith("$.checks[]: enum ") and "'quality'" in problem


def test_an_ir_changed_on_its_own_is_seen():
    module = _module("part")
    repair = module.compilers["repair_part"].ir_type
    wider = create_model("WiderRepair", __base__=repair, renumber=(bool, False))
    assert schema_differences(module.schemas["repair_part"], wider) == [
        "$.renumber: only in the IR"]


def test_the_readback_record_and_its_model_carry_the_same_fields():
    assert record_differences(PartRecord, Readback) == []


def test_a_field_added_to_the_record_only_is_refused_not_dropped():
    wider = dataclasses.make_dataclass(
        "WiderRecord", [("mesh_seeds", int, dataclasses.field(default=3))], bases=(PartRecord,))
    assert record_differences(wider, Readback) == ["mesh_seeds: only in WiderRecord"]
    with pytest.raises(ValidationError, match="mesh_seeds"):
        Readback.from_record(wider(part_exists=True))


def test_a_field_added_to_the_model_only_is_seen():
    wider = create_model("WiderReadback", __base__=Readback, mesh_seeds=(int, 0))
    assert record_differences(PartRecord, wider) == ["mesh_seeds: only in WiderReadback"]
    other_default = create_model("OtherDefault", __base__=Readback, node_count=(int, 1))
    assert record_differences(PartRecord, other_default) == [
        "node_count: default 0 in PartRecord, 1 in OtherDefault"]
