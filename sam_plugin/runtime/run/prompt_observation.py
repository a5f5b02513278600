"""What a request to the model is shown of the observed target (the design request and the
exploration): bounded whatever the model size, and no longer than the spec needs."""

from __future__ import annotations

import json
from typing import Any

from sam_plugin.runtime.observe.place_words import names_a_place
from sam_plugin.runtime.run.state import RunState


def prompt_observation(run: RunState) -> dict[str, Any]:
    """L0/L1 with the part's label ranges, and L2 (the regions) only where the request names
    a place or the exploration ran: bounded whatever the model size, and no longer than the
    spec needs (``observe/place_words.py``)."""
    assert run.observation is not None
    summary: dict[str, Any] = json.loads(run.observation.prompt_json())
    regions = run.regions
    if regions is None:
        return summary
    if run.exploration or names_a_place(run.inputs.request):
        summary["regions"] = regions.model_dump(mode="json")
    elif isinstance(summary.get("part"), dict):
        for key, span in (("node_labels", regions.node_labels),
                          ("element_labels", regions.element_labels)):
            if span is not None:
                summary["part"][key] = list(span)
    return summary
