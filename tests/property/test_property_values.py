"""Property runs read E, ν, density, thickness and profile dimensions back and verify them
against the call (issue 16): a value that the model does not hold fails its check."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sam_plugin.compilers.property.value_checks import (
    property_value_checks,
    record_before,
    values_table,
)

STEEL = {"name": "Steel", "youngs_modulus": 210000.0, "poisson_ratio": 0.3, "density": 7.85e-9}
SHELL = {"name": "Shell-2mm", "kind": "shell", "material": "Steel", "thickness": 2.0}
BEAM = {"name": "Bar", "kind": "beam", "material": "Steel",
        "profile": {"shape": "rectangle", "a": 10.0, "b": 20.0}}


def _run_dir(tmp_path: Path, materials: list[dict], sections: list[dict]) -> Path:
    (tmp_path / "normalized_calls.json").write_text(json.dumps([
        {"tool": "define_property", "arguments": {"materials": materials,
                                                  "sections": sections}}]))
    return tmp_path


def _define(model: Any, material: dict, sections: list[dict]) -> None:
    from sam_plugin.samops import property_ops

    property_ops.define(model, [material], sections)


def test_values_defined_by_the_call_are_read_back_and_verified(tmp_path, model):
    run_dir = _run_dir(tmp_path, [STEEL], [SHELL, BEAM])
    record_before(run_dir, model)
    _define(model, STEEL, [SHELL, BEAM])
    checks = {c.name: (c.expected, c.actual, c.ok) for c in property_value_checks(run_dir, model)}
    assert checks == {
        "material Steel E": ("210000", "210000", True),
        "material Steel ν": ("0.3", "0.3", True),
        "material Steel density": ("7.85e-09", "7.85e-09", True),
        "section Shell-2mm material": ("Steel", "Steel", True),
        "section Shell-2mm thickness": ("2", "2", True),
        "section Bar material": ("Steel", "Steel", True),
        "section Bar profile": ("rectangle", "rectangle", True),
        "section Bar profile a": ("10", "10", True),
        "section Bar profile b": ("20", "20", True),
    }
    rows = values_table(run_dir)
    assert [(row.name, row.before, row.after) for row in rows] == [
        ("Steel E", "—", "210000"), ("Steel ν", "—", "0.3"), ("Steel density", "—", "7.85e-09"),
        ("Shell-2mm thickness", "—", "2"), ("Bar a", "—", "10"), ("Bar b", "—", "20")]


def test_each_value_says_what_it_measures(tmp_path, model):
    """The words for people give a value its unit from the quantity the domain states, never
    from the value's name read back."""
    run_dir = _run_dir(tmp_path, [STEEL], [SHELL, BEAM])
    record_before(run_dir, model)
    _define(model, STEEL, [SHELL, BEAM])
    quantities = {c.name: c.quantity for c in property_value_checks(run_dir, model)}
    assert quantities == {
        "material Steel E": "stress", "material Steel ν": None,
        "material Steel density": "density", "section Shell-2mm material": None,
        "section Shell-2mm thickness": "length", "section Bar material": None,
        "section Bar profile": None, "section Bar profile a": "length",
        "section Bar profile b": "length"}
    assert [row.quantity for row in values_table(run_dir)] == [
        "stress", None, "density", "length", "length", "length"]
    written = property_value_checks(run_dir, model)[1].model_dump()
    assert "quantity" not in written  # a ratio has none, and result.json says nothing of it


def test_a_value_the_model_does_not_hold_fails(tmp_path, model):
    run_dir = _run_dir(tmp_path, [STEEL], [SHELL])
    _define(model, {**STEEL, "youngs_modulus": 200000.0}, [{**SHELL, "thickness": 2.5}])
    failed = {c.name: (c.expected, c.actual) for c in property_value_checks(run_dir, model)
              if not c.ok}
    assert failed == {"material Steel E": ("210000", "200000"),
                      "section Shell-2mm thickness": ("2", "2.5")}


def test_a_missing_definition_is_never_passed_off_as_read(tmp_path, model):
    run_dir = _run_dir(tmp_path, [STEEL], [SHELL])
    checks = property_value_checks(run_dir, model)
    assert checks and all(not c.ok and c.actual == "missing" for c in checks)


def test_runs_without_a_definition_add_no_check(tmp_path, model):
    (tmp_path / "normalized_calls.json").write_text(json.dumps(
        [{"tool": "assign_property", "arguments": {}}]))
    assert property_value_checks(tmp_path, model) == []
