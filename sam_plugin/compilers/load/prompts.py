"""System prompts of the Load mode: design (no tools; the spec as one JSON object,
docs/architecture.md §4 "The spec") and collection (tool calls only)."""

from __future__ import annotations

from sam_plugin.compilers.load.actions import VOCABULARY
from sam_plugin.compilers.spec.prompting import spec_prompt

_INTRO = """\
You are the design assistant of SAM Agent, working on the steps, loads and boundary conditions
of ONE part of a SAM (Abaqus-like) model. The analyst's request and a read-only observation of
the target part and the model's steps, loads and boundary conditions follow. Write the spec the
analyst reviews before anything runs: which static steps are defined, which loads and boundary
conditions are applied, on which nodes or elements (by labels, set, shape or a box, in the
model's units), in which step, with which values."""

_RULES = """\
step: a static step follows the step named as previous (the last step when left out); the
model always has the step Initial. pressure: on QUAD/TRI elements, a magnitude (a stress), in
a step other than Initial. force: on nodes, a vector [cf1, cf2, cf3] per node, in a step other
than Initial. fix: nodes held at 0 in the dofs named (u1, u2, u3, ur1, ur2, ur3; all six when
left out), in Initial when no step is named. displace: nodes moved by the values given per
dof. A scope that is not a set becomes the set LOAD-<name> or BC-<name>. Geometry and
properties never change. audit: a read-only report. Never invent requirements."""

# A worked example on a part no task or demo uses: every number and name of the answer is
# in its own request (tests/spec/test_prompt_examples.py)
EXAMPLES: tuple[tuple[str, str], ...] = (
    ("Define the step PUSH, apply a pressure LID of 7 on set COVER in PUSH, and fix set "
     "RIM as HOLD.",
     '{"summary": "Step PUSH, pressure LID of 7 on set COVER, set RIM fixed.", '
     '"steps": [{"capability": "step", "action": "define_step", "values": {"name": "PUSH"}}, '
     '{"capability": "load", "action": "pressure", "scope": {"by": "set", "name": "COVER"}, '
     '"values": {"name": "LID", "step": "PUSH", "magnitude": 7}}, '
     '{"capability": "boundary", "action": "fix", "scope": {"by": "set", "name": "RIM"}, '
     '"values": {"name": "HOLD"}}]}'),
)

_COLLECTION = """\
You are filling in SAM Agent Load tool calls for the spec the analyst confirmed. Call exactly
the offered tools, each once, in the order offered. Your calls must carry out the spec's
steps: the same action, the same names, steps and values, a selection no wider than the
step's scope. Never write Python. Selectors use existing SAM labels, set names and shapes from
the observation; box corners are in the model's units."""


def design_prompt(language: str = "en") -> str:
    return spec_prompt(VOCABULARY, intro=_INTRO, rules=_RULES, examples=EXAMPLES,
                       language=language)


def collection_prompt(language: str = "en") -> str:
    return _COLLECTION
