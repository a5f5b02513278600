"""Exact verification (I13, I16): the live part against the part the plan predicted.

The plan's prediction is scoped (``compilers/predicted_part.py``): the entities and names the
calls touch, with what they become, and the fingerprint of everything else as it was. The
live part is read once (the readback's own read, kept by its fingerprint), and

- the rest — every record outside the scope: coordinates, connectivity, shapes, sets and
  members, section assignments with their section names, beam orientations with n1, the
  model's definitions — must have the very fingerprint it had before (any changed bit shows);
- the touched and new entities are compared one by one: coordinates within a tolerance from
  the part's size (``1e-6`` of its largest extent, at least a few ulps of the coordinate),
  connectivity and shape, set members, sections and orientations, labels where they are
  predictable (an entity that existed keeps its label; the host numbers new ones, so those
  are matched by geometry). When the live part has exactly the predicted after-fingerprint,
  that already proves all of it bit for bit.

At any size: nothing is sampled. Every ``actual`` is read from the live part, never copied
from the prediction.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from sam_plugin.compilers.check_phrases import tally as _tally
from sam_plugin.compilers.evidence import Check, Readback
from sam_plugin.compilers.predicted_part import DEFINITIONS, NEW_ENTITIES, PredictedPart
from sam_plugin.runtime.verify.comparison_words import (
    SHOWN,
    element_words,
    label_diff,
    named,
    point_words,
    record_words,
    values_words,
)
from sam_plugin.runtime.verify.entity_matching import (
    Vec3,
    elements_of,
    grouped,
    mapped,
    nodes_of,
    pair_by_geometry,
    pair_elements,
    prior_labels,
)
from sam_plugin.runtime.verify.outside_scope import (
    differing_entities,
    outside,
    outside_by_element,
)
from sam_plugin.samops.fingerprint import KINDS, Fingerprint
from sam_plugin.samops.gc_pause import collector_paused
from sam_plugin.samops.part_contents import Keyed, PartContents, read_contents
from sam_plugin.samops.part_scope import among
from sam_plugin.samops.readback import recent_contents
from sam_plugin.words.phrase import Phrase, phrase, render

RELATIVE_TOLERANCE = 1e-6
ULPS = 4  # the tolerance is never below this many ulps of the planned coordinate
# the recorded names of the rows the front ends treat on their own
REST = render(phrase("check.rest"))
NOT_COMPARED = render(phrase("check.not_compared"))
BY_VALUES = render(phrase("check.by_values"))  # a note: the property values rows compare them



def compare_with_plan(predicted: PredictedPart | None, live_part: Any, after: Readback,
                      basis: str = "", live_model: Any = None,
                      basis_phrase: Phrase | None = None) -> list[Check]:
    """The live part against the plan's; ``basis`` (with its phrase, when the plan has one):
    why there is no predicted part."""
    if predicted is None:
        said: Phrase | str = (phrase("check.basis", basis=basis_phrase)
                              if basis_phrase is not None else
                              basis or phrase("check.no_predicted_part"))
        return [Check.said(phrase("check.not_compared"), phrase("check.counts_names"), said,
                           ok=True)]
    if live_part is None:
        return [Check.said(phrase("check.not_compared"), phrase("check.the_part"),
                           phrase("check.missing"), ok=False)]
    live = recent_contents(after.fingerprint) if after.fingerprint else None
    read = live is not None or live_model is not None
    if live is None:
        live = read_contents(live_model, live_part)
    with collector_paused():  # the words of a big difference build dicts in bulk
        return Comparison(predicted, live, read).checks()


def tolerance(predicted: PredictedPart) -> float:
    """What counts as the same coordinate: relative to the part's size, not to how far the
    part lies from the origin (the ulp floor is applied per coordinate)."""
    return RELATIVE_TOLERANCE * max(1.0, predicted.size())


class Comparison:
    """One live read against one prediction; ``checks`` says what held, kind by kind."""

    def __init__(self, predicted: PredictedPart, live: PartContents,
                 definitions_read: bool = True) -> None:
        self.predicted = predicted
        self.live = live
        self.inside = predicted.scope.inside(live)
        self.tol = tolerance(predicted)
        self.definitions_read = definitions_read
        self.node_map: dict[int, int] = {}
        self.element_map: dict[int, int] = {}

    def checks(self) -> list[Check]:
        checks = [self._rest()]
        predicted, image = self.predicted, self.predicted.image
        if predicted.after is not None and self.live.digest() == predicted.after:
            return checks + self._as_predicted()
        for name, compare in (("nodes", self._nodes), ("elements", self._elements),
                              ("set members", self._sets),
                              ("section assignments", self._assignments),
                              ("beam orientations", self._orientations)):
            if name not in ("nodes", "elements", "set members") and not self._has(name):
                continue
            check = compare()
            checks.append(check)
            if name == "nodes" and not check.ok:
                break  # without the node pairing the rest cannot be compared
        if DEFINITIONS in predicted.unpredicted:
            checks.append(Check.said(
                phrase("check.by_values"), phrase("check.values_read_back"),
                phrase("check.checked_by_values", count=len(predicted.scope.definitions)),
                ok=True))
        elif predicted.scope.definitions or image.definitions:
            checks.append(self._definitions())
        return checks

    def _as_predicted(self) -> list[Check]:
        """The live part has the predicted after-fingerprint: every touched record is as
        planned, bit for bit (labels of new entities included), without comparing one by one
        (the rest check says so)."""
        inside = self.inside
        nodes, elements = self._planned_tally("nodes"), self._planned_tally("elements")
        sets = len(set(inside.set_names) | {str(k) for k in inside.set_nodes.keys}
                   | {str(k) for k in inside.set_elements.keys})
        checks = [
            Check.said(phrase("check.nodes_as_planned"),
                       phrase("check.tally.coordinates", tally=nodes,
                              tolerance=f"{self.tol:.3g}"),
                       phrase("check.tally.as_planned", tally=nodes), ok=True),
            Check.said(phrase("check.elements_as_planned"),
                       phrase("check.tally.shapes", tally=elements),
                       phrase("check.tally.as_planned", tally=elements), ok=True),
            Check.said(phrase("check.set_members_as_planned"),
                       phrase("check.sets_with_members", count=sets),
                       phrase("check.sets_as_planned", count=sets), ok=True)]
        for name, records, noun in (
                ("check.sections_as_planned", inside.assignments, "sections"),
                ("check.orientations_as_planned", inside.orientations, "orientations")):
            if len(records):
                said = phrase(f"check.elements_with_{noun}",
                              count=len(set(records.labels.tolist())))
                checks.append(Check.said(phrase(name), said, said, ok=True))
        if len(inside.definitions):
            checks.append(Check.said(
                phrase("check.definitions_as_planned"),
                phrase("check.definitions", count=len(inside.definitions)),
                phrase("check.definitions_as_planned_count", count=len(inside.definitions)),
                ok=True))
        return checks

    def _planned_tally(self, noun: str) -> Phrase:
        """Kept, removed and new as the prediction has them (the live part has its very
        fingerprint, so the live tally is the same)."""
        scope, image = self.predicted.scope, self.predicted.image
        of_nodes = noun == "nodes"
        planned = image.mesh.node_labels if of_nodes else image.mesh.element_labels
        prior = scope.prior_nodes if of_nodes else scope.prior_elements
        kept = int(among(planned, prior).sum())
        touched = len(scope.nodes if of_nodes else scope.elements)
        return _tally(noun, kept, touched - kept, len(planned) - kept)

    def _has(self, kind: str) -> bool:
        image, inside = self.predicted.image, self.inside
        records = {"set members": (image.set_nodes, image.set_elements, inside.set_nodes,
                                   inside.set_elements),
                   "section assignments": (image.assignments, inside.assignments),
                   "beam orientations": (image.orientations, inside.orientations)}[kind]
        named = kind == "set members" and (image.set_names or inside.set_names
                                           or self.predicted.scope.sets)
        return bool(named) or any(len(r) for r in records)

    # -- the rest, through the fingerprint ---------------------------------------------------

    def _rest(self) -> Check:
        predicted = self.predicted
        left_out = () if self.definitions_read else (DEFINITIONS,)
        if predicted.rest is None:
            before_text = str(predicted.before)
            now_text = str(self.live.digest())
            differ = [] if self.live.digest() == predicted.before else ["everything"]
        else:
            now = predicted.scope.rest(self.live).digests
            before_text = str(predicted.rest.fingerprint(left_out))
            now_text = str(now.fingerprint(left_out))
            differ = [kind for kind in KINDS if kind not in left_out
                      and now.values[kind] != predicted.rest.values[kind]]
        scope = predicted.scope
        untouched = self.live.mesh.node_count - self.inside.mesh.node_count
        untouched_elements = self.live.mesh.element_count - self.inside.mesh.element_count
        expected = (f"fingerprint {before_text} of everything the calls do not "
                    "touch, as before the run")
        fine = (f"unchanged: {untouched} nodes, {untouched_elements} elements and every set, "
                f"membership, section, orientation and definition the calls do not touch "
                f"({scope.touched} touched entities and names compared one by one)")
        if not differ:
            after = predicted.after
            if after is not None and self.live.digest() == after:
                fine += f"; the whole part has the predicted after-fingerprint {after}"
            return Check.said(phrase("check.rest"), phrase("check.as_before", text=expected),
                              phrase("check.as_before", text=fine), ok=True)
        problems = [f"{kind} changed" + named(self._what_differs(kind)) for kind in differ]
        return Check.said(phrase("check.rest"), phrase("check.as_before", text=expected),
                          phrase("check.changed", text="; ".join(problems)
                                 + f" (fingerprint {now_text})"), ok=False)

    def _what_differs(self, kind: str) -> list[str]:
        """Names of the untouched records that differ (from the before read, when kept)."""
        base = self.predicted.base
        if base is None:
            return []
        scope = self.predicted.scope
        if kind in ("nodes", "elements"):
            return differing_entities(base, self.live, scope, kind == "nodes")
        if kind in ("section assignments", "beam orientations"):
            what = "assignments" if kind == "section assignments" else "orientations"
            word = (lambda v: f"section {v}") if what == "assignments" else (
                lambda v: f"n1 {point_words(v[1])}")
            was_by = outside_by_element(base, scope, what)
            now_by = outside_by_element(self.live, scope, what)
            return [f"element {k} has {values_words(now_by.get(k, ()), word, kind.split()[-1])}, "
                    f"was {values_words(was_by.get(k, ()), word, kind.split()[-1])}"
                    for k in sorted(set(was_by) | set(now_by))
                    if was_by.get(k) != now_by.get(k)]
        readers: dict[str, Callable[[PartContents], set[tuple[Any, ...]]]] = {
            "set members": lambda c: outside(c, scope, "members"),
            "section assignments": lambda c: outside(c, scope, "assignments"),
            "beam orientations": lambda c: outside(c, scope, "orientations"),
            "sets": lambda c: {(n, 0) for n in c.set_names if n not in scope.sets},
            DEFINITIONS: lambda c: {(d, 0) for d in c.definitions
                                    if (d[0], d[1]) not in scope.definitions}}
        pairs = readers.get(kind)
        if pairs is None:
            return []
        was_p, now_p = pairs(base), pairs(self.live)
        out = [f"{record_words(kind, r)} gone" for r in sorted(was_p - now_p, key=repr)]
        return out + [f"{record_words(kind, r)} not in the plan" for r in sorted(now_p - was_p,
                                                                            key=repr)]

    # -- nodes ---------------------------------------------------------------------------

    def _nodes(self) -> Check:
        scope = self.predicted.scope
        planned = nodes_of(self.predicted.image)
        found = nodes_of(self.inside)
        prior = prior_labels(scope.prior_nodes, planned, found)
        problems: list[str] = []
        kept = {k for k in planned if k in prior}
        live_kept = {k for k in found if k in prior}
        problems += [f"node {k} missing (the plan keeps it)" for k in sorted(kept - live_kept)]
        problems += [f"node {k} still present (the plan removes it)"
                     for k in sorted(live_kept - kept)]
        both = sorted(kept & live_kept)
        problems += self._moved([(k, planned[k], k, found[k]) for k in both])
        self.node_map = {k: k for k in both}
        new = sorted(k for k in planned if k not in prior)
        live_new = sorted(k for k in found if k not in prior)
        if NEW_ENTITIES in self.predicted.unpredicted:
            self.node_map.update((k, k) for k in live_new)
        elif len(new) != len(live_new):
            problems.append(f"{len(live_new)} new nodes, the plan creates {len(new)}")
        elif new:
            pairs = pair_by_geometry(new, planned, live_new, found, self.tol)
            problems += self._moved([(a, planned[a], b, found[b]) for a, b in pairs])
            self.node_map.update(pairs)
        touched = len(scope.nodes)
        predicted_new = NEW_ENTITIES not in self.predicted.unpredicted
        return _check(_compared_name("nodes", predicted_new),
                      phrase("check.tally.coordinates",
                             tally=_tally("nodes", len(kept), touched - len(kept),
                                          len(new) if predicted_new else None),
                             tolerance=f"{self.tol:.3g}"),
                      problems,
                      phrase("check.tally.as_planned",
                             tally=_tally("nodes", len(live_kept), touched - len(live_kept),
                                          len(live_new) if predicted_new else None)))

    def _moved(self, pairs: list[tuple[int, Vec3, int, Vec3]]) -> list[str]:
        if not pairs:
            return []
        planned = np.array([p for _, p, _, _ in pairs], dtype=np.float64)
        found = np.array([q for _, _, _, q in pairs], dtype=np.float64)
        floor = ULPS * np.spacing(np.abs(planned))
        off = np.abs(planned - found) > np.maximum(self.tol, floor)
        bad = np.nonzero(off.any(axis=1))[0]
        out = []
        for i in bad[: SHOWN + 1].tolist():
            label, plan, live_label, live = pairs[i]
            name = f"node {live_label}" + (f" (planned as {label})" if label != live_label else "")
            out.append(f"{name} at {point_words(live)}, the plan puts it at {point_words(plan)}")
        if len(bad) > SHOWN + 1:
            out.append(f"... {len(bad)} nodes off the plan in all")
        return out

    # -- elements ------------------------------------------------------------------------

    def _elements(self) -> Check:
        scope = self.predicted.scope
        planned = elements_of(self.predicted.image)
        found = elements_of(self.inside)
        prior = prior_labels(scope.prior_elements, planned, found)
        mapping = self.node_map
        problems: list[str] = []
        kept = {k for k in planned if k in prior}
        live_kept = {k for k in found if k in prior}
        problems += [f"element {k} missing (the plan keeps it)"
                     for k in sorted(kept - live_kept)]
        problems += [f"element {k} still present (the plan deletes it)"
                     for k in sorted(live_kept - kept)]
        for k in sorted(kept & live_kept):
            want = mapped(planned[k], mapping)
            if found[k] != want:
                problems.append(f"element {k} is {element_words(found[k])}, "
                                f"the plan says {element_words(want)}")
        self.element_map = {k: k for k in kept & live_kept}
        live_new = {k: e for k, e in found.items() if k not in prior}
        if NEW_ENTITIES in self.predicted.unpredicted:
            self.element_map.update((k, k) for k in live_new)
        else:
            planned_new = {k: mapped(e, mapping) for k, e in planned.items() if k not in prior}
            wanted, have = Counter(planned_new.values()), Counter(live_new.values())
            problems += [f"new element {element_words(key)} missing (the plan creates it)"
                         for key in sorted(wanted - have)]
            problems += [f"new element {element_words(key)} is not in the plan"
                         for key in sorted(have - wanted)]
            self.element_map.update(pair_elements(planned_new, live_new))
        touched = len(scope.elements)
        predicted_new = NEW_ENTITIES not in self.predicted.unpredicted
        planned_new_count = sum(1 for k in planned if k not in prior)
        return _check(_compared_name("elements", predicted_new),
                      phrase("check.tally.shapes",
                             tally=_tally("elements", len(kept), touched - len(kept),
                                          planned_new_count if predicted_new else None)),
                      problems,
                      phrase("check.tally.as_planned",
                             tally=_tally("elements", len(live_kept),
                                          touched - len(live_kept),
                                          len(live_new) if predicted_new else None)))

    # -- sets, sections, orientations, definitions -----------------------------------------

    def _sets(self) -> Check:
        image, inside, scope = self.predicted.image, self.inside, self.predicted.scope
        problems = [f"set {name} missing" for name in sorted(set(image.set_names) -
                                                             set(inside.set_names))]
        problems += [f"set {name} is not in the plan" for name in
                     sorted(set(inside.set_names) - set(image.set_names))]
        skip_new = NEW_ENTITIES in self.predicted.unpredicted
        for kind, planned, found, mapping, prior in (
                ("nodes", image.set_nodes, inside.set_nodes, self.node_map, scope.prior_nodes),
                ("elements", image.set_elements, inside.set_elements, self.element_map,
                 scope.prior_elements)):
            want = grouped(planned, mapping)
            have = grouped(found, None, prior if skip_new else None)
            for name in sorted(set(want) | set(have)):
                if want.get(name, set()) != have.get(name, set()):
                    problems.append(f"set {name}: {kind} "
                                    f"{label_diff(have.get(name, set()), want.get(name, set()))}")
        count = len(set(image.set_names) | {str(k) for k in image.set_nodes.keys}
                    | {str(k) for k in image.set_elements.keys})
        return _check(phrase("check.set_members_as_planned"),
                      phrase("check.sets_with_members", count=count), problems,
                      phrase("check.sets_as_planned", count=count))

    def _assignments(self) -> Check:
        return self._by_element(phrase("check.sections_as_planned"),
                                self.predicted.image.assignments, self.inside.assignments,
                                "sections", lambda v: f"section {v}")

    def _orientations(self) -> Check:
        return self._by_element(phrase("check.orientations_as_planned"),
                                self.predicted.image.orientations, self.inside.orientations,
                                "orientations", lambda v: f"n1 {point_words(v[1])}")

    def _by_element(self, name: Phrase, planned: Keyed, found: Keyed, noun: str,
                    word: Any) -> Check:
        skip_new = NEW_ENTITIES in self.predicted.unpredicted
        prior = self.predicted.scope.prior_elements
        planned_by = planned.by_label()
        existed_planned = prior_labels(prior, planned_by)
        want = {k if k in existed_planned else self.element_map.get(k, -k): v
                for k, v in planned_by.items()}
        have = found.by_label()
        if skip_new:  # the new elements' records are the compilers' counts, not compared here
            existed = prior_labels(prior, have)
            have = {k: v for k, v in have.items() if k in existed}
        problems = []
        for label in sorted(set(want) | set(have), key=abs):
            a, b = want.get(label, ()), have.get(label, ())
            if a != b:
                shown = f"element {label}" if label > 0 else f"new element (planned {-label})"
                problems.append(f"{shown} has {values_words(b, word, noun)}, the plan gives it "
                                f"{values_words(a, word, noun)}")
        return _check(name, phrase(f"check.elements_with_{noun}", count=len(want)), problems,
                      phrase(f"check.elements_with_{noun}", count=len(have)))

    def _definitions(self) -> Check:
        want = set(self.predicted.image.definitions)
        have = set(self.inside.definitions)
        problems = [f"{d[0]} {d[1]} is {d[2]}, the plan says otherwise"
                    for d in sorted(have - want)]
        problems += [f"{d[0]} {d[1]} missing" for d in sorted(want - have)
                     if not any(h[:2] == d[:2] for h in have)]
        return _check(phrase("check.definitions_as_planned"),
                      phrase("check.definitions", count=len(want)), problems,
                      phrase("check.definitions_as_planned_count", count=len(have)))


# -- helpers ------------------------------------------------------------------------------


def _same_bits(a: Iterable[float], b: Iterable[float]) -> bool:
    return bool(np.array_equal(np.asarray(list(a), dtype=np.float64).view(np.uint64),
                               np.asarray(list(b), dtype=np.float64).view(np.uint64)))


def _compared_name(noun: str, predicted_new: bool) -> Phrase:
    """The row's name says what it compares: with new entities the host numbers and the plan
    does not predict one by one, only the existing ones the calls touch (the new ones are in
    the count checks)."""
    return phrase(f"check.{noun}_as_planned" if predicted_new
                  else f"check.existing_{noun}_as_planned")


def _check(name: Phrase, expected: Phrase, problems: list[str], fine: Phrase) -> Check:
    """``fine`` when nothing differs, else the first differences as recorded (a tally says
    the existing ones the calls touch and keep, those they remove, and the new ones; the same
    words on the expected and the actual side, so a row that holds shows equal values)."""
    if not problems:
        return Check.said(name, expected, fine, ok=True)
    shown = problems[:SHOWN]
    more = f"; +{len(problems) - SHOWN} more" if len(problems) > SHOWN else ""
    return Check.said(name, expected, "; ".join(shown) + more, ok=False)


__all__ = ["BY_VALUES", "NOT_COMPARED", "REST", "Comparison", "Fingerprint", "compare_with_plan",
           "tolerance"]
