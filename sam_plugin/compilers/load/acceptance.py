"""Acceptance checks of the Load mode's tasks on the FINAL model: a step, a load or a boundary
condition found by what it is (its kind, its step, its values and the members of its region),
not by the name a model chose."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sam_plugin.compilers.acceptance import TOL, Check
from sam_plugin.samops.load_read import read_loads


def _close(a: Any, b: float | None) -> bool:
    if b is None:
        return a is None
    return isinstance(a, int | float) and math.isclose(float(a), b, rel_tol=1e-9,
                                                        abs_tol=TOL)


def _region_labels(model: Any, region: Sequence[str], members: str) -> tuple[int, ...]:
    part_name, set_name = region
    found = model.parts[part_name].sets[set_name]
    return tuple(sorted(x.label for x in (found.elements if members == "elements"
                                          else found.nodes)))


@dataclass(frozen=True)
class StepDefined(Check):
    """A static step of this name follows ``previous``."""

    step: str
    previous: str

    def name(self) -> str:
        return f"step {self.step}"

    def measure(self, model: Any, part: Any) -> tuple[Any, Any, bool]:
        steps = {s["name"]: s.get("previous") for s in read_loads(model)["steps"]}
        actual = f"after {steps[self.step]}" if self.step in steps else "missing"
        return f"after {self.previous}", actual, actual == f"after {self.previous}"


@dataclass(frozen=True)
class Applied(Check):
    """A load (``repository="loads"``) or boundary condition of ``kind`` in ``step`` on
    exactly ``labels`` (elements for a pressure, nodes otherwise), with ``values`` (a value
    ``None``: a free dof)."""

    repository: str
    kind: str
    step: str
    labels: tuple[int, ...]
    values: tuple[tuple[str, float | None], ...]

    def name(self) -> str:
        return f"{self.kind} in {self.step}"

    def _said(self) -> str:
        values = ", ".join(f"{k}={'free' if v is None else f'{v:g}'}" for k, v in self.values)
        return f"{self.kind} in {self.step} on {list(self.labels)}" + (f" ({values})"
                                                                       if values else "")

    def measure(self, model: Any, part: Any) -> tuple[Any, Any, bool]:
        members = "elements" if self.kind == "pressure" else "nodes"
        found = []
        for entry in read_loads(model)[self.repository].values():
            if entry["kind"] != self.kind:
                continue
            labels = _region_labels(model, entry["region"], members)
            ok = (entry["step"] == self.step and labels == self.labels
                  and all(_close(entry["values"].get(k), v) for k, v in self.values))
            if ok:
                return self._said(), self._said(), True
            found.append(f"{entry['name']}: {entry['kind']} in {entry['step']} on "
                         f"{list(labels)} {entry['values']}")
        return self._said(), "; ".join(found) or f"no {self.kind}", False


def step(name: str, previous: str = "Initial") -> StepDefined:
    return StepDefined(name, previous)


def pressure(step_name: str, elements: Sequence[int], magnitude: float) -> Applied:
    return Applied("loads", "pressure", step_name, tuple(sorted(elements)),
                   (("magnitude", magnitude),))


def force(step_name: str, nodes: Sequence[int], vector: Sequence[float]) -> Applied:
    return Applied("loads", "force", step_name, tuple(sorted(nodes)),
                   tuple(zip(("cf1", "cf2", "cf3"), (float(c) for c in vector), strict=True)))


def fixed(nodes: Sequence[int], step_name: str = "Initial") -> Applied:
    """Every dof held (an encastre)."""
    return Applied("boundary_conditions", "encastre", step_name, tuple(sorted(nodes)), ())


def displaced(nodes: Sequence[int], values: Mapping[str, float], step_name: str = "Initial"
              ) -> Applied:
    """The dofs named at their values, the others free."""
    dofs = ("u1", "u2", "u3", "ur1", "ur2", "ur3")
    return Applied("boundary_conditions", "displacement", step_name, tuple(sorted(nodes)),
                   tuple((d, None if d not in values else float(values[d])) for d in dofs))
