"""The spec the analyst edits at Review, as a document (docs/ui.md "Editing the spec"): built
from the form's fields, checked by the same reader as a model's answer, and each problem put
on the field its JSON path names.

No Qt here. The form (``ui/spec_form.py``) reads its fields with ``ui/field_text.py`` and
assembles the document with :func:`step_document` and :func:`spec_document`; a reader's
problem that names a field carries its JSON path as data (``SpecProblem``: the path
``steps[0].values.vector``, the words ``[0, 7] is too short``), and :func:`place_problems`
gives each to the field of the longest path that holds it. Its words are never read back.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from sam_plugin.compilers import schema_common as sc
from sam_plugin.compilers.spec import values as v
from sam_plugin.compilers.spec.problem import SpecProblem
from sam_plugin.compilers.spec.reading import spec_from_json
from sam_plugin.compilers.spec.vocabulary import ActionDef, Vocabulary
from sam_plugin.errors import SpecRejected

# the scope of a step, as the tool IR's Selector names its kinds
SCOPE_KINDS: Final = ("all", "labels", "set", "shape", "box")
# ``expected`` as fields: the spec IR's Expected (compilers/spec/ir.py), every one optional
EXPECTED: Final = v.record("the results expected of the whole part after the change", {
    "nodes": v.integer("nodes of the whole part after the change", minimum=0),
    "elements": v.integer("elements of the whole part after the change", minimum=0),
    "shapes": v.record("elements per shape after the change",
                       {shape: v.integer(shape, minimum=0) for shape in sc.SHAPE_VALUES}),
    "sets": v.names("sets the part has after the change"),
    "selected": v.integer("how many elements (or nodes) the change acts on", minimum=0),
})


def join(path: str, key: str | int) -> str:
    """``steps[0]`` + ``values`` -> ``steps[0].values``; + 1 -> ``steps[0][1]``."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


# -- the document -----------------------------------------------------------------------------


def step_document(action: ActionDef, scope: Mapping[str, Any] | None,
                  values: Mapping[str, Any], text: str) -> dict[str, Any]:
    """One step as ``spec.json`` holds it (``Step.as_json``): capability from the action."""
    step: dict[str, Any] = {"capability": action.capability, "action": action.name}
    if scope is not None:
        step["scope"] = dict(scope)
    step["values"] = dict(values)
    step["text"] = text
    return step


def spec_document(summary: str, steps: list[dict[str, Any]],
                  expected: Mapping[str, Any] | None) -> dict[str, Any]:
    document: dict[str, Any] = {"summary": summary, "steps": steps}
    if expected:
        document["expected"] = dict(expected)
    return document


def new_step(action: ActionDef) -> dict[str, Any]:
    """A step added from the vocabulary: the action, its stated defaults, nothing else (the
    reader then names what it still needs)."""
    return step_document(action, None, dict(action.defaults), "")


def with_action(step: Mapping[str, Any], action: ActionDef) -> dict[str, Any]:
    """``step`` made a step of ``action``: the values the new action also has are kept, and
    the scope when it takes one."""
    old_values = step.get("values")
    given = old_values if isinstance(old_values, Mapping) else {}
    values = {**action.defaults, **{k: val for k, val in given.items() if k in action.values}}
    scope = step.get("scope") if action.scope != "none" else None
    text = step.get("text")
    return step_document(action, scope if isinstance(scope, Mapping) else None, values,
                         text if isinstance(text, str) else "")


def json_text(value: Any, indent: int = 0) -> str:
    """The spec as ``specJsonEdit`` shows it: indented, with a list of numbers or names on
    one line (a vector, labels), so that a long list stays one line of the text."""
    pad, inner = " " * indent, " " * (indent + 2)
    if isinstance(value, dict) and value:
        items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {json_text(v, indent + 2)}"
                 for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list) and any(isinstance(v, dict | list) for v in value):
        return "[\n" + ",\n".join(inner + json_text(v, indent + 2) for v in value) + \
            "\n" + pad + "]"
    return json.dumps(value, ensure_ascii=False)


# -- checking ---------------------------------------------------------------------------------


def problems_of(document: Any, vocabulary: Vocabulary) -> list[str]:
    """What the spec reader says of ``document`` (nothing: it reads as a spec)."""
    try:
        spec_from_json(document, vocabulary)
    except SpecRejected as rejected:
        return list(rejected.problems)
    return []


def unshowable(document: Any, vocabulary: Vocabulary) -> str:
    """Why the form cannot show ``document`` (an edit in JSON that the reader will name), or
    ``""`` when it can: each step an object of one of the mode's actions."""
    if not isinstance(document, dict):
        return "(the spec): not a JSON object"
    steps = document.get("steps", [])
    if not isinstance(document.get("summary", ""), str):
        return "summary: not text"
    if not isinstance(steps, list):
        return "steps: not a list"
    for index, step in enumerate(steps):
        here = f"steps[{index}]"
        if not isinstance(step, dict):
            return f"{here}: not an object"
        if vocabulary.action(step.get("action")) is None:  # type: ignore[arg-type]
            return f"{here}.action: {step.get('action')!r} is not a {vocabulary.title} action"
        scope = step.get("scope")
        if scope is not None and not (isinstance(scope, dict)
                                      and scope.get("by") in SCOPE_KINDS):
            return f"{here}.scope: not a selector"
        if not isinstance(step.get("values", {}), dict):
            return f"{here}.values: not an object"
    if not isinstance(document.get("expected", {}), dict):
        return "expected: not an object"
    return ""


# -- problems on fields -----------------------------------------------------------------------


@dataclass(frozen=True)
class Placement:
    """The reader's problems by the field that shows them (its words after the field's own
    path), and those no field holds (said whole, path and all)."""

    on_fields: dict[str, list[str]] = field(default_factory=dict)
    elsewhere: list[str] = field(default_factory=list)


def split_problem(problem: str) -> tuple[str, str]:
    """A problem at ``steps[0].values.vector`` -> (``steps[0].values.vector``, its words);
    one of the whole spec -> ("", its words); one that names no field (a plain string) ->
    ("", the problem)."""
    if isinstance(problem, SpecProblem):
        return problem.path, problem.words
    return "", problem


def place_problems(problems: list[str], fields: Collection[str]) -> Placement:
    """Each problem on the field of the longest path that is its path or holds it; a missing
    required value on that value's own field."""
    placement = Placement()
    for problem in problems:
        path, words = split_problem(problem)
        missing = problem.missing if isinstance(problem, SpecProblem) else None
        if missing is not None and join(path, missing) in fields:
            path = join(path, missing)
        owner = _owner(path, fields) if path else None
        if owner is None:
            placement.elsewhere.append(problem)
            continue
        rest = path[len(owner):]
        placement.on_fields.setdefault(owner, []).append(f"{rest}: {words}" if rest else words)
    return placement


def _owner(path: str, fields: Collection[str]) -> str | None:
    best: str | None = None
    for candidate in fields:
        holds = path == candidate or (path.startswith(candidate)
                                      and path[len(candidate)] in ".[")
        if holds and (best is None or len(candidate) > len(best)):
            best = candidate
    return best
