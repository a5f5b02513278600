"""What a model's spec plans that the request does not ask for, where the compile would leave
it out anyway (``ActionDef.asked_by``): a set no word asks for. Left out of the spec before
Review, and said there, so that the spec the analyst confirms is the one that runs. Before,
the compile dropped it after Confirm and the binding then failed: "step 3 says create the set
PLATE; no call carries it out".

A spec left with no step keeps what it had: the compile and the binding say the rest."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from sam_plugin.compilers.spec.ir import Spec, Step
from sam_plugin.compilers.spec.render import step_phrase
from sam_plugin.compilers.spec.request_words import fold
from sam_plugin.compilers.spec.vocabulary import ActionDef, Vocabulary


@dataclass(frozen=True)
class Unasked:
    """The spec without what its request does not ask for, and each thing left out, in
    words (Review warnings)."""

    spec: Spec
    left_out: tuple[str, ...]
    # the 0-based indices of the given spec's steps that stand, where a whole step was left
    # out (a repair that names "step 2" names the second of these)
    kept: tuple[int, ...] | None = None


def without_unasked(spec: Spec, vocabulary: Vocabulary, said: Sequence[str]) -> Unasked:
    """``spec`` with the steps and values the words ``said`` (the request, the analyst's
    remarks) do not ask for left out."""
    words = fold("\n".join(said))
    kept: list[Step] = []
    standing: list[int] = []
    left: list[str] = []
    for number, step in enumerate(spec.steps, start=1):
        action = vocabulary.action(step.action)
        if action is None or not action.asked_by:
            kept.append(step)
            standing.append(number - 1)
            continue
        whole = _unasked(action, "", words)
        if whole:
            left.append(f"step {number} ({step_phrase(step, vocabulary)}) is left out: {whole}")
            continue
        values = dict(step.values)
        for key in [k for k in values if _unasked(action, k, words)]:
            del values[key]
            left.append(f"the {key} of step {number} ({step_phrase(step, vocabulary)}) are "
                        f"left out: {_unasked(action, key, words)}")
        kept.append(step if values == step.values else
                    step.model_copy(update={"values": values}))
        standing.append(number - 1)
    if not left or not kept:
        return Unasked(spec, ())
    return Unasked(spec.model_copy(update={"steps": tuple(kept)}), tuple(left),
                   tuple(standing) if len(kept) < len(spec.steps) else None)


def _unasked(action: ActionDef, key: str, words: str) -> str:
    """Why ``key`` (``""``: the step) is not asked for, or ``""`` when it is (or needs no
    asking)."""
    asked = action.asked_by.get(key)
    if asked is None:
        return ""
    patterns, reason = asked
    return "" if any(re.search(p, words, re.IGNORECASE) for p in patterns) else reason
