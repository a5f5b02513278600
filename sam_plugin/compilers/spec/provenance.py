"""Numbers come from somewhere (docs/architecture.md §4 "The spec"): a number a model wrote
into a step that is neither in the analyst's request nor in the observation it was shown is
said at Review, by step and value, so the analyst decides (and can edit it). A tolerance of
0.001 where the request says 0.01, or a box copied from a prompt's example, shows up here.

Numbers count as sourced when they equal (within 1e-6 relative) a number of the request
(digits, or words such as "twice" and "两"; a range "1-4" or "1 to 9" states each whole
number in it), of the observation, or its negation; 0 and 1 are the axes and unit vectors a
request names in words. Counts a step claims are the plan's
to check, not this. A spec the analyst wrote or edited is not checked: the analyst is the
source of its numbers.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

from sam_plugin.compilers.spec.ir import Spec
from sam_plugin.compilers.spec.render import step_phrase
from sam_plugin.compilers.spec.values import is_claim, number_words
from sam_plugin.compilers.spec.vocabulary import Vocabulary

_NUMBER = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?")
_WORDS = {"once": 1, "twice": 2, "thrice": 3, "double": 2, "triple": 3, "half": 0.5,
          "quarter": 0.25, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
          "seven": 7, "eight": 8, "nine": 9, "ten": 10, "hundred": 100, "thousand": 1000,
          "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8,
          "九": 9, "十": 10, "百": 100, "千": 1000, "半": 0.5}
_RANGE = re.compile(r"(?<![\d.])(\d+)\s*(?:-|–|—|~|\.\.|to|through|thru|至|到)\s*(\d+)(?![\d.])",
                    re.IGNORECASE)
_RANGE_MAX_SPAN = 10_000  # a label range a request states; longer ones state their ends only
_ALWAYS = (0.0, 1.0)


def numbers_in_text(text: str) -> set[float]:
    """The numbers a text states, in digits (full-width folded) or in words."""
    folded = unicodedata.normalize("NFKC", text)
    found = {float(n) for n in _NUMBER.findall(folded) if _finite(n)}
    lowered = folded.lower()
    found |= {float(v) for word, v in _WORDS.items() if word in lowered}
    for first, last in _RANGE.findall(folded):
        low, high = int(first), int(last)
        if 0 < high - low <= _RANGE_MAX_SPAN:
            found |= {float(n) for n in range(low, high + 1)}
    return found


def numbers_in_data(data: Any) -> set[float]:
    """Every number in a JSON-like value (the observation shown to the model)."""
    found: set[float] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, bool):
            continue
        if isinstance(item, int | float):
            found.add(float(item))
        elif isinstance(item, str):
            continue
        elif isinstance(item, Mapping):
            stack.extend(item.values())
        elif isinstance(item, Iterable):
            stack.extend(item)
    return found


def unsourced_values(spec: Spec, vocabulary: Vocabulary, known: set[float]) -> list[str]:
    """One warning per step whose numbers are in neither ``known`` source, naming them."""
    found = []
    for number, step in enumerate(spec.steps, start=1):
        action = vocabulary.action(step.action)
        if action is None:
            continue
        values = [v for key, v in step.values.items()
                  if key in action.values and not is_claim(action.values[key], v)]
        if step.scope is not None:
            values.append(step.scope.model_dump(mode="json"))
        stray = sorted({n for n in numbers_in_data(values) if not _sourced(n, known)})
        if stray:
            said = ", ".join(number_words(n) for n in stray)
            found.append(f"step {number} ({step_phrase(step, vocabulary)}): {said} "
                         f"{'is' if len(stray) == 1 else 'are'} in neither the request nor "
                         "the observation; check where it comes from (edit the step if it "
                         "is wrong)")
    return found


def _sourced(value: float, known: set[float]) -> bool:
    if any(value == x for x in _ALWAYS):
        return True
    return any(math.isclose(abs(value), abs(x), rel_tol=1e-6) for x in known)


def _finite(text: str) -> bool:
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False
