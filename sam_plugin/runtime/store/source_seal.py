"""The seal of the files a rerun starts from (docs/architecture.md §7 ``source_seal.json``).

A rerun repeats a run from its ``spec.json`` and ``normalized_calls.json`` with no model to ask
and, under ``--yes``, no person reading them again; the run also keeps the script it planned,
``generated_script.py``. So when the plan is shown, the run seals the SHA-256 of each of those
files, as this process wrote them, with the run id: an HMAC under the per-user secret of the
undo snapshots (``record_seal``). Whoever can rewrite the files but cannot read the secret
cannot make them hold again, and a rerun refuses a run whose files do not.
"""

from __future__ import annotations

import json

from sam_plugin.runtime.store.record_seal import record_holds, seal_record
from sam_plugin.runtime.store.run_store import RunDir
from sam_plugin.runtime.store.snapshot_seal import file_sha256

SEAL_FILE = "source_seal.json"
SEALED_FILES = ("spec.json", "normalized_calls.json", "generated_script.py")
_KIND = "source_files"


def seal_sources(run: RunDir) -> None:
    """Seal the run's source files as ``run`` last wrote them (called with the plan)."""
    files = {name: sha for name in SEALED_FILES if (sha := run.written_sha256(name))}
    run.write_json(SEAL_FILE, {"run_id": run.run_id, "files": files,
                               "seal": seal_record(_KIND, {"run_id": run.run_id, **files})})


def unsealed_source(run: RunDir) -> str | None:
    """Why the run cannot be rerun from its files (one line naming the file), or None when
    every one holds its seal."""
    try:
        kept = json.loads(run.file(SEAL_FILE).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return (f"it has no {SEAL_FILE} (a run planned before source runs were sealed), so "
                "its spec and calls cannot be shown to be the ones it planned; ask for the "
                "change again on the other parts")
    except (OSError, ValueError) as error:
        kept = error
    problem = _problem(run, kept)
    return None if problem is None else f"{problem}; it is not rerun"


def _problem(run: RunDir, kept: object) -> str | None:
    if isinstance(kept, Exception):
        return f"{SEAL_FILE} cannot be read ({kept})"
    files = kept.get("files") if isinstance(kept, dict) else None
    if not isinstance(kept, dict) or not isinstance(files, dict) or not record_holds(
            _KIND, {"run_id": run.run_id, **files}, kept.get("seal")):
        return (f"{SEAL_FILE} does not hold its seal (it was rewritten, or sealed under "
                "another user's secret)")
    for name in SEALED_FILES:
        path = run.file(name)
        sealed = files.get(name)
        if sealed is None:
            if path.exists():
                return f"{name} was not among the files its plan sealed"
            continue
        try:
            actual = file_sha256(path)
        except FileNotFoundError:
            return f"{name} is missing (it was sealed with the plan)"
        except OSError as error:
            return f"{name} cannot be read ({error})"
        if actual != sealed:
            return (f"{name} was changed after its plan (SHA-256 {actual[:12]}, sealed "
                    f"{str(sealed)[:12]})")
    return None
