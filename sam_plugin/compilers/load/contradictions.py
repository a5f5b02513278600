"""The Load steps a request's own words contradict (``DomainModule.request_contradictions``,
docs/architecture.md §4 "One repair before Review"):

- a load where the words name a dof ("lift the top edge by 0.2 in the u2 direction", "把
  u1 和 u2 约束住"): a dof is held or moved by a boundary condition, and a force names its
  components cf1..cf3. Asked again held to ``fix`` or ``displace``, where the spec has
  neither;
- a support of some dofs where the words hold every one ("clamp it completely", "完全固
  定") and name none: asked again without its dofs (all six, the default)."""

from __future__ import annotations

import re

from sam_plugin.compilers.load.actions import VOCABULARY
from sam_plugin.compilers.load.zero_force import BOUNDARY_ACTIONS, BOUNDARY_NEEDS
from sam_plugin.compilers.protocol import Diagnostic, StepDiagnostic
from sam_plugin.compilers.spec.computed import step_said
from sam_plugin.compilers.spec.ir import Spec
from sam_plugin.compilers.spec.request_words import fold
from sam_plugin.samops.load_ops import DOFS

_DOF = re.compile(r"(?<![A-Za-z0-9])u[r]?[1-3](?![A-Za-z0-9])", re.IGNORECASE)
_EVERY_DOF = re.compile(
    r"\b(?:completely|fully|entirely|rigidly|in\s+all\s+directions|encastre\w*|"
    r"all\s+(?:six\s+|6\s+)?(?:dofs|degrees\s+of\s+freedom)|every\s+(?:dof|degree\s+of\s+"
    r"freedom))\b|完全|全部自由度|所有自由度|六个自由度|固支", re.IGNORECASE)
_LOADS = ("force", "pressure")


def request_contradictions(spec: Spec, request: str) -> list[StepDiagnostic]:
    folded = fold(request)
    return _load_for_dofs(spec, folded) or _some_dofs_for_all(spec, folded)


def _load_for_dofs(spec: Spec, folded: str) -> list[StepDiagnostic]:
    dofs = list(dict.fromkeys(m.group(0) for m in _DOF.finditer(folded)))
    actions = [step.action for step in spec.steps]
    if not dofs or any(action in BOUNDARY_ACTIONS for action in actions):
        return []
    index = next((i for i, action in enumerate(actions) if action in _LOADS), None)
    if index is None:
        return []
    named = " and ".join(f"“{dof}”" for dof in dofs[:3])
    return [StepDiagnostic(index, Diagnostic(
        path=f"steps[{index}]",
        message=(f"the request names {named}, and {step_said(spec, index, VOCABULARY)} is a "
                 "load: a dof is held or moved by a boundary condition (a force's components "
                 "are cf1, cf2, cf3): write fix (the dofs held at 0) or displace (each dof's "
                 "value)"),
        needs=BOUNDARY_NEEDS))]


def _some_dofs_for_all(spec: Spec, folded: str) -> list[StepDiagnostic]:
    every = _EVERY_DOF.search(folded)
    if every is None or _DOF.search(folded):
        return []
    for index, step in enumerate(spec.steps):
        dofs = step.values.get("dofs")
        if step.action == "fix" and isinstance(dofs, list) and set(dofs) != set(DOFS):
            held = ", ".join(map(str, dofs)) or "none"
            return [StepDiagnostic(index, Diagnostic(
                path=f"steps[{index}].values.dofs",
                message=(f"the request says “{every.group(0)}”, and "
                         f"{step_said(spec, index, VOCABULARY)} holds {held} only: leave its "
                         "dofs out, and all six are held"),
                needs=("-dofs",)))]
    return []
