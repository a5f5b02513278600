"""The spec IR (docs/architecture.md §4 "The spec"): the steps the analyst confirms, as data.

``ir`` the model, ``vocabulary`` and ``values`` what a mode's steps may say, ``schema`` the
JSON Schema a design answer meets, ``reading`` the answer read as a spec.
"""

from __future__ import annotations

from typing import Any


def spec_json_schema(mode: str) -> dict[str, Any]:
    """The JSON Schema of a ``mode`` spec (part, property, mesh): what the design request
    asks for as ``response_format`` and what every design answer is checked against."""
    from sam_plugin.compilers.spec.schema import spec_json_schema as build

    return build(mode)


__all__ = ["spec_json_schema"]
