"""What the model that writes the spec is shown and held to (docs/architecture.md §4 "The
design, asked in parts"): the design request's messages (the prompt, the target, the
observation, the request and what the product read of it), the grammar an answer and a step
asked again are held to, and the numbers the writer was shown, which Review's provenance
check reads. They change together: a reading the product states is shown, and its numbers
are then the request's own."""

from __future__ import annotations

import dataclasses
from typing import Any

from sam_plugin.compilers.grammar_schema import SPEC_UNROLLED_ITEMS, grammar_schema
from sam_plugin.compilers.spec.parts import readings_words
from sam_plugin.compilers.spec.provenance import Sources, text_sources
from sam_plugin.compilers.spec.request_directions import direction_numbers
from sam_plugin.compilers.spec.request_words import StatedNumbers
from sam_plugin.compilers.spec.schema import ScopeBounds, one_step_schema, picking, schema_for
from sam_plugin.compilers.units import DEFAULT as DEFAULT_UNITS
from sam_plugin.compilers.units import UnitSystem
from sam_plugin.runtime.run import design_parts
from sam_plugin.runtime.run.collection import design_messages
from sam_plugin.runtime.run.context import StepContext
from sam_plugin.runtime.run.design_context import target_state_note
from sam_plugin.runtime.run.named_places import named_places
from sam_plugin.runtime.run.prompt_observation import prompt_observation
from sam_plugin.runtime.run.state import RunState


def held_schema(ctx: StepContext, run: RunState) -> dict[str, Any] | None:
    """The spec's schema as the design answer is held to it (a grammar on local profiles):
    the mode's step limit, scopes within the observed part, and the refusal answer; None
    where the profile holds the answer to no schema."""
    if ctx.settings.capabilities.spec_format != "json_schema":
        return None
    return grammar_schema(schema_for(run.inputs.module.vocabulary, scope_bounds(run),
                                     refusal=True), max_unrolled=SPEC_UNROLLED_ITEMS)


def held_step_schema(ctx: StepContext, run: RunState,
                      needs: tuple[str, ...] = ()) -> dict[str, Any] | None:
    """One step of the mode as a step asked again is held to it, or None (as the spec's);
    ``needs``: what the diagnostic's remedy has the step state."""
    if ctx.settings.capabilities.spec_format != "json_schema":
        return None
    bounds, needs = picking(scope_bounds(run), needs, design_parts.shape_counts(run))
    return grammar_schema(one_step_schema(run.inputs.module.vocabulary, bounds, needs),
                          max_unrolled=SPEC_UNROLLED_ITEMS)


def scope_bounds(run: RunState) -> ScopeBounds:
    """What the observed part lets a step name: its sets, its label range, its size, and
    the actions the target as it is allows."""
    readback = run.before
    regions = run.regions
    top = max([r[1] for r in (regions.node_labels, regions.element_labels) if r] or [0]) \
        if regions is not None else 0
    actions = tuple(design_parts.legal_actions(run))
    if readback is None:
        return ScopeBounds(actions=actions)
    return ScopeBounds(sets=tuple(readback.sets), max_label=top,
                       entities=readback.node_count + readback.element_count, actions=actions)


def shown_numbers(run: RunState, placed: frozenset[float] = frozenset(),
                  units: UnitSystem | None = None) -> Sources:
    """The numbers a spec's writer was shown: the request's and the analyst's remarks' (read
    as words; ``placed``: the numbers of the places the request names, which the product
    computed from them; and the values of its counts said another way, which the product
    states, and the directions it names, stated as vectors), the observation's and the
    exploration's, and the picked labels
    (``compilers/spec/provenance.py``)."""
    picked = run.inputs.selection
    sources = text_sources((run.inputs.request, *run.conversation.remarks),
                           observed=(run.exploration,), data=prompt_observation(run),
                           picked=picked.labels if picked is not None else ())
    counted = frozenset(float(count.value)
                        for count in run.inputs.module.request_counts(run.inputs.request))
    pointed = direction_numbers(run.inputs.request, units or DEFAULT_UNITS)
    return dataclasses.replace(
        sources, said=sources.said | StatedNumbers(numbers=placed | counted | pointed))


def design_request(ctx: StepContext, run: RunState) -> list[dict[str, Any]]:
    """The design request's messages (it carries no tools)."""
    assert run.observation is not None
    inputs = run.inputs
    return design_messages(
        system_prompt=inputs.module.design_prompt(ctx.language),
        mode=inputs.mode,
        target=inputs.target,
        target_note=target_state_note(run.observation, inputs.target.part_name),
        observation=prompt_observation(run),
        exploration=run.exploration,
        request=inputs.request,
        selection=inputs.selection.prompt_line() if inputs.selection is not None else "",
        quantities=readings_words(inputs.request, ctx.units or DEFAULT_UNITS,
                                  inputs.module.request_counts(inputs.request)),
        places=named_places(ctx, run)[0],
    )
