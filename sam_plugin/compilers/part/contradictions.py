"""The Part steps a request's own words contradict (``DomainModule.request_contradictions``):
a part made anew with another number of elements, then elements of another shape or a build
in another plane than the words name."""

from __future__ import annotations

from sam_plugin.compilers.part import element_count, shape_words
from sam_plugin.compilers.protocol import StepDiagnostic
from sam_plugin.compilers.spec.ir import Spec


def request_contradictions(spec: Spec, request: str) -> list[StepDiagnostic]:
    return [*element_count.request_contradictions(spec, request),
            *shape_words.request_contradictions(spec, request)]
