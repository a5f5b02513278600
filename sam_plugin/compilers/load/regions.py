"""The region of a load or boundary condition: which members a selection picks, the set the
call acts on (the one it names, or ``LOAD-<name>`` / ``BC-<name>`` made from it), and the
compile errors of a selection of the wrong members (docs/architecture.md §4 "Load mode
rules")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel

from sam_plugin.compilers.protocol import Diagnostic
from sam_plugin.compilers.selectors import SetSelector, ShapeSelector, selector_literal
from sam_plugin.errors import SelectionError
from sam_plugin.samops import selection

Members = Literal["elements", "nodes"]
PREFIX = {"pressure": "LOAD", "force": "LOAD", "fix": "BC", "displace": "BC"}
# what a selection of nodes may be: a shape picks elements (the check below says so)
NODE_SELECTORS = ("all", "labels", "set", "box")
MEMBERS: dict[str, Members] = {"pressure": "elements", "force": "nodes", "fix": "nodes",
                               "displace": "nodes"}
_NOUN = {"pressure": "a pressure", "force": "a force", "fix": "a boundary condition",
         "displace": "a boundary condition"}


def region_name(kind: str, name: str, selector: BaseModel) -> str:
    """The set the load or condition acts on."""
    if isinstance(selector, SetSelector):
        return selector.name
    return f"{PREFIX[kind]}-{name}"


def made_set(kind: str, name: str, selector: BaseModel) -> str | None:
    """The set the run makes for a selection that is not a set (None: it names one)."""
    return None if isinstance(selector, SetSelector) else region_name(kind, name, selector)


def picked(part: Any, selector: BaseModel, members: Members) -> list[int]:
    """The labels the selection picks on the live part ([] when it picks none)."""
    if part is None:
        return []
    literal = selector_literal(selector)
    try:
        if isinstance(selector, SetSelector):
            found = part.sets[selector.name]
            return sorted(x.label for x in (found.elements if members == "elements"
                                            else found.nodes))
        if members == "elements":
            return [e.label for e in selection.select_elements(part, literal)]
        return [n.label for n in selection.select_nodes(part, literal)]
    except (SelectionError, KeyError):
        return []


def _sets_holding(part: Any, members: Members) -> list[str]:
    return sorted(name for name, found in part.sets.items()
                  if len(found.elements if members == "elements" else found.nodes))


def region_checks(part: Any, kind: str, name: str, selector: BaseModel, path: str
                  ) -> list[Diagnostic]:
    """A selection of the members ``kind`` acts on, picking at least one; a set it would
    make that does not exist yet."""
    members = MEMBERS[kind]
    noun = _NOUN[kind]
    if isinstance(selector, ShapeSelector) and members == "nodes":
        return [Diagnostic(path=f"{path}.selection", message=(
            f"{noun} acts on nodes, and a shape picks elements; legal selections: "
            "node labels, a set that holds nodes, a box, all"))]
    if isinstance(selector, SetSelector) and part is not None:
        if selector.name not in part.sets.keys():
            names = ", ".join(sorted(part.sets.keys())) or "none"
            return [Diagnostic(path=f"{path}.selection.name", message=(
                f"unknown set {selector.name!r}; existing sets: {names}"))]
        if not picked(part, selector, members):
            legal = ", ".join(_sets_holding(part, members)) or "none"
            return [Diagnostic(path=f"{path}.selection.name", message=(
                f"{noun} acts on {members}; set {selector.name!r} holds no {members}; "
                f"sets that hold {members}: {legal}"))]
    found = _labels_checks(part, selector, members, path)
    if found:
        return found
    if part is not None and not picked(part, selector, members):
        return [Diagnostic(path=f"{path}.selection", message=(
            f"the selection picks no {members}; {noun} needs at least one"),
            needs=("picking_scope",))]
    if kind == "pressure" and part is not None:
        beams = _beams(part, selector)
        if beams:
            return [Diagnostic(path=f"{path}.selection", message=(
                f"a pressure acts on QUAD and TRI faces only; the selection holds BEAM "
                f"element(s) {', '.join(str(b) for b in beams[:10])}; legal shapes: QUAD, TRI"))]
    made = made_set(kind, name, selector)
    if made is not None and part is not None and made in part.sets.keys():
        return [Diagnostic(path=f"{path}.name", message=(
            f"the set {made!r} this {noun[2:]} would make already exists; choose another "
            f"name, or select the set {made!r} itself"))]
    return []


def _labels_checks(part: Any, selector: BaseModel, members: Members, path: str
                   ) -> list[Diagnostic]:
    labels: Sequence[int] = getattr(selector, "labels", ()) or ()
    if not labels or part is None:
        return []
    existing = {x.label for x in (part.elements if members == "elements" else part.nodes)}
    missing = [label for label in labels if label not in existing]
    if not missing:
        return []
    noun = members[:-1]
    return [Diagnostic(path=f"{path}.selection.labels", message=(
        f"unknown {noun} label(s) {', '.join(str(m) for m in missing[:10])}; "
        f"{selection.label_range(existing, noun)}"))]


def _beams(part: Any, selector: BaseModel) -> list[int]:
    labels = picked(part, selector, "elements")
    if not labels:
        return []
    return [e.label for e in part.elements.sequenceFromLabels(labels) if str(e.type) == "BEAM"]
