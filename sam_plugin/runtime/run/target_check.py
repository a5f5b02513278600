"""Whether a run's target can be acted on: the model must exist, and the part too unless the
mode's domain module creates it (Part build). The one rule behind the controller's
observation, the CLI's usage check and the dock's warning; each says it in its own words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from sam_plugin.compilers import registry
from sam_plugin.compilers.protocol import DomainModule, Target


@dataclass(frozen=True)
class TargetProblem:
    """What is missing, with the names that do exist (for the message)."""

    missing: Literal["model", "part"]
    models: tuple[str, ...]  # every model, when the model is missing
    parts: tuple[str, ...]  # the model's parts, when the part is missing


def parts_by_model(mdb: Any) -> dict[str, list[str]]:
    """``{model name: its part names}`` read through the host API."""
    return {name: list(mdb.models[name].parts.keys()) for name in mdb.models.keys()}


def target_problem(
    parts: Mapping[str, Sequence[str]], target: Target, module: DomainModule
) -> TargetProblem | None:
    """``None`` when ``target`` can be acted on in ``module``'s mode."""
    if target.model_name not in parts:
        return TargetProblem(missing="model", models=tuple(parts), parts=())
    existing = tuple(parts[target.model_name])
    if target.part_name not in existing and not module.creates_target:
        return TargetProblem(missing="part", models=tuple(parts), parts=existing)
    return None


def building_module() -> DomainModule:
    """The domain that creates a missing target part (Part: build), where the words send an
    analyst whose part does not exist yet."""
    modules = [registry.get_module(mode) for mode in registry.MODES]
    return next(module for module in modules if module.creates_target)
