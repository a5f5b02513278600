"""What became of each target of a rerun, and the rerun's summary (docs/architecture.md §6
"rerun"): verified, failed and restored, failed (not put back), refused (nothing executed:
at compile, or earlier), or skipped (declined, a plan with warnings under ``--yes``, or not
attempted after a failure with ``--stop-on-failure``)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from sam_plugin.compilers.protocol import Target
from sam_plugin.runtime.store.run_store import RunResult

Outcome = Literal["verified", "restored", "failed", "refused", "skipped"]
OUTCOME_WORDS: dict[str, str] = {
    "verified": "verified",
    "restored": "failed and restored",
    "failed": "failed, not restored",
    "refused": "refused",
    "skipped": "skipped",
}
# outcomes after which --stop-on-failure stops (a declined plan is the analyst's choice)
FAILURES = ("restored", "failed", "refused")


class TargetOutcome(BaseModel):
    """One target of a rerun: its outcome, its own run (None when none was started) and why."""

    target: Target
    outcome: Outcome
    run_id: str | None = None
    message: str = ""
    undoable: bool = False

    @classmethod
    def of_result(cls, target: Target, result: RunResult, *,
                  declined: str = "") -> TargetOutcome:
        """The outcome a target's ended run says (``declined``: why its plan was declined)."""
        error = result.error
        why = f"{error.layer}: {error.message}" if error is not None else ""
        outcome: Outcome
        if result.status == "verified":
            outcome = "verified"
        elif result.status == "cancelled":
            outcome = "skipped"
            why = declined or why or "the plan was declined; nothing was executed"
        elif result.submissions == 0:
            outcome = "refused"
            if error is not None:
                why = f"refused at {error.layer}: {error.message}"
        elif result.restored:
            outcome = "restored"
        else:
            outcome = "failed"
        return cls(target=target, outcome=outcome, run_id=result.run_id, message=why,
                   undoable=result.undoable)

    def words(self) -> str:
        """``Model-1/Plate-2: verified (run …)``, then why, when there is a reason."""
        text = f"{self.target.model_name}/{self.target.part_name}: {OUTCOME_WORDS[self.outcome]}"
        if self.run_id:
            text += f" (run {self.run_id})"
        return text + (f" — {self.message}" if self.message else "")


class RerunSummary(BaseModel):
    """Every target of one rerun, in order."""

    source_run: str
    targets: list[TargetOutcome] = Field(default_factory=list)

    @property
    def all_verified(self) -> bool:
        return bool(self.targets) and all(t.outcome == "verified" for t in self.targets)

    def counts(self) -> dict[str, int]:
        found = {key: 0 for key in OUTCOME_WORDS}
        for target in self.targets:
            found[target.outcome] += 1
        return found

    def headline(self) -> str:
        """``3 parts: 2 verified, 1 refused``."""
        counts = ", ".join(f"{n} {OUTCOME_WORDS[k]}" for k, n in self.counts().items() if n)
        noun = "part" if len(self.targets) == 1 else "parts"
        return f"rerun of run {self.source_run} on {len(self.targets)} {noun}: {counts}"

    def as_json(self) -> dict[str, Any]:
        return {"source_run": self.source_run, "all_verified": self.all_verified,
                "counts": self.counts(),
                "targets": [t.model_dump(mode="json") for t in self.targets]}
