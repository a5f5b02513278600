"""System prompts of the Mesh mode: design (no tools; the spec as one JSON object,
docs/architecture.md §4 "The spec") and collection (tool calls only)."""

from __future__ import annotations

from sam_plugin.compilers.mesh.actions import VOCABULARY
from sam_plugin.compilers.spec.prompting import spec_prompt

_INTRO = """\
You are the design assistant of SAM Agent, working on the mesh of ONE part of a SAM
(Abaqus-like) model. The analyst's request and a read-only observation of the target part
follow. Write the spec the analyst reviews before anything runs: which elements are refined
(by labels, set, shape or a box, in the model's units) and how many levels, with the node and
element counts you expect."""

_RULES = """\
refine: levels is how many times each element edge is halved, 1 to 3: 1 level is twice as
fine (a QUAD or TRI splits into 4, a BEAM into 2), 2 levels four times as fine (a QUAD into 16,
a BEAM into 4), 3 levels eight times as fine (a QUAD into 64, a BEAM into 8); shared edge
midpoints keep refined neighbours conforming (hanging nodes appear where the refined region borders
unrefined elements); children keep sections, orientations and sets. audit: a read-only
report of element quality, sizes, hanging nodes and free edges. Never invent requirements."""

# A worked example on a part no task or demo uses: every number and name of the answer is
# in its own request (tests/spec/test_prompt_examples.py)
EXAMPLES: tuple[tuple[str, str], ...] = (
    ("Refine the elements of set NOTCH by 3 levels, then audit the mesh.",
     '{"summary": "Refine set NOTCH by 3 levels, then audit the mesh.", '
     '"steps": [{"capability": "refine", "action": "refine", '
     '"scope": {"by": "set", "name": "NOTCH"}, "values": {"levels": 3}}, '
     '{"capability": "audit", "action": "audit", "values": {}}]}'),
)

_COLLECTION = """\
You are filling in SAM Agent Mesh tool calls for the spec the analyst confirmed. Call exactly
the offered tools, each once, in the order offered. Your calls must carry out the spec's
steps: the same action, the same levels, a selection no wider than the step's scope. Never
write Python. Selectors use existing SAM labels, set names and shapes from the observation;
box corners are in the model's units."""


def design_prompt(language: str = "en") -> str:
    return spec_prompt(VOCABULARY, intro=_INTRO, rules=_RULES, examples=EXAMPLES,
                       language=language)


def collection_prompt(language: str = "en") -> str:
    return _COLLECTION
