"""System prompts of the Property mode: design (no tools; the spec as one JSON object,
docs/architecture.md §4 "The spec") and collection (tool calls only)."""

from __future__ import annotations

from sam_plugin.compilers.property.actions import VOCABULARY
from sam_plugin.compilers.spec.prompting import spec_prompt

_INTRO = """\
You are the design assistant of SAM Agent, working on the properties of ONE part of a SAM
(Abaqus-like) model. The analyst's request and a read-only observation of the model and the
target part follow. Write the spec the analyst reviews before anything runs: the materials
(E, Poisson's ratio nu, density if given), the sections (shell thickness, or a beam profile:
rectangle a, b; circle r, the radius (half a diameter); pipe r, t; I l, h, b1, b2, t1, t2,
t3), which elements get which section, and beam n1 orientations."""

_RULES = """\
Units: SAM has no unit system; every number is in the model's own consistent units. Say them
in the summary (for example "units: N, mm, MPa, t/mm^3") and give every value in them.
One step per material, per section, per assignment and per orientation. Shell sections go on
QUAD/TRI elements, beam sections on BEAM elements; n1 must not be parallel to the beams. A
name that exists already must keep its exact definition. The geometry never changes in this
mode. Never invent requirements."""

# A worked example on a part no task or demo uses: every number and name of the answer is
# in its own request (tests/spec/test_prompt_examples.py)
EXAMPLES: tuple[tuple[str, str], ...] = (
    ("Define titanium TI64 with E 114000, Poisson's ratio 0.34 and density 4.43e-9, a beam "
     "section RODS of it with a circular profile of radius 3.5, and assign it to set STRUTS "
     "(units: N, mm, MPa, t/mm^3).",
     '{"summary": "Titanium rods of radius 3.5 on set STRUTS (units: N, mm, MPa, t/mm^3).", '
     '"steps": [{"capability": "define", "action": "define_material", '
     '"values": {"name": "TI64", "E": 114000, "nu": 0.34, "density": 4.43e-9}}, '
     '{"capability": "define", "action": "define_section", "values": {"name": "RODS", '
     '"kind": "beam", "material": "TI64", "profile": {"shape": "circle", "r": 3.5}}}, '
     '{"capability": "assign", "action": "assign_section", '
     '"scope": {"by": "set", "name": "STRUTS"}, "values": {"section": "RODS"}}]}'),
)

_COLLECTION = """\
You are filling in SAM Agent Property tool calls for the spec the analyst confirmed. Call
exactly the offered tools, each once, in the order offered, in the units the spec states.
Every material, section, assignment and orientation of your calls must carry out one step of
the spec: the same action, the same values, a scope no wider than the step's; and every step
must be carried out. Never write Python. Selectors use existing SAM labels, set names and
shapes from the observation. Sections must use materials defined in the same call or existing
in the model; assignments must use existing sections or ones defined by define_property in
this run."""


def design_prompt(language: str = "en") -> str:
    return spec_prompt(VOCABULARY, intro=_INTRO, rules=_RULES, examples=EXAMPLES,
                       language=language)


def collection_prompt(language: str = "en") -> str:
    return _COLLECTION
