"""A shell section where the request names a beam profile (docs/architecture.md §4 "One
repair before Review"): "a solid round bar section ROD, 12 mm in diameter" answered with a
shell section ROD of thickness 12. Nothing fails to compute or compile (a shell section on no
element, or on the QUADs), so without this no diagnostic reaches the model. Said on the step
that defines the shell section, held to the beam kind when asked again; never a refusal."""

from __future__ import annotations

import re

from sam_plugin.compilers.property.actions import VOCABULARY
from sam_plugin.compilers.property.profile_reading import (
    NamedProfile,
    named_profile,
    names_a_shell,
)
from sam_plugin.compilers.property.profile_words import PROFILE_DIMENSIONS
from sam_plugin.compilers.protocol import Diagnostic, StepDiagnostic
from sam_plugin.compilers.spec.computed import step_said
from sam_plugin.compilers.spec.ir import Spec
from sam_plugin.compilers.spec.values import number_words

_BEAMS = {"by": "shape", "shape": "BEAM"}


def request_contradictions(spec: Spec, request: str) -> list[StepDiagnostic]:
    """The step that defines a shell section where the request names a beam profile and the
    spec defines no beam section: the shell section the spec puts on the BEAM elements, else
    (where the request names no shell, and the spec assigns only sections it defines) the
    one shell section it defines, or the one of them the request names."""
    profile = named_profile(request)
    kinds = {i: step.values.get("kind") for i, step in enumerate(spec.steps)
             if step.action == "define_section"}
    if profile is None:
        return []
    if "beam" in kinds.values():
        return _other_shape(spec, kinds, profile) or _other_radius(spec, kinds, request)
    shells = {spec.steps[i].values.get("name"): i for i, kind in kinds.items() if kind == "shell"}
    step = _on_beams(spec, shells)
    if step is None and not names_a_shell(request) and _assigns_only(spec, set(shells)):
        said = [i for name, i in shells.items() if isinstance(name, str) and
                _says_name(request, name)]
        step = next(iter(shells.values())) if len(shells) == 1 else \
            said[0] if len(said) == 1 else None
    if step is None:
        return []
    return [StepDiagnostic(step, Diagnostic(
        path=f"steps[{step}].values.kind", message=_words(spec, step, profile),
        needs=("kind:beam",)))]


def _other_shape(spec: Spec, kinds: dict[int, object],
                 profile: NamedProfile) -> list[StepDiagnostic]:
    """The one beam section the spec defines, where its profile is another shape than the
    one the request's words name ("pipe … OD 60, wall 4" defined as a circle of r 60)."""
    beams = [i for i, kind in kinds.items() if kind == "beam"]
    if profile.shape is None or len(beams) != 1:
        return []
    step = beams[0]
    written = spec.steps[step].values.get("profile")
    shape = written.get("shape") if isinstance(written, dict) else None
    if shape is None or shape == profile.shape:
        return []
    said = ", ".join(f"“{w}”" for w in profile.words)
    name = spec.steps[step].values.get("name")
    return [StepDiagnostic(step, Diagnostic(
        path=f"steps[{step}].values.profile.shape",
        message=(f"the request says {said}, {_article(profile.shape)} {profile.shape} "
                 f"profile, and {step_said(spec, step, VOCABULARY)} gives {_article(shape)} "
                 f"{shape} profile: define {name} with {_article(profile.shape)} "
                 f"{profile.shape} profile ({PROFILE_DIMENSIONS[profile.shape]})")))]


# a diameter in the model's millimetres: "12 mm in diameter", "diameter 30", "OD 60", "Ø20",
# "直径 12", and a round thing's width, "20 mm across" (a round section's size across is its
# diameter)
_DIAMETER = re.compile(
    r"(\d+(?:\.\d+)?)\s*(?:mm\s*)?(?:in\s+)?diam(?:eter)?\b|\bdiam(?:eter)?\s*(?:of\s+)?"
    r"(\d+(?:\.\d+)?)(?!\s*(?:cm|m)\b)|\bOD\s*(\d+(?:\.\d+)?)|[Øø⌀]\s*(\d+(?:\.\d+)?)"
    r"|直径\s*(\d+(?:\.\d+)?)"
    r"|\b(?:round|circular|rod|bar|pipe|tube)\b[^.;,\d]{0,30}?(\d+(?:\.\d+)?)\s*(?:mm\s*)?"
    r"across\b", re.IGNORECASE)


def _other_radius(spec: Spec, kinds: dict[int, object], request: str) -> list[StepDiagnostic]:
    """The one round beam section whose radius is not half the one diameter the request
    states ("12 mm in diameter" written r 3.5; "OD 60" written r 60)."""
    said = {float(next(g for g in m.groups() if g)): m.group(0) for m in
            _DIAMETER.finditer(request)}
    beams = [i for i, kind in kinds.items() if kind == "beam"]
    if len(said) != 1 or len(beams) != 1:
        return []
    (diameter, words), = said.items()
    step = beams[0]
    profile = spec.steps[step].values.get("profile")
    if not isinstance(profile, dict) or profile.get("shape") not in ("circle", "pipe"):
        return []
    radius = profile.get("r")
    if not isinstance(radius, int | float) or abs(radius - diameter / 2) < 1e-9:
        return []
    half = diameter / 2
    return [StepDiagnostic(step, Diagnostic(
        path=f"steps[{step}].values.profile.r",
        message=(f"the request says “{words}”, a radius of {number_words(half)}, and "
                 f"{step_said(spec, step, VOCABULARY)} gives r {number_words(radius)}: write "
                 f"r {number_words(half)}, half the diameter")))]


def _on_beams(spec: Spec, shells: dict[object, int]) -> int | None:
    """The first shell section the spec assigns to the BEAM elements (a shape scope)."""
    for step in spec.steps:
        if step.action == "assign_section" and step.scope is not None and \
                step.scope.model_dump(mode="json") == _BEAMS and \
                step.values.get("section") in shells:
            return shells[step.values["section"]]
    return None


def _says_name(request: str, name: str) -> bool:
    return re.search(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", request,
                     re.IGNORECASE) is not None


def _assigns_only(spec: Spec, defined: set[object]) -> bool:
    """Whether every section the spec assigns is one it defines (a section the model has
    already may be the beam section the request's words name)."""
    return all(step.values.get("section") in defined for step in spec.steps
               if step.action == "assign_section")


def _words(spec: Spec, step: int, profile: NamedProfile) -> str:
    said = ", ".join(f"“{w}”" for w in profile.words)
    name = spec.steps[step].values.get("name")
    if profile.shape is None:
        return (f"the request says {said}, a beam section, and "
                f"{step_said(spec, step, VOCABULARY)} defines a shell section: define "
                f"{name} as a beam section (kind beam) with the profile the request gives, "
                "not a shell thickness")
    return (f"the request says {said}, a beam profile ({profile.shape}), and "
            f"{step_said(spec, step, VOCABULARY)} defines a shell section: define {name} as "
            f"a beam section (kind beam) with {_article(profile.shape)} {profile.shape} profile "
            f"({PROFILE_DIMENSIONS[profile.shape]}), not a shell thickness")


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"
