"""A build or new elements of another shape, or a build in another plane, than the request
names ("用三角形单元 … 建一块板" built of QUADs; "在 XZ 平面里建" built in XY): said on the step,
held to the shape or plane named (docs/architecture.md §4 "One repair before Review"). Only
where the request names one shape (or one plane): "a beam along the top of the quad plate"
names two shapes."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from sam_plugin.compilers.part.actions import VOCABULARY
from sam_plugin.compilers.protocol import Diagnostic, StepDiagnostic
from sam_plugin.compilers.spec.computed import step_said
from sam_plugin.compilers.spec.ir import Spec
from sam_plugin.compilers.spec.request_directions import COORDINATE_PLANE
from sam_plugin.compilers.spec.request_words import NAMING, fold

_SHAPE_WORDS = {
    "TRI": r"\b(?:tris?|triangles?|triangular)\b|三角形",
    "QUAD": r"\b(?:quads?|quadrilaterals?|quadrilateral)\b|四边形",
    "BEAM": r"\b(?:beams?|beam elements?)\b|梁",
}
# a plane by its name, or "in YZ" as shorthand ("web in YZ")
_PLANE = re.compile(rf"{COORDINATE_PLANE}|\bin\s+(?:the\s+)?([xyz])([xyz])\b", re.I)
_ADDING = ("build", "add_elements")


def request_contradictions(spec: Spec, request: str) -> list[StepDiagnostic]:
    """The first step that adds elements of another shape, or builds in another plane, than
    the one the request names."""
    folded = fold(request)
    named = {shape: said for shape, words in _SHAPE_WORDS.items()
             if (said := _said_shape(words, folded))}
    plane = _named_plane(folded)
    for index, step in enumerate(spec.steps):
        if step.action not in _ADDING:
            continue
        shapes = _shapes(step.values)
        if len(named) == 1 and shapes:
            (shape, said), = named.items()
            if shapes != {shape}:
                return [_said(spec, index, said, f"makes {'/'.join(sorted(shapes))} elements",
                              f"write it with {shape} elements", f"shape:{shape}")]
        if plane is not None and step.action == "build" and _is_rectangle(step.values):
            written = step.values.get("plane") or "XY"
            if written != plane[0]:
                return [_said(spec, index, plane[1], f"builds in the {written} plane",
                              f"write it with plane {plane[0]}", f"plane:{plane[0]}")]
    return []


def _said(spec: Spec, index: int, said: str, makes: str, remedy: str,
          need: str) -> StepDiagnostic:
    return StepDiagnostic(index, Diagnostic(
        path=f"steps[{index}].values",
        message=(f"the request says “{said}”, and {step_said(spec, index, VOCABULARY)} "
                 f"{makes}: {remedy}"),
        needs=(need,)))


def _said_shape(words: str, folded: str) -> str:
    """The first words naming the shape, not as a name ("set TRIS", "called BEAMS")."""
    for match in re.finditer(words, folded, re.I):
        if not NAMING.search(folded, 0, match.start()):
            return match.group(0)
    return ""


def _named_plane(folded: str) -> tuple[str, str] | None:
    """The one coordinate plane the request names, as ("XZ", its words)."""
    found: dict[str, str] = {}
    for match in _PLANE.finditer(folded):
        letters = [g.upper() for g in match.groups() if g]
        if len(letters) == 2 and letters[0] != letters[1]:
            found.setdefault("".join(sorted(letters)), match.group(0).strip())
    if len(found) != 1:
        return None
    (name, said), = found.items()
    return name, said


def _shapes(values: Mapping[str, Any]) -> set[str]:
    shapes: set[str] = set()
    if isinstance(values.get("shape"), str):
        shapes.add(values["shape"])
    for patch in values.get("patches") or ():
        if isinstance(patch, dict) and isinstance(patch.get("shape"), str):
            shapes.add(patch["shape"])
    if values.get("lines"):
        shapes.add("BEAM")
    elements = values.get("elements")
    if isinstance(elements, list):
        shapes |= {e["shape"] for e in elements if isinstance(e, dict)
                   and isinstance(e.get("shape"), str)}
    return shapes


def _is_rectangle(values: Mapping[str, Any]) -> bool:
    return not any(values.get(k) for k in ("patches", "lines", "elements")) or \
        bool(values.get("size"))
