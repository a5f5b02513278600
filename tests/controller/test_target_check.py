"""One rule for "can this run act on its target" (runtime/run/target_check.py)."""

from __future__ import annotations

from sam_plugin.compilers.protocol import Target
from sam_plugin.compilers.registry import get_module
from sam_plugin.runtime.run.target_check import TargetProblem, target_problem

PARTS = {"Model-1": ["Plate"], "Model-2": []}


def test_a_missing_model_is_a_problem_in_every_mode():
    for mode in ("part", "property", "mesh"):
        assert target_problem(PARTS, Target(model_name="Nope", part_name="Plate"),
                              get_module(mode)) == TargetProblem(
            missing="model", models=("Model-1", "Model-2"), parts=())


def test_a_missing_part_is_a_problem_only_where_the_mode_cannot_create_it():
    target = Target(model_name="Model-1", part_name="New")
    assert target_problem(PARTS, target, get_module("part")) is None  # build creates it
    for mode in ("property", "mesh"):
        assert target_problem(PARTS, target, get_module(mode)) == TargetProblem(
            missing="part", models=("Model-1", "Model-2"), parts=("Plate",))
    assert target_problem(PARTS, Target(model_name="Model-1", part_name="Plate"),
                          get_module("mesh")) is None
