"""Specs worth confirming (docs/architecture.md §1): a design answer that is empty, or says
nothing beyond its capability line (or the expected-results line), is never offered for
confirmation.

(What the design request says about the target, in plain words, is design_context.py.)
"""

from __future__ import annotations

import re

from sam_plugin.compilers.routing import without_summary_lines

# A spec must say at least this much besides its capability and expected-results lines (the
# summary the prompt asks for; a 0.5B model answered with nothing else): "Sure!" does not.
MIN_SPEC_WORDS = 2
_WORD = re.compile(r"[A-Za-z0-9]+(?:[.'][A-Za-z0-9]+)*")
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_CJK_CHARS_PER_WORD = 2

ADVICE = (
    "Try a more capable model (Settings, or --api-model), or make the request more specific: "
    "name the operation and its numbers (sizes, counts, element shapes, labels or sets)."
)


def unworthy_spec(spec: str, module_title: str) -> str | None:
    """Why ``spec`` is not worth confirming (the design-layer message), or ``None``."""
    if not spec.strip():
        return f"the model returned an empty spec, so there is nothing to review. {ADVICE}"
    rest = without_summary_lines(module_title, spec)
    words = len(_WORD.findall(rest)) + len(_CJK.findall(rest)) // _CJK_CHARS_PER_WORD
    if words >= MIN_SPEC_WORDS:
        return None
    line = spec.strip().splitlines()[-1].strip()
    return (
        f"the model's answer says nothing beyond its summary line ({line!r}), so there is no "
        f"spec to review. {ADVICE}"
    )
