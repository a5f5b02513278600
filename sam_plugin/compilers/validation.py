"""The per-call validation pipeline: JSON parse → jsonschema → pydantic IR → domain checks.

Every stage turns its failures into :class:`Diagnostic` lines — one per problem, naming the
JSON path and the legal set — and the pipeline stops at the first stage that fails (a
structurally broken call is never handed to the IR or to the domain checks).

jsonschema reports a bad tagged-union member (``{"op": "spin"}``) as one ``anyOf`` error with
a sub-error for every variant; we read the tag instead and say "unknown op 'spin'; legal
ops: ...", or descend into the one variant the tag names.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError as SchemaError
from jsonschema.exceptions import best_match
from pydantic import BaseModel
from pydantic import ValidationError as IRError

from sam_plugin.compilers import strict_json
from sam_plugin.compilers.protocol import Diagnostic, quote
from sam_plugin.compilers.schema_common import LOCAL_ID_PATTERN, NAME_PATTERN, drop_nulls
from sam_plugin.errors import CompileError

IR = TypeVar("IR", bound=BaseModel)

_PATTERN_HINTS = {
    LOCAL_ID_PATTERN: "a local id starts with a letter, then up to 31 letters, digits or _",
    NAME_PATTERN: "a name starts with a letter, then up to 63 letters, digits, _ . or -",
}
_JSON_TYPES = {bool: "boolean", int: "integer", float: "number", str: "string",
               list: "array", dict: "object", type(None): "null"}
_MAX_DIAGNOSTICS = 25
# Tool arguments nest a few levels; a deeper value is garbage that would otherwise exhaust the
# interpreter's recursion limit in a later stage (an internal error instead of a diagnostic).
MAX_NESTING = 64
TOO_DEEP = Diagnostic(
    path="",
    message=f"arguments: nested too deeply; at most {MAX_NESTING} levels of arrays and "
    "objects are allowed — send the flat object the tool's schema describes",
)


def format_path(parts: Iterable[str | int]) -> str:
    """``("operations", 0, "op")`` → ``operations[0].op``."""
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def join_path(base: str, *parts: str | int) -> str:
    return format_path([base, *parts]) if base else format_path(parts)


# --------------------------------------------------------------------------- stage 1: parse


def parse_arguments(arguments: str | Mapping[str, Any]) -> tuple[dict[str, Any] | None,
                                                                 list[Diagnostic]]:
    """The argument object, with ``null`` members dropped (strict-mode absent), or diagnostics."""
    if isinstance(arguments, str):
        text = arguments.strip() or "{}"
        try:
            value = strict_json.loads(text)
        except RecursionError:
            return None, [TOO_DEEP]
        except strict_json.StrictJSONError as exc:
            found = f"are not valid JSON: {exc}" if exc.syntax else f"are refused: {exc}"
            return None, [Diagnostic(path="", message=f"arguments {found}")]
        if _too_deep(value):
            return None, [TOO_DEEP]
        if not _all_finite(value):  # 1e400 parses to infinity without any error
            return None, [Diagnostic(path="", message="arguments hold a number too large to "
                                     "be finite; every number must be finite")]
    else:
        if _too_deep(arguments):
            return None, [TOO_DEEP]
        if not _all_finite(arguments):
            return None, [Diagnostic(path="", message="arguments hold NaN or Infinity; "
                                     "every number must be finite")]
        try:
            value = json.loads(json.dumps(arguments))
        except (TypeError, ValueError) as exc:
            return None, [Diagnostic(path="", message=f"arguments are not JSON data: {exc}")]
    if not isinstance(value, dict):
        return None, [Diagnostic(path="", message=f"arguments must be a JSON object, got "
                                 f"{_json_type(value)}")]
    return drop_nulls(value), []


def _too_deep(value: Any) -> bool:
    """Whether arrays/objects nest more than :data:`MAX_NESTING` levels (iterative: any depth,
    and a self-containing mapping stops at the limit)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        current, depth = stack.pop()
        if isinstance(current, Mapping):
            children: Iterable[Any] = current.values()
        elif isinstance(current, list | tuple):
            children = current
        else:
            continue
        if depth > MAX_NESTING:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def _all_finite(value: Any) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, Mapping):
        return all(_all_finite(v) for v in value.values())
    if isinstance(value, list | tuple):
        return all(_all_finite(v) for v in value)
    return True


# --------------------------------------------------------------------------- stage 2: schema


def _folded(legal: Sequence[Any], value: str) -> str:
    matches = [v for v in legal if isinstance(v, str) and v.lower() == value.lower()]
    return matches[0] if len(matches) == 1 else value


def fold_enum_case(schema: Mapping[str, Any], value: Any) -> Any:
    """``"quad"`` → ``"QUAD"``: enum and tag values are matched case-insensitively."""
    if isinstance(value, str):
        if "enum" in schema:
            return _folded(schema["enum"], value)
        if "const" in schema:
            return _folded([schema["const"]], value)
        return value
    if isinstance(value, list) and isinstance(schema.get("items"), Mapping):
        return [fold_enum_case(schema["items"], v) for v in value]
    if isinstance(value, dict):
        if "anyOf" in schema:
            return _fold_variant(schema["anyOf"], value)
        props = schema.get("properties", {})
        return {k: fold_enum_case(props[k], v) if k in props else v for k, v in value.items()}
    return value


def _fold_variant(variants: Sequence[Mapping[str, Any]], value: dict[str, Any]) -> Any:
    for variant in variants:
        props = variant.get("properties", {})
        tags = {k: p["const"] for k, p in props.items() if "const" in p}
        if tags and all(isinstance(value.get(k), str) and value[k].lower() == str(t).lower()
                        for k, t in tags.items()):
            return fold_enum_case(variant, value)
    return value



def schema_diagnostics(schema: Mapping[str, Any], instance: Any) -> list[Diagnostic]:
    """One diagnostic per structural problem (never a replay of every ``anyOf`` branch)."""
    validator = Draft202012Validator(schema)
    found: list[Diagnostic] = []
    try:
        for error in validator.iter_errors(instance):
            found.extend(_explain(error, ""))
    except RecursionError:
        return [TOO_DEEP]
    return _unique(found)


def _unique(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    seen: dict[tuple[str, str], Diagnostic] = {}
    for diag in diagnostics:
        seen.setdefault((diag.path, diag.message), diag)
    ordered = sorted(seen.values(), key=lambda d: (d.path, d.message))
    return ordered[:_MAX_DIAGNOSTICS]


def _explain(error: SchemaError, variant_hint: str, alternative: str = "") -> list[Diagnostic]:
    path = format_path(error.absolute_path)
    # jsonschema types these as "or Unset"; a reported error always has them set
    kind: Any = error.validator
    value: Any = error.validator_value
    instance: Any = error.instance
    schema: Any = error.schema
    if kind == "anyOf":
        return _explain_any_of(error)
    if kind == "additionalProperties":
        allowed = list(schema.get("properties", {}))
        extras = [k for k in instance if k not in allowed]
        return [
            Diagnostic(path=join_path(path, extra),
                       message=f"unknown field {quote(extra)}{variant_hint}; remove it (allowed "
                       f"fields: {', '.join(allowed) or 'none'}){alternative}")
            for extra in extras
        ]
    if kind == "required":
        missing = [k for k in value if isinstance(instance, dict) and k not in instance]
        return [Diagnostic(path=join_path(path, k), message="required field is missing")
                for k in missing]
    if kind == "enum":
        legal = ", ".join(str(v) for v in value if v is not None)
        return [Diagnostic(path=path, message=f"{quote(instance)} is not a legal value; "
                           f"legal values: {legal}")]
    if kind == "const":
        return [Diagnostic(path=path, message=f"must be {quote(value)}, got {quote(instance)}")]
    if kind == "type":
        expected = " or ".join(value) if isinstance(value, list) else value
        return [Diagnostic(path=path,
                           message=f"expected {expected}, got {_json_type(instance)}")]
    if kind in ("minItems", "maxItems"):
        return [Diagnostic(path=path, message=_items_message(error))]
    if kind == "minimum":
        return [Diagnostic(path=path, message=f"{instance} is below the minimum {value}")]
    if kind == "exclusiveMinimum":
        return [Diagnostic(path=path, message=f"{instance} must be greater than {value}")]
    if kind == "maximum":
        return [Diagnostic(path=path, message=f"{instance} exceeds the maximum {value}")]
    if kind == "pattern":
        hint = _PATTERN_HINTS.get(value, f"must match {value}")
        return [Diagnostic(path=path, message=f"{quote(instance)} is not valid: {hint}")]
    return [Diagnostic(path=path, message=str(error.message))]


def _items_message(error: SchemaError) -> str:
    schema: Any = error.schema  # set on a reported error (jsonschema types it "or Unset")
    instance: Any = error.instance  # an array: minItems/maxItems failed on it
    got = len(instance)
    low, high = schema.get("minItems"), schema.get("maxItems")
    if low is not None and low == high:
        return f"needs exactly {low} items, got {got}"
    if error.validator == "minItems":
        return f"needs at least {low} item{'s' if low != 1 else ''}, got {got}"
    return f"allows at most {high} items, got {got}"


def _tag_key(variants: Sequence[Mapping[str, Any]]) -> str | None:
    """The discriminator key: a property every variant pins with ``const``."""
    objects = [v for v in variants if v.get("type") == "object"]
    if len(objects) < 2 or len(objects) != len(variants):
        return None
    common = set(objects[0].get("properties", {}))
    for variant in objects[1:]:
        common &= set(variant.get("properties", {}))
    for key in sorted(common):
        if all("const" in v["properties"][key] for v in objects):
            return str(key)
    return None


def _explain_any_of(error: SchemaError) -> list[Diagnostic]:
    path = format_path(error.absolute_path)
    variants: Any = error.validator_value  # set on a reported error (typed "or Unset")
    instance: Any = error.instance
    tag = _tag_key(variants)
    if tag is None or not isinstance(instance, dict):
        if tag is not None:
            return [Diagnostic(path=path, message=f"expected object, got {_json_type(instance)}")]
        best = best_match(error.context) if error.context else None
        return _explain(best, "") if best is not None else [
            Diagnostic(path=path, message=error.message)]
    legal = [v["properties"][tag]["const"] for v in variants]
    legal_text = ", ".join(legal)
    if tag not in instance:
        return [Diagnostic(path=join_path(path, tag),
                           message=f"required field is missing; legal {tag} values: "
                           f"{legal_text}")]
    chosen = instance[tag]
    if chosen not in legal:
        return [Diagnostic(path=join_path(path, tag),
                           message=f"unknown {tag} {quote(chosen)}; legal {tag} values: "
                           f"{legal_text}")]
    index = legal.index(chosen)
    hint = f" for {tag} {quote(chosen)}"
    # the fields say another variant: an unknown field names it beside "remove it"
    fits = _variants_holding(variants, legal, instance, index)
    alternative = (", or write " + " or ".join(f"{tag} {quote(v)}" for v in fits)
                   + ", which has it") if fits else ""
    found: list[Diagnostic] = []
    for sub in error.context:
        if sub.schema_path and sub.schema_path[0] == index:
            at_variant = list(sub.absolute_path) == list(error.absolute_path)
            found.extend(_explain(sub, hint, alternative if at_variant else ""))
    return found or [Diagnostic(path=path, message=error.message)]


def _variants_holding(variants: Sequence[Any], legal: Sequence[str], instance: Mapping[str, Any],
                      chosen: int) -> list[str]:
    """The other variants that have every field ``instance`` writes that the chosen one has
    not (a section of kind shell given a profile: kind beam has one)."""
    extra = set(instance) - set(variants[chosen].get("properties", {}))
    return [legal[i] for i, variant in enumerate(variants)
            if i != chosen and extra and extra <= set(variant.get("properties", {}))]


def _json_type(value: Any) -> str:
    return _JSON_TYPES.get(type(value), type(value).__name__)


# --------------------------------------------------------------------------- stage 3: IR


def ir_diagnostics(exc: IRError, data: Any = None) -> list[Diagnostic]:
    """pydantic errors (normalization rules the schema cannot state) as diagnostics.

    pydantic puts union tags (``translate``) into error locations; walking the input data
    drops them, so the path is the JSON path the model wrote. An error on a container is
    dropped when an error inside it explains it.
    """
    located = [(_json_loc(item["loc"], data), str(item["msg"]).removeprefix("Value error, "))
               for item in exc.errors()]
    found = []
    for loc, message in located:
        if any(len(other) > len(loc) and other[: len(loc)] == loc for other, _ in located):
            continue
        found.append(Diagnostic(path=format_path(loc), message=message))
    return _unique(found)


def _json_loc(loc: Sequence[Any], data: Any) -> tuple[Any, ...]:
    path: list[Any] = []
    current = data
    for part in loc:
        if isinstance(part, int) and isinstance(current, list) and 0 <= part < len(current):
            path.append(part)
            current = current[part]
        elif isinstance(part, str) and isinstance(current, dict):
            if part in current:
                path.append(part)
                current = current[part]
            # else: a union tag or validator name that is not part of the JSON
        else:
            path.append(part)
            current = None
    return tuple(path)


# --------------------------------------------------------------------------- the pipeline


def validate_call(
    tool: str,
    arguments: str | Mapping[str, Any],
    schema: Mapping[str, Any],
    ir_type: type[IR],
    domain_checks: Callable[[IR], Sequence[Diagnostic]] | None = None,
) -> IR:
    """Run the four stages; return the typed IR or raise :class:`CompileError`."""
    data, problems = parse_arguments(arguments)
    if data is None:
        raise CompileError(tool, problems)
    data = fold_enum_case(schema, data)
    problems = schema_diagnostics(schema, data)
    if problems:
        raise CompileError(tool, problems)
    try:
        ir = ir_type.model_validate(data)
    except IRError as exc:
        raise CompileError(tool, ir_diagnostics(exc, data)) from None
    if domain_checks is not None:
        problems = list(domain_checks(ir))
        if problems:
            raise CompileError(tool, _unique(problems))
    return ir
