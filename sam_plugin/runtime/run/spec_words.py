"""The spec in words as people read it: Review, ``design.txt`` and each ``design.N.txt`` that
History shows say every value with the run's unit system (``compilers/units.py``); where no
unit is known, the bare rendering. What a model is sent stays the bare rendering
(``RunState.spec``), byte for byte as the recordings were made on."""

from __future__ import annotations

from contextlib import AbstractContextManager

from sam_plugin.compilers.spec.ir import Spec
from sam_plugin.compilers.spec.render import render_spec
from sam_plugin.compilers.spec.vocabulary import selected_scope
from sam_plugin.compilers.units import UnitSystem
from sam_plugin.runtime.run.state import RunState


def selection_words(run: RunState) -> AbstractContextManager[None]:
    """While rendering the run's spec: its labels scope equal to the viewport's selection is
    "the 12 selected elements" (``spec/vocabulary.py`` ``selected_scope``)."""
    picked = run.inputs.selection
    return selected_scope(picked.kind if picked else None, picked.labels if picked else ())


def people_words(run: RunState, units: UnitSystem | None, language: str,
                 spec: Spec | None = None, text: str | None = None) -> str:
    """``spec`` (the run's, by default) in words with ``units``; ``text`` (the run's words,
    by default) when no unit is known or there is no spec as data."""
    spec = spec if spec is not None else run.spec_ir
    bare = text if text is not None else run.spec
    if units is None or spec is None:
        return bare
    with selection_words(run):
        return render_spec(spec, run.inputs.module.vocabulary, language, units=units)
