"""Read-only observation of the workspace: L0 index, L1 target summary and its fingerprint.

L0 lists models and parts and says whether the frozen target exists; L1 summarises the
target part. Both are stable pydantic schemas: written to ``workspace.json`` and, compacted,
put into the design prompt. The fingerprint detects any change of the target between the
spec and its execution (invariant I3).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, Field, SerializerFunctionWrapHandler, model_serializer

from sam_plugin.compilers import registry
from sam_plugin.compilers.evidence import Readback, ShapeName
from sam_plugin.compilers.protocol import Target
from sam_plugin.errors import NonFiniteValue


class ModelEntry(BaseModel):
    name: str
    parts: list[str]


class WorkspaceIndex(BaseModel):
    """L0: what exists, by name only."""

    models: list[ModelEntry]
    target: Target
    target_model_exists: bool
    target_part_exists: bool


class SetSummary(BaseModel):
    name: str
    nodes: int
    elements: int


class PartSummary(BaseModel):
    """L1: the target part in numbers (never its full mesh)."""

    node_count: int
    element_count: int
    shape_counts: dict[ShapeName, int]
    bounding_box: tuple[tuple[float, float, float], tuple[float, float, float]] | None
    sets: list[SetSummary]
    materials: list[str]
    sections: list[str]
    assigned_elements: int
    unassigned_elements: int
    oriented_beams: int


class Observation(BaseModel):
    mode: str
    target: Target
    index: WorkspaceIndex
    part: PartSummary | None
    fingerprint: str
    readback: Readback = Field(exclude=True)
    # the mode's own lines (``DomainModule.observation_lines``): written only when it has some
    domain: dict[str, Any] = Field(default_factory=dict)

    @model_serializer(mode="wrap")
    def _domain_when_any(self, handler: SerializerFunctionWrapHandler) -> Any:
        dumped = handler(self)
        if isinstance(dumped, dict) and not dumped.get("domain"):
            dumped.pop("domain", None)
        return dumped

    @property
    def target_is_empty(self) -> bool:
        """No part, or a part with neither nodes nor elements: routes to ``build``."""
        return self.part is None or (self.part.node_count == 0 and self.part.element_count == 0)

    def prompt_json(self) -> str:
        """The compact form for the design prompt (no whitespace, stable key order), with long
        name lists cut and counted so the prompt stays bounded whatever the workspace holds
        (``workspace.json`` keeps everything)."""
        payload = _bounded(self.model_dump(mode="json"), self.target)
        return json.dumps(payload, separators=(",", ":"), ensure_ascii=False)


PROMPT_LIST_LIMIT = 40  # models, parts per model, sets, materials, sections in the prompt


def _cut(items: list[Any], keep: Callable[[Any], bool] = lambda item: False) -> list[Any]:
    """The first ``PROMPT_LIST_LIMIT`` items, always including those ``keep`` names."""
    if len(items) <= PROMPT_LIST_LIMIT:
        return items
    kept = [item for item in items if keep(item)]
    rest = [item for item in items if not keep(item)]
    return kept + rest[: max(0, PROMPT_LIST_LIMIT - len(kept))]


def _bounded(payload: dict[str, Any], target: Target) -> dict[str, Any]:
    models = payload["index"]["models"]
    shown = _cut(models, lambda m: m["name"] == target.model_name)
    for model in shown:
        parts = model["parts"]
        model["parts"] = _cut(parts, lambda name: name == target.part_name)
        if len(parts) > len(model["parts"]):
            model["parts_not_listed"] = len(parts) - len(model["parts"])
    payload["index"]["models"] = shown
    if len(models) > len(shown):
        payload["index"]["models_not_listed"] = len(models) - len(shown)
    part = payload.get("part")
    if part:
        for key in ("sets", "materials", "sections"):
            full = part[key]
            part[key] = _cut(full)
            if len(full) > len(part[key]):
                part[f"{key}_not_listed"] = len(full) - len(part[key])
    return payload


def observe(host: Any, mode: str, target: Target) -> Observation:
    """Observe through the host gateway; reads only. A part with a NaN or infinite value
    cannot be fingerprinted, so nothing can be planned on it: ``NonFiniteValue``."""
    readback: Readback = host.readback(target)
    if readback.non_finite:
        raise NonFiniteValue(readback.non_finite)
    models = _index_models(host.mdb)
    model_exists = any(m.name == target.model_name for m in models)
    part = host.part(target) if readback.part_exists else None
    index = WorkspaceIndex(
        models=models,
        target=target,
        target_model_exists=model_exists,
        target_part_exists=readback.part_exists,
    )
    summary = _summarize(readback, part) if readback.part_exists else None
    fingerprint = target_fingerprint(readback)  # the read stays kept by it (L2 reuses it)
    return Observation(
        mode=mode,
        target=target,
        index=index,
        part=summary,
        fingerprint=fingerprint,
        readback=readback,
        domain=_domain_lines(host.mdb, mode, target) if model_exists else {},
    )


def _domain_lines(mdb: Any, mode: str, target: Target) -> dict[str, Any]:
    """What the mode's domain adds about the target model (its own repositories of it)."""
    if mode not in registry.MODES:
        return {}
    return registry.get_module(mode).observation_lines(mdb.models[target.model_name])


def target_fingerprint(readback: Readback) -> str:
    """The part fingerprint (``samops.fingerprint``): every node, element, set, membership,
    section assignment, beam orientation and property definition, so that a set renamed or
    refilled, or a material or section changed, between spec and execution is drift too."""
    return readback.fingerprint


def _index_models(mdb: Any) -> list[ModelEntry]:
    return [
        ModelEntry(name=name, parts=sorted(mdb.models[name].parts.keys()))
        for name in sorted(mdb.models.keys())
    ]


def _summarize(readback: Readback, part: Any) -> PartSummary:
    return PartSummary(
        node_count=readback.node_count,
        element_count=readback.element_count,
        shape_counts=dict(readback.shape_counts),
        bounding_box=readback.bounding_box,
        sets=_set_sizes(part, readback.sets),
        materials=list(readback.materials),
        sections=list(readback.sections),
        assigned_elements=readback.assigned_elements,
        unassigned_elements=max(0, readback.element_count - readback.assigned_elements),
        oriented_beams=readback.oriented_beams,
    )


def _set_sizes(part: Any, names: list[str]) -> list[SetSummary]:
    sets = getattr(part, "sets", None)
    summaries = []
    for name in names:
        region = sets[name] if sets is not None and name in sets.keys() else None
        summaries.append(
            SetSummary(
                name=name,
                nodes=_size(getattr(region, "nodes", None)),
                elements=_size(getattr(region, "elements", None)),
            )
        )
    return summaries


def _size(items: Any) -> int:
    try:
        return len(items) if items is not None else 0
    except TypeError:
        return 0
