"""The Property calls computed from the confirmed steps: the inverse of
``actions.operations`` (docs/architecture.md §4 "Calls from the steps").

define: every material, then every section, in the steps' order · assign: every assignment,
then every beam orientation · audit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sam_plugin.compilers.property.routing_rules import TOOL_NAMES
from sam_plugin.compilers.spec.computed import ComputedCall, scope_json, steps_of
from sam_plugin.compilers.spec.ir import Spec, Step

# the step's value key -> the tool IR's field
_MATERIAL_FIELDS = {"name": "name", "E": "youngs_modulus", "nu": "poisson_ratio",
                    "density": "density"}
_SECTION_FIELDS = ("name", "kind", "material", "thickness", "profile")


def calls_from_steps(spec: Spec, tools: Sequence[str]) -> list[ComputedCall]:
    """The calls of ``tools`` (the route's, in order) that carry out ``spec``'s steps."""
    by_tool = {tool: capability for capability, tool in TOOL_NAMES.items()}
    return [_COMPUTE[by_tool[tool]](spec) for tool in tools]


def _picked(spec: Spec, capability: str, action: str) -> list[tuple[int, Step]]:
    return [(i, s) for i, s in steps_of(spec, capability) if s.action == action]


def _define(spec: Spec) -> ComputedCall:
    materials = [{field: step.values[key] for key, field in _MATERIAL_FIELDS.items()
                  if key in step.values} for _, step in _picked(spec, "define", "define_material")]
    sections = [{key: step.values[key] for key in _SECTION_FIELDS if key in step.values}
                for _, step in _picked(spec, "define", "define_section")]
    paths = {f"materials[{k}]": i
             for k, (i, _) in enumerate(_picked(spec, "define", "define_material"))}
    paths.update({f"sections[{k}]": i
                  for k, (i, _) in enumerate(_picked(spec, "define", "define_section"))})
    arguments: dict[str, Any] = {}
    if materials:
        arguments["materials"] = materials
    if sections:
        arguments["sections"] = sections
    return ComputedCall("define_property", arguments,
                        tuple(i for i, _ in steps_of(spec, "define")), paths)


def _assign(spec: Spec) -> ComputedCall:
    assigned = _picked(spec, "assign", "assign_section")
    oriented = _picked(spec, "assign", "orient_beams")
    arguments: dict[str, Any] = {}
    if assigned:
        arguments["assignments"] = [
            {"section": step.values["section"], "selection": scope_json(step)}
            for _, step in assigned]
    if oriented:
        arguments["beam_orientations"] = [
            {"selection": scope_json(step), "n1": step.values["n1"]} for _, step in oriented]
    paths = {f"assignments[{k}]": i for k, (i, _) in enumerate(assigned)}
    paths.update({f"beam_orientations[{k}]": i for k, (i, _) in enumerate(oriented)})
    return ComputedCall("assign_property", arguments,
                        tuple(i for i, _ in steps_of(spec, "assign")), paths)


def _audit(spec: Spec) -> ComputedCall:
    return ComputedCall("audit_property", {}, tuple(i for i, _ in steps_of(spec, "audit")))


_COMPUTE = {"define": _define, "assign": _assign, "audit": _audit}
