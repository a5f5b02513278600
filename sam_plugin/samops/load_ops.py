"""The Load mode's host operations: static steps, pressures, concentrated forces, fixed and
displacement boundary conditions (docs/architecture.md §3 "Loads and boundary conditions").

The generated script calls these with plain data. A load's or a condition's region is a set
of the target part: the set the call names, or one made from its selection under the name the
compilers chose (``LOAD-<name>``, ``BC-<name>``). Nothing here changes a node or an element.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sam_plugin.samops import selection

INITIAL = "Initial"
DOFS = ("u1", "u2", "u3", "ur1", "ur2", "ur3")


def step_names(model: Any) -> list[str]:
    """The model's steps in analysis order (``Initial`` first)."""
    return [str(name) for name in model.steps.keys()]


def define_steps(model: Any, steps: Sequence[Mapping[str, Any]]) -> list[str]:
    """Create each static step after its ``previous`` (the last step when it names none)."""
    made = []
    for step in steps:
        previous = step.get("previous") or step_names(model)[-1]
        model.StaticStep(name=step["name"], previous=previous)
        made.append(str(step["name"]))
    return made


def region(part: Any, name: str, selector: Mapping[str, Any], members: str) -> Any:
    """The set a load or condition acts on: the set ``selector`` names, else the set
    ``name`` made of the ``members`` (``elements`` or ``nodes``) ``selector`` picks."""
    if selector["by"] == "set":
        return part.sets[selector["name"]]
    if members == "elements":
        labels = [e.label for e in selection.select_elements(part, selector)]
        return part.Set(name=name, elements=part.elements.sequenceFromLabels(labels))
    labels = [n.label for n in selection.select_nodes(part, selector)]
    return part.Set(name=name, nodes=part.nodes.sequenceFromLabels(labels))


def apply_loads(model: Any, part: Any, loads: Sequence[Mapping[str, Any]]) -> list[str]:
    """Create each pressure (on elements) and concentrated force (on nodes)."""
    made = []
    for load in loads:
        if load["kind"] == "pressure":
            where = region(part, load["region"], load["selection"], "elements")
            model.Pressure(name=load["name"], createStepName=load["step"], region=where,
                           magnitude=float(load["magnitude"]))
        else:
            where = region(part, load["region"], load["selection"], "nodes")
            cf1, cf2, cf3 = (float(c) for c in load["vector"])
            model.ConcentratedForce(name=load["name"], createStepName=load["step"],
                                    region=where, cf1=cf1, cf2=cf2, cf3=cf3)
        made.append(str(load["name"]))
    return made


def displacement_values(condition: Mapping[str, Any]) -> dict[str, float | None]:
    """Each dof's prescribed value (``None``: free) of a ``fix`` or ``displace`` condition."""
    if condition["kind"] == "fix":
        fixed = condition.get("dofs") or list(DOFS)
        return {dof: 0.0 if dof in fixed else None for dof in DOFS}
    given = condition.get("values") or {}
    return {dof: float(given[dof]) if given.get(dof) is not None else None for dof in DOFS}


def is_encastre(condition: Mapping[str, Any]) -> bool:
    return condition["kind"] == "fix" and set(condition.get("dofs") or DOFS) == set(DOFS)


def apply_conditions(model: Any, part: Any, conditions: Sequence[Mapping[str, Any]]
                     ) -> list[str]:
    """Create each boundary condition on nodes: a fix of every dof is an encastre, any other
    a displacement condition (a fixed dof is 0, a dof not named stays free)."""
    from samConstants import UNSET  # the host's constants exist only inside SAM (or the stub)

    made = []
    for condition in conditions:
        where = region(part, condition["region"], condition["selection"], "nodes")
        if is_encastre(condition):
            model.EncastreBC(name=condition["name"], createStepName=condition["step"],
                             region=where)
        else:
            values = displacement_values(condition)
            model.DisplacementBC(name=condition["name"], createStepName=condition["step"],
                                 region=where, **{dof: UNSET if value is None else value
                                                  for dof, value in values.items()})
        made.append(str(condition["name"]))
    return made


def verify_present(model: Any, steps: Sequence[str], loads: Sequence[str],
                   conditions: Sequence[str]) -> None:
    """Raise when a step, load or condition the script made is not in the model."""
    lacking = ([f"step {s!r}" for s in steps if s not in model.steps.keys()]
               + [f"load {name!r}" for name in loads if name not in model.loads.keys()]
               + [f"boundary condition {name!r}" for name in conditions
                  if name not in model.boundaryConditions.keys()])
    if lacking:
        raise RuntimeError(f"not in the model after the run: {', '.join(lacking)}")
