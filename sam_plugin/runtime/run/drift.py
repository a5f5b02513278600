"""I3: mode and target are frozen at submit. What the caller shows now (the dock's combos)
must still be them, and the part must still read back as observed, at confirm and again
right before execution (docs/architecture.md §1)."""

from __future__ import annotations

from sam_plugin.compilers.protocol import Target
from sam_plugin.errors import FailRun
from sam_plugin.runtime.observe.observation import target_fingerprint
from sam_plugin.runtime.ports import Host
from sam_plugin.runtime.run.state import RunState

DRIFT_MESSAGE = "the target changed since the spec was written; submit again"


def check_drift(host: Host, run: RunState, mode: str, target: Target, *, when: str) -> None:
    """Fail the run on any drift; else ``run.before`` is the part as it is now."""
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
    assert run.observation is not None
    try:
        now = host.readback(inputs.target)
    except Exception as error:
        raise FailRun("observation", f"could not re-read the target at {when}: {error}") \
            from None
    if target_fingerprint(now) != run.observation.fingerprint:
        raise FailRun("observation", f"{DRIFT_MESSAGE} (the part was modified before {when})")
    run.before = now
