"""After an edit dropped the counts the model had stated (``compilers/spec/edit_refresh.py``),
the plan states them again from the calls: the expected node, element and shape counts the
prediction knows exactly, and each step's claimed counts its call makes. The spec is stored
again (``design.txt``, ``spec.json`` and its version), so that what the analyst confirmed and
what History shows agree with the plan."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sam_plugin.compilers.evidence import SHAPES, Prediction
from sam_plugin.compilers.spec.binding import BoundStep
from sam_plugin.compilers.spec.ir import Expected, Spec
from sam_plugin.compilers.spec.render import render_spec
from sam_plugin.compilers.spec.values import is_claim
from sam_plugin.compilers.units import UnitSystem
from sam_plugin.runtime.run import revision
from sam_plugin.runtime.run.spec_words import people_words
from sam_plugin.runtime.run.state import RunState


def recounted(run: RunState, prediction: Prediction, bound: Sequence[tuple[int, BoundStep]],
              language: str, units: UnitSystem | None = None) -> None:
    spec = run.spec_ir
    if not run.recount or spec is None:
        return
    run.recount = False
    spec = spec.model_copy(update={"expected": _expected(spec.expected, prediction),
                                   "steps": _claims(run, spec, bound)})
    run.spec_ir = spec
    run.spec = render_spec(spec, run.inputs.module.vocabulary, language)
    words = people_words(run, units, language)
    run.dir.write_text("design.txt", words + "\n")
    run.dir.write_json("spec.json", spec.as_json())
    revision.keep_version(run.dir, run.spec_versions, words, spec)


def _expected(stated: Expected, prediction: Prediction) -> Expected:
    update: dict[str, Any] = {}
    if stated.nodes is None and prediction.node_count.is_exact:
        update["nodes"] = prediction.node_count.min
    if stated.elements is None and prediction.element_count.is_exact:
        update["elements"] = prediction.element_count.min
    if not stated.shapes:
        counts = {shape: prediction.shape_counts[shape] for shape in SHAPES}
        if all(r.is_exact for r in counts.values()):
            update["shapes"] = {s: r.min for s, r in counts.items() if r.min}
    return stated.model_copy(update=update)


def _claims(run: RunState, spec: Spec,
            bound_steps: Sequence[tuple[int, BoundStep]]) -> tuple[Any, ...]:
    steps = list(spec.steps)
    vocabulary = run.inputs.module.vocabulary
    for _, bound in bound_steps:
        step = steps[bound.step]
        action = vocabulary.action(step.action)
        if action is None:
            continue
        made = {key: got for key, got in bound.operation.counts.items()
                if key not in step.values and key in action.values
                and is_claim(action.values[key], got)}
        if made:
            steps[bound.step] = step.model_copy(update={"values": {**step.values, **made}})
    return tuple(steps)
