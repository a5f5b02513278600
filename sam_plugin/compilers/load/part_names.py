"""Names for a Load run repeated on another part of the same model (docs/architecture.md §6
"rerun"). A load's or boundary condition's name is the model's: every part of it shares the
names. So on another part, each name the model has already is named after that part,
``{name}-{part}``, or the next free ``{name}-{part}-2``, ``-3``... The calls and the spec's
steps are renamed alike (the binding still holds), and the plan's note says each name
(``load.note.named_for_part.*``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from sam_plugin.compilers.spec.ir import Spec
from sam_plugin.words.phrase import Phrase, phrase

Call = tuple[str, Mapping[str, Any] | str]
# the array of a call's items -> the model repository their names are in
REPOSITORIES = {"loads": "loads", "conditions": "boundaryConditions"}
_ARRAY_OF_TOOL = {"apply_load": "loads", "apply_boundary": "conditions"}
_ARRAY_OF_ACTION = {"pressure": "loads", "force": "loads", "fix": "conditions",
                    "displace": "conditions"}
_NOUN = {"loads": "load", "conditions": "condition"}


def model_names(model: Any, array: str) -> list[str]:
    """The names of ``model``'s loads (``array`` "loads") or boundary conditions."""
    found = getattr(model, REPOSITORIES[array], None) if model is not None else None
    return [str(k) for k in found.keys()] if found is not None else []


def named_for_part(name: str, part_name: str, taken: Iterable[str]) -> str:
    """``{name}-{part}``, or the first of ``{name}-{part}-2``, ``-3``... not ``taken``."""
    taken = set(taken)
    candidate, count = f"{name}-{part_name}", 2
    while candidate in taken:
        candidate, count = f"{name}-{part_name}-{count}", count + 1
    return candidate


def _item_names(calls: Sequence[Call], array: str) -> set[str]:
    return {str(item.get("name")) for tool, arguments in calls
            if _ARRAY_OF_TOOL.get(tool) == array and isinstance(arguments, Mapping)
            for item in arguments.get(array) or () if isinstance(item, Mapping)}


def part_names(calls: Sequence[Call], model: Any, part_name: str) -> dict[str, dict[str, str]]:
    """Array -> {the calls' name the model has already -> its name on ``part_name``}."""
    found: dict[str, dict[str, str]] = {}
    for array in _ARRAY_OF_TOOL.values():
        model_has = set(model_names(model, array))
        taken = model_has | _item_names(calls, array)
        renamed: dict[str, str] = {}
        for name in sorted(_item_names(calls, array) & model_has):
            renamed[name] = named_for_part(name, part_name, taken)
            taken.add(renamed[name])
        found[array] = renamed
    return found


def _renamed_call(call: Call, names: Mapping[str, Mapping[str, str]]) -> Call:
    tool, arguments = call
    array = _ARRAY_OF_TOOL.get(tool)
    if array is None or not isinstance(arguments, Mapping) or not names[array]:
        return call
    items = [{**item, "name": names[array].get(str(item.get("name")), item.get("name"))}
             if isinstance(item, Mapping) else item for item in arguments.get(array) or ()]
    return tool, {**arguments, array: items}


def restate_for_part(spec: Spec, calls: Sequence[Call], read_model: Callable[[], Any],
                     part_name: str) -> tuple[Spec, tuple[Call, ...]]:
    """``spec`` and ``calls`` (a run's on another part) with each load and condition name the
    model has already named after ``part_name``; as they are when it has none (the model is
    read only when the calls name a load or condition)."""
    if not any(_item_names(calls, array) for array in _ARRAY_OF_TOOL.values()):
        return spec, tuple(calls)
    names = part_names(calls, read_model(), part_name)
    if not any(names.values()):
        return spec, tuple(calls)
    steps = []
    for step in spec.steps:
        array = _ARRAY_OF_ACTION.get(step.action)
        name = step.values.get("name")
        if array is not None and isinstance(name, str) and name in names[array]:
            step = step.model_copy(update={"values": {**step.values,
                                                      "name": names[array][name]}})
        steps.append(step)
    return (spec.model_copy(update={"steps": tuple(steps)}),
            tuple(_renamed_call(call, names) for call in calls))


def named_for_part_note(array: str, name: str, model: Any, part_name: str) -> Phrase | None:
    """The note of a load or condition named after the target part: the model has a load or
    condition of the name it is named after (``{name}-{part}``, or ``-{part}-2``...)."""
    for base in model_names(model, array):
        stem = f"{base}-{part_name}"
        rest = name[len(stem):]
        if name.startswith(stem) and (not rest or (rest[:1] == "-" and rest[1:].isdigit())):
            return phrase(f"load.note.named_for_part.{_NOUN[array]}", model_name=base,
                          name=name, part=part_name)
    return None
