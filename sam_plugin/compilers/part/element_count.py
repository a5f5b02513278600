"""A part made anew with another number of elements than the request states ("平均分成 9 个梁
单元" answered with one BEAM from end to end; "4 elems" with one; "one element every 500"
over 3000 with one): said on the step that
makes them, before Review (docs/architecture.md §4 "One repair before Review"). Where that
step gives its elements one by one, it is asked again without them: the line or patch with
its divisions makes them. Only a part made anew (built, or emptied by an earlier step) with
one step that adds elements: on a part that keeps elements, a count the request states may be
of those ("delete the 4 elements in the middle")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sam_plugin.compilers.part.actions import VOCABULARY
from sam_plugin.compilers.protocol import Diagnostic, StepDiagnostic
from sam_plugin.compilers.spec.computed import step_said
from sam_plugin.compilers.spec.ir import Spec, Step
from sam_plugin.compilers.spec.request_elements import StatedElements, stated_elements
from sam_plugin.compilers.spec.request_spacing import spacing_in

_ADDING = ("build", "add_elements")
_EMPTYING = ("delete_elements", "delete_nodes")


def request_contradictions(spec: Spec, request: str) -> list[StepDiagnostic]:
    """The one step that makes a part anew with other than the stated number of elements."""
    stated = stated_elements(request) or _spaced(request)
    adding = [i for i, step in enumerate(spec.steps) if step.action in _ADDING]
    if stated is None or len(adding) != 1 or not _made_anew(spec, adding[0]):
        return []
    index = adding[0]
    values = spec.steps[index].values
    made = _made(values)
    if not made or stated.count in made:
        return []
    one_by_one = isinstance(values.get("elements"), list) and not any(
        values.get(k) for k in ("patches", "lines", "size", "divisions"))
    counted = min(made)
    return [StepDiagnostic(index, Diagnostic(
        path=f"steps[{index}].values",
        message=(f"the request says “{stated.said}”, and {step_said(spec, index, VOCABULARY)} "
                 f"makes {counted} element{'s' if counted != 1 else ''}: write it so that it "
                 f"makes {stated.count} (a line by its divisions, a patch or a rectangle by its "
                 "divisions [nu, nv])"),
        needs=("-elements",) if one_by_one else ()))]


def _spaced(request: str) -> StatedElements | None:
    """The elements an element size makes of the line or rectangle the request names ("one
    element every 500" from the origin to (0, 0, 3000): 6)."""
    found = spacing_in(request)
    if found is None or found.elements is None:
        return None
    return StatedElements(found.said, found.elements)


def _made_anew(spec: Spec, adding: int) -> bool:
    """Built, or emptied by an earlier step (everything deleted)."""
    return spec.steps[adding].action == "build" or any(
        _empties(step) for step in spec.steps[:adding])


def _empties(step: Step) -> bool:
    if step.action == "clear_all":
        return True
    scope = step.scope.model_dump(mode="json") if step.scope is not None else None
    return step.action in _EMPTYING and scope == {"by": "all"}


def _made(values: Mapping[str, Any]) -> set[int]:
    """The numbers of elements the step's values may make (a TRI cell is 1 or 2 of them, as
    a person counts it); empty when they cannot be told."""
    totals = {0}
    for patch in values.get("patches") or ():
        nu, nv = (list(patch.get("divisions") or (1, 1)) + [1, 1])[:2]
        cells = int(nu) * int(nv)
        totals = {t + c for t in totals
                  for c in ({cells, 2 * cells} if patch.get("shape") == "TRI" else {cells})}
    for line in values.get("lines") or ():
        totals = {t + int(line.get("divisions", 1)) for t in totals}
    elements = values.get("elements")
    if isinstance(elements, list):
        totals = {t + len(elements) for t in totals}
    elif isinstance(elements, int) and not values.get("patches") and not values.get("lines"):
        return set()  # a count the model claims: the plan compares it
    divisions = values.get("divisions")
    if isinstance(divisions, list) and divisions and not values.get("patches") \
            and not values.get("lines") and not isinstance(elements, list):
        cells = 1
        for n in divisions:
            cells *= int(n)
        totals = {t + c for t in totals
                  for c in ({cells, 2 * cells} if values.get("shape") == "TRI" else {cells})}
    return totals - {0}
