"""Calls written for one part and compiled for another (docs/architecture.md §6 "rerun"): where
their selections depend on the labels or the geometry of the part they came from, the plan
warns and says what they pick on the new part (and, when it is in the model, on the old one).

Labels are the host's numbers of one part: the same labels on another part are other entities,
or none (then the compile refuses, naming them). A box is a place in the old part's
coordinates. Sets and shapes resolve by meaning on any part and are not warned about.

Pure: it reads the parts (host objects, read-only) only to resolve the selectors.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from sam_plugin.compilers.protocol import DomainModule, Fragment
from sam_plugin.compilers.selectors import BoxSelector, LabelsSelector, selector_literal
from sam_plugin.compilers.spec.values import label_words, point_words
from sam_plugin.errors import SelectionError
from sam_plugin.samops import selection


def drift_warnings(module: DomainModule, fragments: Sequence[Fragment], *, source_part: str,
                   target_part: str, source: Any, target: Any,
                   length_unit: str = "") -> list[str]:
    """One warning per selection of ``fragments`` that depends on the part ``source_part``
    (``source``: that part now, or None when it is not in the model); ``target`` is the part
    ``target_part`` as observed before the run. None when the two are the same part.
    ``length_unit``: said after each box and point (none when not known)."""
    if source_part == target_part:
        return []
    found: list[str] = []
    for fragment in fragments:
        for operation in module.operations(fragment):
            scope = operation.scope
            if not isinstance(scope, LabelsSelector | BoxSelector):
                continue
            action = module.vocabulary.action(operation.action)
            nodes = action is not None and action.members == "nodes"
            text = _warning(scope, nodes, (source_part, target_part), (source, target),
                            length_unit)
            if text not in found:
                found.append(text)
    return found


def _warning(scope: BaseModel, nodes: bool, names: tuple[str, str], parts: tuple[Any, Any],
             length_unit: str) -> str:
    (source_part, target_part), (source, target) = names, parts
    noun = "node" if nodes else "element"
    then = (f"; on {source_part} now: {_picked(scope, nodes, source, length_unit)}"
            if source is not None else "")
    if isinstance(scope, LabelsSelector):
        one = len(scope.labels) == 1
        return (f"selection by {noun} label{'' if one else 's'} {label_words(scope.labels)} "
                f"came from part {source_part}; on {target_part} {'it is' if one else 'they are'} "
                f"{_picked(scope, nodes, target, length_unit)}{then}")
    assert isinstance(scope, BoxSelector)
    box = _measured(f"{point_words(scope.min)}-{point_words(scope.max)}", length_unit)
    return (f"selection by the box {box} came from part {source_part}; on {target_part} it "
            f"picks {_picked(scope, nodes, target, length_unit)}{then}")


def _measured(words: str, length_unit: str) -> str:
    return f"{words} {length_unit}" if length_unit else words


def _picked(scope: BaseModel, nodes: bool, part: Any, length_unit: str = "") -> str:
    """What ``scope`` picks on ``part``: a count and the bounding box of its nodes."""
    literal = selector_literal(scope)
    try:
        if nodes:
            members = selection.select_nodes(part, literal)
            points = [n.coordinates for n in members]
        else:
            members = selection.select_elements(part, literal)
            points = [n.coordinates for n in selection.nodes_of(part, members)]
    except SelectionError:
        return _not_all_there(scope, nodes, part)
    noun = ("node" if nodes else "element") + ("" if len(members) == 1 else "s")
    if not members:
        return f"no {noun}"
    low = [min(float(p[axis]) for p in points) for axis in range(3)]
    high = [max(float(p[axis]) for p in points) for axis in range(3)]
    if low == high:
        return f"{len(members)} {noun} at {_measured(point_words(low), length_unit)}"
    box = _measured(f"{point_words(low)}-{point_words(high)}", length_unit)
    return f"{len(members)} {noun} in the box {box}"


def _not_all_there(scope: BaseModel, nodes: bool, part: Any) -> str:
    """Which of the labels ``scope`` names ``part`` does not have."""
    if not isinstance(scope, LabelsSelector):
        return "not all there"
    have = {item.label for item in (part.nodes if nodes else part.elements)}
    missing = [label for label in scope.labels if label not in have]
    noun = "node" if nodes else "element"
    return (f"{len(missing)} of the {len(scope.labels)} {noun}s are not there "
            f"(label{'' if len(missing) == 1 else 's'} {label_words(missing)})")
