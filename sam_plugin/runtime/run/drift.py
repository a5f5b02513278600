"""I3: mode and target are frozen at submit. What the caller shows now (the dock's combos)
must still be them, and the part must still read back as observed, at confirm and again
right before execution (docs/architecture.md §1).

Right before execution the whole part is read and its fingerprint compared: that read is
the guarantee, and the script's snapshot takes it (``execute.execute_once``). At confirm the
check is exact but scoped when the spec names what it works on: the counts, every name and
definition, and the entities the spec's steps name (by label or by set), compared bit for bit
with the observation's read (``samops.scoped_read``); a step that works on the whole part, a
box or a shape, or that names no scope and no labels, is checked on the whole part, as is any
step of an action this does not know. So a run pays for three whole reads of a part
(observation, before execution, readback), not four.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import BaseModel

from sam_plugin.compilers.protocol import Target
from sam_plugin.compilers.selectors import LabelsSelector, SetSelector
from sam_plugin.compilers.spec.ir import Spec
from sam_plugin.compilers.spec.vocabulary import Vocabulary
from sam_plugin.errors import FailRun
from sam_plugin.runtime.observe.observation import target_fingerprint
from sam_plugin.runtime.ports import Host
from sam_plugin.runtime.run.state import RunState
from sam_plugin.runtime.selection import Selection, changed_words
from sam_plugin.samops import scoped_read
from sam_plugin.samops.readback import recent_contents

DRIFT_MESSAGE = "the target changed since the spec was written; submit again"


def check_drift(host: Host, run: RunState, mode: str, target: Target, *, when: str,
                selection: Selection | None = None) -> None:
    """Fail the run on any drift (the selection too, when the run acts on one: ``selection``
    is the caller's now); else ``run.before`` is the part as it is now."""
    inputs = run.inputs
    if run.invalidated:
        raise FailRun("observation", f"{DRIFT_MESSAGE} ({run.invalidated})")
    if mode != inputs.mode or target != inputs.target:
        raise FailRun(
            "observation",
            f"{DRIFT_MESSAGE} (at {when}: the dock shows {mode} {target.model_name}/"
            f"{target.part_name}, the spec was written for {inputs.mode} "
            f"{inputs.target.model_name}/{inputs.target.part_name})",
        )
    changed = changed_words(inputs.selection, selection)
    if changed is not None:
        raise FailRun("observation", f"{DRIFT_MESSAGE} (at {when}: {changed})")
    assert run.observation is not None
    if when == "confirm" and _scoped_check(host, run):
        return
    try:
        now = host.readback(inputs.target)
    except Exception as error:
        raise FailRun("observation", f"could not re-read the target at {when}: {error}") \
            from None
    if target_fingerprint(now) != run.observation.fingerprint:
        raise FailRun("observation", f"{DRIFT_MESSAGE} (the part was modified before {when})")
    run.before = now


@dataclass
class SpecScope:
    """The entities a spec's steps name: labels (nodes or elements) and sets."""

    labels: set[int] = field(default_factory=set)
    sets: set[str] = field(default_factory=set)


def spec_scope(spec: Spec | None, vocabulary: Vocabulary) -> SpecScope | None:
    """What the steps of ``spec`` work on, or None when a step works on the whole part (or on
    what cannot be named without reading it: a box, a shape, an unknown action)."""
    if spec is None:
        return None
    scope = SpecScope()
    for step in spec.steps:
        action = vocabulary.action(step.action)
        if action is None:
            return None
        if not action.mutating:
            continue  # an audit reads the part as the check before execution leaves it
        if action.whole_part:
            return None
        named_labels = any(action.values[key].kind == "labels" for key in step.values
                           if key in action.values)
        if step.scope is None and not named_labels:
            return None  # a change with no scope may reach any entity: read it all
        if step.scope is not None and not _named(step.scope, scope):
            return None
        for key, value in step.values.items():
            kind = action.values[key].kind if key in action.values else None
            if kind == "labels" and isinstance(value, list):
                scope.labels.update(v for v in value if isinstance(v, int))
            elif kind not in _NAMING_NOTHING:
                return None  # e.g. elements by their nodes' coordinates: read it all
    return scope


# value kinds that name no existing entity (numbers, names, new points): nothing to read
_NAMING_NOTHING = frozenset({"number", "integer", "bool", "vector", "numbers", "integers",
                             "name", "names", "choice", "choices", "record", "points"})


def _named(selector: BaseModel, scope: SpecScope) -> bool:
    if isinstance(selector, LabelsSelector):
        scope.labels.update(selector.labels)
        return True
    if isinstance(selector, SetSelector):
        scope.sets.add(selector.name)
        return True
    return False


def _scoped_check(host: Host, run: RunState) -> bool:
    """The confirm check on the spec's scope (True: done, nothing drifted); False when it
    cannot be scoped (then the whole part is read)."""
    assert run.observation is not None
    scope = spec_scope(run.spec_ir, run.inputs.module.vocabulary)
    base = recent_contents(run.observation.fingerprint)
    if scope is None or base is None:
        return False
    target = run.inputs.target
    try:
        part = host.part(target)
        if part is None:
            return False
        found = scoped_read.differences(host.model(target.model_name), part, base,
                                        nodes=scope.labels, elements=scope.labels,
                                        sets=scope.sets)
    except Exception:  # noqa: BLE001 - a host this cannot read: the whole check instead
        return False
    if found:
        raise FailRun("observation", f"{DRIFT_MESSAGE} (the part was modified before "
                      f"confirm: {'; '.join(found)})")
    return True
