"""JSON Schema (Draft 2020-12) fragments shared by every domain, and the tool-definition builder.

The common types of docs/architecture.md §4: ``Vec3``, ``LocalId``, ``Name``, ``Shape`` and
``Selector``. Every object carries ``additionalProperties: false``. Each function returns a
fresh dict, so callers may embed or decorate it without aliasing.

The strict-mode variant (``strict_schema``) is what providers with strict function calling
accept: every property is listed in ``required``, optional ones become nullable, and only the
keywords that strict mode supports are kept. The validation pipeline drops ``null`` values
before checking against the full (non-strict) schema, so both variants feed one pipeline.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import Any

JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"

LOCAL_ID_PATTERN = r"^[A-Za-z][A-Za-z0-9_]{0,31}$"
NAME_PATTERN = r"^[A-Za-z][A-Za-z0-9_.-]{0,63}$"
SHAPE_VALUES: tuple[str, ...] = ("QUAD", "TRI", "BEAM")
SELECTOR_KINDS: tuple[str, ...] = ("all", "labels", "set", "shape", "box")

# Coordinates beyond this magnitude are almost certainly a unit or typing error.
COORDINATE_LIMIT = 1.0e9
# Magnitudes the geometry stays exact and finite with: a merge tolerance of 1e-320 once made
# the spatial index divide by zero (NaN cells, an internal error instead of a diagnostic). A
# tolerance too large for the part is the domain's check (it names the smallest edge).
TOLERANCE_MIN = 1.0e-9
SCALE_FACTOR_RANGE = (1.0e-6, 1.0e6)
# Material and section values (moduli, densities, thicknesses, profile sizes) stay below this
POSITIVE_VALUE_MAX = 1.0e30

# Keywords strict function calling accepts; everything else is stripped from the strict variant.
_STRICT_KEYWORDS = frozenset(
    {"type", "properties", "required", "additionalProperties", "items", "enum", "anyOf",
     "description", "$defs", "$ref"}
)


def number(description: str = "", *, minimum: float | None = None,
           exclusive_minimum: float | None = None, maximum: float | None = None) -> dict[str, Any]:
    """A finite number (JSON has no NaN/Infinity; the parser rejects them)."""
    schema: dict[str, Any] = {"type": "number"}
    if minimum is not None:
        schema["minimum"] = minimum
    if exclusive_minimum is not None:
        schema["exclusiveMinimum"] = exclusive_minimum
    if maximum is not None:
        schema["maximum"] = maximum
    if description:
        schema["description"] = description
    return schema


def in_range(bounds: tuple[float, float], description: str = "") -> dict[str, Any]:
    """A finite number within ``bounds`` (inclusive)."""
    return number(description, minimum=bounds[0], maximum=bounds[1])


def integer(description: str = "", *, minimum: int | None = None,
            maximum: int | None = None) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "integer"}
    if minimum is not None:
        schema["minimum"] = minimum
    if maximum is not None:
        schema["maximum"] = maximum
    if description:
        schema["description"] = description
    return schema


def boolean(description: str = "") -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "boolean"}
    if description:
        schema["description"] = description
    return schema


def array(items: dict[str, Any], description: str = "", *, min_items: int | None = None,
          max_items: int | None = None) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "array", "items": items}
    if min_items is not None:
        schema["minItems"] = min_items
    if max_items is not None:
        schema["maxItems"] = max_items
    if description:
        schema["description"] = description
    return schema


def vec3(description: str = "") -> dict[str, Any]:
    """Three finite numbers ``[x, y, z]``."""
    item = number(minimum=-COORDINATE_LIMIT, maximum=COORDINATE_LIMIT)
    return array(item, description or "[x, y, z], three finite numbers",
                 min_items=3, max_items=3)


def local_id(description: str = "") -> dict[str, Any]:
    return {
        "type": "string",
        "pattern": LOCAL_ID_PATTERN,
        "description": description
        or "a local alias inside this call (letter, then letters/digits/_), never a SAM label",
    }


def name(description: str = "") -> dict[str, Any]:
    return {
        "type": "string",
        "pattern": NAME_PATTERN,
        "description": description or "a name: a letter, then letters, digits, _ . - (max 64)",
    }


def shape(values: Iterable[str] = SHAPE_VALUES, description: str = "") -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string", "enum": list(values)}
    if description:
        schema["description"] = description
    return schema


def obj(properties: Mapping[str, dict[str, Any]], required: Iterable[str] = (),
        description: str = "") -> dict[str, Any]:
    """An object with ``additionalProperties: false`` (every object of the wire IR has it)."""
    schema: dict[str, Any] = {
        "type": "object",
        "properties": dict(properties),
        "required": list(required),
        "additionalProperties": False,
    }
    if description:
        schema["description"] = description
    return schema


def tagged(tag_key: str, tag_value: str, properties: Mapping[str, dict[str, Any]],
           required: Iterable[str] = (), description: str = "") -> dict[str, Any]:
    """One variant of a tagged union (``{"op": "translate", ...}``); the tag is required."""
    props = {tag_key: {"const": tag_value}, **properties}
    return obj(props, [tag_key, *required], description)


def selector(description: str = "") -> dict[str, Any]:
    """docs/architecture.md §4 Selector: all / labels / set / shape / box."""
    variants = [
        tagged("by", "all", {}, description="every entity"),
        tagged("by", "labels", {"labels": array(integer(minimum=1), "existing SAM labels",
                                                min_items=1)}, ["labels"]),
        tagged("by", "set", {"name": name("an existing set name")}, ["name"]),
        tagged("by", "shape", {"shape": shape()}, ["shape"]),
        tagged("by", "box", {"min": vec3("box corner with the smallest x, y, z"),
                             "max": vec3("box corner with the largest x, y, z")},
               ["min", "max"],
               description="an element is inside when all its nodes are (within tolerance)"),
    ]
    return {
        "anyOf": variants,
        "description": description
        or 'picks existing entities: {"by":"all"} | {"by":"labels","labels":[1,2]} | '
        '{"by":"set","name":"S"} | {"by":"shape","shape":"QUAD"} | '
        '{"by":"box","min":[x,y,z],"max":[x,y,z]}',
    }


def parameters(properties: Mapping[str, dict[str, Any]], required: Iterable[str] = (),
               description: str = "") -> dict[str, Any]:
    """The root ``parameters`` schema of a tool (an object, with the dialect named)."""
    schema = obj(properties, required, description)
    return {"$schema": JSON_SCHEMA_DIALECT, **schema}


def tool_definition(tool_name: str, description: str, params: dict[str, Any],
                    strict: bool = False) -> dict[str, Any]:
    """An OpenAI-style tool entry; ``strict`` gives the strict function-calling variant."""
    function: dict[str, Any] = {
        "name": tool_name,
        "description": description,
        "parameters": strict_schema(params) if strict else copy.deepcopy(params),
    }
    if strict:
        function["strict"] = True
    return {"type": "function", "function": function}


def strict_schema(schema: Mapping[str, Any]) -> dict[str, Any]:
    """The strict variant: all properties required, optional ones nullable, keywords filtered."""
    return _strictify(schema, nullable=False)


def _strictify(schema: Mapping[str, Any], nullable: bool) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "const":
            out["enum"] = [value]
        elif key not in _STRICT_KEYWORDS:
            continue
        elif key == "properties":
            required = set(schema.get("required", ()))
            out["properties"] = {
                prop: _strictify(sub, nullable=prop not in required)
                for prop, sub in value.items()
            }
            out["required"] = list(value)
        elif key == "required":
            continue  # rebuilt with the properties
        elif key == "items":
            out["items"] = _strictify(value, nullable=False)
        elif key == "anyOf":
            out["anyOf"] = [_strictify(sub, nullable=False) for sub in value]
        elif key == "$defs":
            out["$defs"] = {k: _strictify(v, nullable=False) for k, v in value.items()}
        else:
            out[key] = copy.deepcopy(value)
    if nullable:
        out = _make_nullable(out)
    return out


def _make_nullable(schema: dict[str, Any]) -> dict[str, Any]:
    if "anyOf" in schema:
        return {**schema, "anyOf": [*schema["anyOf"], {"type": "null"}]}
    kind = schema.get("type")
    if isinstance(kind, str):
        nullable = {**schema, "type": [kind, "null"]}
        if "enum" in nullable:
            nullable["enum"] = [*nullable["enum"], None]
        return nullable
    return {"anyOf": [schema, {"type": "null"}]}


def drop_nulls(value: Any) -> Any:
    """Remove ``null`` object members (strict-mode "absent"), recursively."""
    if isinstance(value, dict):
        return {k: drop_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [drop_nulls(v) for v in value]
    return value
