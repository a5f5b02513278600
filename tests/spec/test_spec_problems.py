"""A spec reader's problem that names a field carries its path as data (``SpecProblem``),
and its line is the one the reader said before: what a repair round sends a model does not
change, and the dock places it where it placed it by reading the line (docs/architecture.md
"Messages as data")."""

from __future__ import annotations

import copy
import pickle
import re
from collections.abc import Iterator
from typing import Any

import pytest

from sam_plugin.compilers import registry
from sam_plugin.compilers.spec.problem import SpecProblem
from sam_plugin.compilers.spec.reading import spec_from_json
from sam_plugin.demo.examples import load_examples
from sam_plugin.errors import SpecRejected
from sam_plugin.runtime.run.typed_spec import check_typed_spec

# how the dock read a problem's path from its line before problems were data
OLD_PATH = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*|\[\d+\])*")


def old_split(line: str) -> tuple[str, str]:
    path, sep, words = line.partition(": ")
    if sep and path == "(the spec)":
        return "", words
    if not sep or not OLD_PATH.fullmatch(path):
        return "", line
    return path, words


def broken(spec: dict[str, Any]) -> Iterator[Any]:
    """``spec`` broken in every way a step or the whole document can be."""
    yield []
    yield {"steps": spec["steps"]}
    yield {**spec, "summary": 5, "extra": 1}
    yield {**spec, "steps": "none"}
    yield {**spec, "expected": {"nodes": -1, "sets": "S"}}
    for index in range(len(spec["steps"])):
        def step_with(index: int = index, **change: Any) -> dict[str, Any]:
            document = copy.deepcopy(spec)
            document["steps"][index].update(change)
            return document
        step = spec["steps"][index]
        yield {**spec, "steps": [*spec["steps"][:index], 7]}
        yield step_with(action="teleport")
        yield step_with(capability="nothing")
        yield step_with(scope={"by": "box", "min": [5, 0, 0], "max": [0, 1, 1]})
        yield step_with(scope={"by": "cloud"})
        yield step_with(values={})
        yield step_with(values={**step["values"], "unheard_of": 1})
        yield step_with(values={key: "x" for key in step["values"]})
        yield step_with(values={key: [] for key in step["values"]})
        yield step_with(text=["words"])
        without = copy.deepcopy(spec)
        without["steps"][index].pop("scope", None) if "scope" in step else \
            without["steps"][index].update(scope={"by": "all"})
        yield without


def one_step(action: str, values: dict[str, Any], scope: Any = None) -> dict[str, Any]:
    step = {"capability": registry.get_module("part").vocabulary.action(action).capability,
            "action": action, "values": values, "text": ""}
    return {"summary": "x", "steps": [step if scope is None else {**step, "scope": scope}]}


# what the schema cannot say: two ways of stating the geometry, a label twice, a point short
INCONSISTENT = [
    ("both ways", one_step("build", {"shape": "BEAM", "size": [60, 100], "divisions": [6, 10],
                                     "lines": [{"start": [0, 0, 0], "end": [1, 0, 0],
                                                "divisions": 2}]})),
    ("twice", one_step("move_nodes", {"labels": [1, 1], "to": [[0, 0, 0], [1, 1, 1]]},
                       {"by": "all"})),
    ("short", one_step("move_nodes", {"labels": [1, 2], "to": [[0, 0, 0]]}, {"by": "all"})),
]


def reader_problems() -> Iterator[tuple[str, str]]:
    documents = [(example.id, example.mode, document) for example in load_examples()
                 for document in broken(example.spec)]
    documents += [(name, "part", document) for name, document in INCONSISTENT]
    for name, mode, document in documents:
        try:
            spec_from_json(document, registry.get_module(mode).vocabulary)
        except SpecRejected as rejected:
            for problem in rejected.problems:
                yield name, problem


PROBLEMS = list(reader_problems())


def test_the_reader_is_broken_in_many_ways():
    assert len(PROBLEMS) > 150
    assert {name for name, _ in PROBLEMS} >= {name for name, _ in INCONSISTENT}


@pytest.mark.parametrize(("example", "problem"), PROBLEMS[::7])
def test_a_problems_path_as_data_is_where_its_line_placed_it(example, problem):
    if isinstance(problem, SpecProblem):
        assert problem == f"{problem.path or '(the spec)'}: {problem.words}", example
        assert (problem.path, problem.words) == old_split(problem), example
    else:
        assert old_split(problem) == ("", problem), example


def test_every_problem_that_names_a_field_is_data():
    for example, problem in PROBLEMS:
        if old_split(problem)[0] or problem.startswith("(the spec): "):
            assert isinstance(problem, SpecProblem), (example, problem)


def test_a_non_finite_number_the_strict_reader_refuses_names_its_field():
    with pytest.raises(SpecRejected) as refused:
        check_typed_spec({"summary": "x", "steps": [{"values": {"factor": float("inf")}}]})
    problem = refused.value.problems[0]
    assert problem == ("steps[0].values.factor: inf is not a finite number; JSON numbers must "
                       "be finite")
    assert isinstance(problem, SpecProblem) and problem.path == "steps[0].values.factor"


def test_a_problem_keeps_its_data_when_copied():
    problem = SpecProblem("steps[0].values", "'vector' is a required property", "vector")
    for kept in (copy.deepcopy(problem), pickle.loads(pickle.dumps(problem))):
        assert kept == problem
        assert (kept.path, kept.words, kept.missing) == (problem.path, problem.words, "vector")
    assert SpecProblem("", "not an object") == "(the spec): not an object"
