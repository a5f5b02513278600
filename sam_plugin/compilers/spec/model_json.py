"""JSON as a model is shown it (the observation, the steps written so far, an example's
form): compact, its text as written, and every number in a form a grammar lets the model
copy back.

``json.dumps`` writes ``7.85e-09``; llama.cpp's JSON number rule ends an exponent at its
leading ``0``, so a model held to a grammar that copies it writes ``7.85e-0`` (a density of
7.85). Here the exponent loses its leading zeros and its ``+``, as
:func:`values.json_number_words` writes a quantity; every other byte is what
``json.dumps(value, separators=(",", ":"), ensure_ascii=False)`` writes.
"""

from __future__ import annotations

import json
import math
from typing import Any

from sam_plugin.samops.records import plain_exponent


def model_json(value: Any) -> str:
    """``value`` as compact JSON whose numbers a grammar lets a model copy."""
    if isinstance(value, float) and math.isfinite(value):
        return plain_exponent(json.dumps(value))
    if isinstance(value, dict):
        return "{" + ",".join(f"{json_key(key)}:{model_json(item)}"
                              for key, item in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(model_json(item) for item in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def json_key(key: Any) -> str:
    """A key as ``json.dumps`` writes it (a number, a flag or null as its JSON text), and
    refused as it refuses one (``TypeError``: a tuple, an object)."""
    if isinstance(key, str):
        return json.dumps(key, ensure_ascii=False)
    return json.dumps({key: None}, ensure_ascii=False)[1:-len(": null}")]
