"""After a failed execution or verification: the target put back and the proof of it.

The script restores itself when it fails (``samops.snapshot``; the receipt says how that
went); after a failed verification the host gateway restores from the snapshot the script
kept. Either way the proof is a readback whose target fingerprint equals the one observed
before the run (labels included). A restore is tried once and never retried (I10); when it
cannot be done, or does not prove, the words say exactly that and what may be left.
No Qt here; the controller calls these and owns the phases and events.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sam_plugin.compilers.evidence import Readback
from sam_plugin.compilers.protocol import Target
from sam_plugin.runtime.observe.observation import target_fingerprint
from sam_plugin.runtime.ports import Host, Receipt, SnapshotHost

PARTIAL_WARNING = (
    "The part may be partly modified: SAM has no undo, and the script stopped part-way. "
    "Re-observe the part before submitting a new request; this run is not retried."
)
RESTORED_NOTE = (
    "The part was put back exactly as it was before the run (restored; fingerprint {fingerprint} "
    "read back, labels included). This run is not retried."
)
RESTORE_FAILED_NOTE = (
    "Putting the part back failed ({reason}); what may be left changed: {left}. "
    "Re-observe the part before submitting a new request; this run is not retried."
)
NO_RESTORE_NOTE = "Restore unavailable: {reason}."
NO_SNAPSHOT_HOST = "this host takes no snapshot (no restore or undo)"


def can_restore(host: Host | None) -> bool:
    """The host kept the last script's snapshot and can put it back."""
    return isinstance(host, SnapshotHost) and host.has_snapshot


def snapshot_unavailable(host: Host, receipt: Receipt | None) -> str | None:
    """Why this execution has no snapshot to restore from (None: it has one, or the script
    stopped before taking it)."""
    taken = receipt.snapshot if receipt is not None else None
    if receipt is not None and taken == "unavailable":
        missing = ", ".join(receipt.missing) or "unknown calls"
        return f"the host lacks {missing}"
    if taken is None and not can_restore(host):
        return NO_SNAPSHOT_HOST
    return None


def unavailable_words(reason: str) -> str:
    return f"{PARTIAL_WARNING} {NO_RESTORE_NOTE.format(reason=reason)}"


@dataclass
class Verdict:
    """How a restore ended: proven (``restored``) or not, with the words for the failure."""

    restored: bool
    words: str
    after: Readback | None
    fingerprint: str
    reason: str | None = None
    left: list[str] = field(default_factory=list)


def put_back(host: Host, target: Target, expected: str | None,
             receipt: Receipt | None = None) -> Verdict:
    """Restore (unless the script already did: ``receipt.restored``), read back, prove."""
    in_script = receipt.restored if receipt is not None else None
    if receipt is not None and in_script is not None:
        restored = in_script
        reason = receipt.restore_error
        left = list(receipt.restore_left)
        if isinstance(host, SnapshotHost):
            host.forget_snapshot()
    elif not isinstance(host, SnapshotHost):
        restored, reason, left = False, NO_SNAPSHOT_HOST, ["unknown"]
    else:
        try:
            outcome = host.restore(target)
            restored, reason, left = outcome.restored, outcome.error, list(outcome.left)
        except Exception as error:  # noqa: BLE001 - said plainly, never retried
            restored, reason, left = False, repr(error), ["unknown"]
    try:
        after: Readback | None = host.readback(target)
    except Exception:  # noqa: BLE001 - then nothing is proven
        after = None
    actual = target_fingerprint(after) if after is not None else "not read"
    if restored and actual == expected:
        return Verdict(True, RESTORED_NOTE.format(fingerprint=actual), after, actual)
    if restored:
        reason = f"the part read back with fingerprint {actual}, not {expected}"
        left = left or ["unknown: compare the part with the one before the run"]
    reason = reason or "the restore did not complete"
    words = RESTORE_FAILED_NOTE.format(reason=reason, left=", ".join(left) or "unknown")
    return Verdict(False, words, after, actual, reason, left)
