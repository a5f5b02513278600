"""The seal of a run's verified outcome (docs/architecture.md §7 ``outcome_seal.json``).

A rerun repeats only a verified run, and it reads the run's mode, part and before-counts from
``result.json``, a file anyone who can write the runs directory can rewrite (a declined plan
set to ``verified`` would run again). So right after verification the run seals its outcome:
the status, the decision that let it run, what verification read back (the checks and the
after-fingerprint) and the fields a rerun reads, as an HMAC under the per-user secret of the
other seals (``record_seal``). A run whose sealed outcome is not verified, or does not hold,
or disagrees with its ``result.json``, is never rerun.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from sam_plugin.runtime.store.record_seal import record_holds, seal_record
from sam_plugin.runtime.store.run_store import RunDir, RunResult

SEAL_FILE = "outcome_seal.json"
_KIND = "verified_outcome"
# the fields of result.json a rerun reads, which must agree with the sealed outcome
BOUND_FIELDS = ("module", "target", "before", "script_sha256")


def _digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def _bound(result: RunResult) -> dict[str, str]:
    """The fields a rerun reads, as the sealed record holds them."""
    dumped = result.model_dump(mode="json")
    return {name: _digest(dumped.get(name)) for name in BOUND_FIELDS}


def outcome_record(result: RunResult) -> dict[str, str]:
    """The verified outcome of ``result`` as it is sealed (flat strings)."""
    dumped = result.model_dump(mode="json")
    after = result.after.fingerprint if result.after is not None else None
    return {"status": result.status, "decision": "approved",
            "checks": _digest(dumped.get("checks")), "after": after or "", **_bound(result)}


def seal_outcome(run: RunDir, result: RunResult) -> None:
    """Seal the verified ``result`` of ``run`` (called right after verification)."""
    if result.status != "verified":
        raise ValueError(f"only a verified outcome is sealed, not {result.status}")
    record = outcome_record(result)
    run.write_json(SEAL_FILE, {"run_id": run.run_id, "outcome": record,
                               "seal": seal_record(_KIND, {"run_id": run.run_id, **record})})


def unsealed_outcome(run: RunDir, result: RunResult) -> str | None:
    """Why ``run`` has no verified outcome a rerun may start from (one line), or None."""
    try:
        kept = json.loads(run.file(SEAL_FILE).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return (f"its result.json says {result.status}, but no verified outcome was sealed "
                f"for it ({SEAL_FILE} is missing); it is not rerun")
    except (OSError, ValueError) as error:
        return f"{SEAL_FILE} cannot be read ({_one_line(error)}); it is not rerun"
    record = kept.get("outcome") if isinstance(kept, dict) else None
    if not isinstance(record, dict) or not record_holds(
            _KIND, {"run_id": run.run_id, **record}, kept.get("seal")):
        return (f"{SEAL_FILE} does not hold its seal (it was rewritten, copied from another "
                "run, or sealed under another user's secret); it is not rerun")
    if record.get("status") != "verified" or record.get("decision") != "approved":
        return (f"its sealed outcome is {record.get('status')} ({record.get('decision')}), "
                "not verified; it is not rerun")
    differing = [name for name, value in _bound(result).items() if record.get(name) != value]
    if differing:
        return (f"its result.json differs from its sealed verified outcome in "
                f"{', '.join(differing)}; it is not rerun")
    return None


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split())
