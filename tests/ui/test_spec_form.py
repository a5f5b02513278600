"""specForm shows every spec whole: loaded into the fields and read back, each of the suite's
oracle specs (every mode, geometry, profiles, scopes of every kind) and each example is the
same spec, so opening the editor and confirming changes nothing (docs/ui.md "Editing the
spec")."""

from __future__ import annotations

from pathlib import Path

import pytest

from sam_plugin.compilers import registry
from sam_plugin.compilers.spec.reading import spec_from_json
from sam_plugin.demo.examples import load_examples
from sam_plugin.evaluation.task import load_suite
from sam_plugin.ui.spec_draft import SCOPE_KINDS, place_problems, problems_of
from sam_plugin.ui.spec_form import SpecForm
from tests.evaluation.oracle import ORACLE
from tests.support.specs import labels, step

SUITE = Path(__file__).resolve().parents[2] / "eval" / "suite"


def _specs() -> list[tuple[str, str, dict]]:
    found = [(example.id, example.mode, example.spec) for example in load_examples()]
    for task in load_suite(SUITE):
        steps, _ = ORACLE[task.name]
        if not isinstance(steps, str):  # a refusal is words, not a spec
            found.append((task.name, task.mode, {"summary": task.request, "steps": steps}))
    return found


# what the suite does not state: a scope by labels, points paired with their labels
MORE = [("labels", "part", {"summary": "x", "steps": [
    step("translate", labels(1, 2, 3, 9), vector=[0, 7.5, 0]),
    step("move_nodes", labels(5, 2), labels=[5, 2], to=[[1, 2, 3], [4, 5, 6]]),
    step("mirror", {"by": "shape", "shape": "QUAD"}, copy=False, normal=[1, 0, 0])]})]
SPECS = _specs() + MORE


def test_the_specs_cover_every_kind_of_value_and_scope():
    kinds, scopes = set(), set()
    for _, mode, document in SPECS:
        vocabulary = registry.get_module(mode).vocabulary
        for given in document["steps"]:
            action = vocabulary.action(given["action"])
            kinds |= {action.values[key].kind for key in given["values"]}
            scopes.add((given.get("scope") or {}).get("by"))
    assert {"number", "integer", "bool", "vector", "labels", "points", "name", "names",
            "choice", "choices", "record", "records", "count_or_records"} <= kinds
    assert set(SCOPE_KINDS) <= scopes


@pytest.mark.parametrize(("name", "mode", "document"), SPECS, ids=[s[0] for s in SPECS])
def test_a_spec_shown_in_the_fields_reads_back_as_itself(qtbot, name, mode, document):
    vocabulary = registry.get_module(mode).vocabulary
    spec = spec_from_json(document, vocabulary)
    form = SpecForm()
    qtbot.addWidget(form)
    form.load(spec.as_json(), vocabulary)
    shown, unreadable = form.document()
    assert unreadable == {}
    assert problems_of(shown, vocabulary) == []
    assert spec_from_json(shown, vocabulary) == spec
    assert shown == spec.as_json()


def test_every_path_the_reader_names_for_a_broken_step_has_its_field(qtbot):
    """Each value of each action is a field the reader's problems land on."""
    for mode in registry.MODES:
        vocabulary = registry.get_module(mode).vocabulary
        for action in vocabulary.actions:
            document = {"summary": "x", "steps": [{
                "capability": action.capability, "action": action.name,
                **({"scope": {"by": "all"}} if action.scope != "none" else {}),
                "values": dict.fromkeys(action.values, {"bad": True}), "text": ""}]}
            form = SpecForm()
            qtbot.addWidget(form)
            form.load(document, vocabulary)
            problems = problems_of(document, vocabulary)
            placed = place_problems(problems, form.paths())
            assert placed.elsewhere == [], (action.name, placed.elsewhere)
            assert all(path.startswith("steps[0].values.") for path in placed.on_fields), \
                (action.name, placed.on_fields)
