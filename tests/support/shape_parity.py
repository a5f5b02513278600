"""Where two spellings of one shape differ: a tool's wire JSON Schema (``compilers/*/
schemas.py``) against its pydantic IR (``compilers/*/ir.py``), and a dataclass record against
the pydantic model that types it (``samops/records.py:PartRecord`` and
``compilers/evidence.py:Readback``).

Both schemas are brought to one canonical form first — ``$ref`` resolved, ``null`` dropped
from unions (an optional field is the same field), a union of objects told apart by one
constant property read as tagged — and then compared: the properties of every object, which
are required, whether others are allowed, the type of every value, the constants, enums and
tags, tuple lengths and item counts. A bound (``minimum``, ``maxItems``, ``pattern``, …) is
compared when both sides state it: the IR checks some in validators its JSON Schema does not
show (finite coordinates), and the wire schema leaves some to the IR's words (a range in a
description).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from pydantic import BaseModel

REQUIRED = "(required)"
_BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minItems",
           "maxItems", "minLength", "maxLength", "pattern")


def schema_differences(wire: dict[str, Any], ir_type: type[BaseModel]) -> list[str]:
    """How ``wire`` (a tool's parameters schema) and ``ir_type`` disagree, one line each."""
    ir = ir_type.model_json_schema(mode="validation")
    return _diff(_canon(wire, wire.get("$defs", {})), _canon(ir, ir.get("$defs", {})), "$")


def record_differences(record: type[Any], model: type[BaseModel]) -> list[str]:
    """How a dataclass and a pydantic model meant to carry the same fields disagree: names,
    order and defaults."""
    ours = {f.name: _dataclass_default(f) for f in dataclasses.fields(record)}
    theirs = {name: REQUIRED if info.is_required() else info.get_default(
        call_default_factory=True) for name, info in model.model_fields.items()}
    problems = [f"{name}: only in {record.__name__}" for name in ours if name not in theirs]
    problems += [f"{name}: only in {model.__name__}" for name in theirs if name not in ours]
    common = [name for name in ours if name in theirs]
    if common != [name for name in theirs if name in ours]:
        problems.append(f"the fields are in another order: {common}")
    problems += [f"{name}: default {ours[name]!r} in {record.__name__}, {theirs[name]!r} in "
                 f"{model.__name__}" for name in common if ours[name] != theirs[name]]
    return problems


def _dataclass_default(field: dataclasses.Field[Any]) -> Any:
    if field.default is not dataclasses.MISSING:
        return field.default
    if field.default_factory is not dataclasses.MISSING:
        return field.default_factory()
    return REQUIRED


def _canon(node: Any, defs: dict[str, Any]) -> Any:
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        return _canon(defs[node["$ref"].rsplit("/", 1)[-1]], defs)
    options = node.get("anyOf") or node.get("oneOf")
    if options is not None:
        kept = [_canon(option, defs) for option in options if option.get("type") != "null"]
        return kept[0] if len(kept) == 1 else _union(kept)
    if "const" in node:
        return {"const": node["const"]}
    if "enum" in node:
        return {"enum": sorted(map(str, node["enum"]))}
    kind = node.get("type")
    shape: dict[str, Any] = {"type": kind}
    shape.update({key: node[key] for key in _BOUNDS if key in node})
    if kind == "object":
        shape["properties"] = {name: _canon(value, defs)
                               for name, value in node.get("properties", {}).items()}
        shape["required"] = sorted(node.get("required", []))
        shape["closed"] = node.get("additionalProperties") is False
    elif kind == "array":
        if "prefixItems" in node:
            items = [_canon(item, defs) for item in node["prefixItems"]]
            if all(item == items[0] for item in items):
                shape["items"] = items[0]
                shape["minItems"] = shape["maxItems"] = len(items)
            else:
                shape["tuple"] = items
        elif "items" in node:
            shape["items"] = _canon(node["items"], defs)
    return shape


def _union(options: list[Any]) -> dict[str, Any]:
    """A union of objects with one constant property is tagged by it; else the options."""
    if all(isinstance(o, dict) and o.get("type") == "object" for o in options):
        common = set.intersection(*(
            {name for name, value in o["properties"].items() if "const" in value}
            for o in options))
        if len(common) == 1:
            tag = common.pop()
            return {"tagged": tag,
                    "options": {str(o["properties"][tag]["const"]): o for o in options}}
    return {"union": sorted(options, key=repr)}


def _diff(wire: Any, ir: Any, path: str) -> list[str]:
    if not (isinstance(wire, dict) and isinstance(ir, dict)):
        return [] if wire == ir else [f"{path}: {wire!r} in the schema, {ir!r} in the IR"]
    if "tagged" in wire or "tagged" in ir:
        return _diff_tagged(wire, ir, path)
    problems: list[str] = []
    for key in sorted(set(wire) | set(ir)):
        if key in _BOUNDS and (key not in wire or key not in ir):
            continue
        if key == "properties":
            problems += _diff_properties(wire.get(key, {}), ir.get(key, {}), path)
        elif key in ("items", "tuple", "union"):
            problems += _diff(wire.get(key), ir.get(key), f"{path}[]")
        elif wire.get(key) != ir.get(key):
            problems.append(f"{path}: {key} {wire.get(key)!r} in the schema, "
                            f"{ir.get(key)!r} in the IR")
    return problems


def _diff_properties(wire: dict[str, Any], ir: dict[str, Any], path: str) -> list[str]:
    problems = [f"{path}.{name}: only in the schema" for name in wire if name not in ir]
    problems += [f"{path}.{name}: only in the IR" for name in ir if name not in wire]
    for name in wire:
        if name in ir:
            problems += _diff(wire[name], ir[name], f"{path}.{name}")
    return problems


def _diff_tagged(wire: dict[str, Any], ir: dict[str, Any], path: str) -> list[str]:
    if wire.get("tagged") != ir.get("tagged"):
        return [f"{path}: tagged by {wire.get('tagged')!r} in the schema, by "
                f"{ir.get('tagged')!r} in the IR"]
    tags, options = wire["options"], ir["options"]
    problems = [f"{path}<{tag}>: only in the schema" for tag in tags if tag not in options]
    problems += [f"{path}<{tag}>: only in the IR" for tag in options if tag not in tags]
    for tag in tags:
        if tag in options:
            problems += _diff(tags[tag], options[tag], f"{path}<{tag}>")
    return problems
