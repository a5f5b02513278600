"""A plan an MCP server keeps in its run directory, sealed, so that it outlives the server that
made it (docs/mcp.md "Plans outlive the server").

``kept_plan.json`` holds what ``plan_change`` was given (the request, the spec and the calls,
as checked), the part's fingerprint then, and what came of them: the normalized calls, the
plan in words and the SHA-256 of the script. A new server on the same workspace makes the plan
again from those inputs under the same run id, and executes it only when the part is unchanged
and the plan comes out the same (the same SHA-256, the same words): what a person approved is
what runs. ``sam-agent approve`` checks the run directory's own files against it
(``plan.json``, ``normalized_calls.json``, ``generated_script.py``): when one disagrees, the
run directory was changed since the server wrote it, and nothing is decided.

Sealed as the approval files are (``record_seal``, kind ``mcp_kept_plan``). No SDK here.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from sam_plugin.compilers.plan import Plan
from sam_plugin.errors import ForgedRecord
from sam_plugin.runtime.store import private
from sam_plugin.runtime.store.record_seal import record_holds, seal_record

KEPT_NAME = "kept_plan.json"
SEAL_KIND = "mcp_kept_plan"
HASH_NAME = "plan_sha256"  # the plan's hash, in every MCP result and in the words shown
CALL_SHOWN = 2000  # characters of one call's arguments shown to the person


class KeptPlan(BaseModel):
    """What a plan was made from and what it came to (all strings: JSON as text)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    run_id: str
    mode: str
    model: str
    part: str
    request: str
    spec: str  # the spec IR as plan_change read it (JSON)
    calls: str  # the calls as given: [[name, arguments], ...], or null: computed (JSON)
    fingerprint: str  # of the part when the plan was made
    normalized: str  # the compiled calls, as normalized_calls.json holds them (JSON)
    plan_text: str  # the plan in words (``Plan.text(HASH_NAME)``)
    plan_sha256: str  # the SHA-256 of the script that runs
    client: str
    seal: str = ""

    def inputs(self) -> tuple[Any, list[tuple[str, Any]] | None]:
        """The spec and the calls (None: computed from its steps), to make the plan again."""
        given = json.loads(self.calls)
        calls = None if given is None else [(str(name), arguments) for name, arguments in given]
        return json.loads(self.spec), calls


def keep(run_dir: Path, kept: KeptPlan) -> KeptPlan:
    """Seal ``kept`` and write it to the run directory (0600)."""
    sealed = kept.model_copy(update={"seal": seal_record(SEAL_KIND, _fields(kept))})
    private.write_file(run_dir / KEPT_NAME, (sealed.model_dump_json() + "\n").encode("utf-8"))
    return sealed


def read_kept(run_dir: Path) -> KeptPlan | None:
    """The plan kept in ``run_dir`` (None: none was kept); ``ForgedRecord`` when the file is
    not one this user's sam-agent sealed for this run."""
    path = run_dir / KEPT_NAME
    if not path.exists():
        return None
    try:
        kept = KeptPlan.model_validate_json(path.read_bytes())
    except (OSError, ValueError, ValidationError):
        kept = None
    if kept is None or not record_holds(SEAL_KIND, _fields(kept), kept.seal) or \
            kept.run_id != run_dir.name:
        raise ForgedRecord(f"{KEPT_NAME} of run {run_dir.name} is refused as forged: it is not "
                           "a plan this user's sam-agent sealed for this run; nothing runs")
    return kept


def disagreement(run_dir: Path, kept: KeptPlan) -> str | None:
    """Where the run directory's files disagree with the plan kept (None: they agree)."""
    script = run_dir / "generated_script.py"
    try:
        actual = hashlib.sha256(script.read_bytes()).hexdigest()
    except OSError as error:
        return f"generated_script.py cannot be read ({error.strerror or error})"
    if actual != kept.plan_sha256:
        return (f"generated_script.py is not the script of the plan (sha256 {actual[:12]}…, the "
                f"plan's {kept.plan_sha256[:12]}…)")
    try:
        shown = Plan.model_validate_json((run_dir / "plan.json").read_bytes())
        normalized = json.loads((run_dir / "normalized_calls.json").read_bytes())
    except (OSError, ValueError, ValidationError) as error:
        return f"plan.json or normalized_calls.json cannot be read ({error})"
    if shown.script_sha256 != kept.plan_sha256 or shown.text(HASH_NAME) != kept.plan_text:
        return "plan.json says something else than the plan the server made and sealed"
    if normalized != json.loads(kept.normalized):
        return "normalized_calls.json holds other calls than the plan the server made and sealed"
    return None


def approval_text(kept: KeptPlan) -> str:
    """What a person reads before approving: the plan in words, then each call that runs with
    its normalized arguments (those left empty are not shown)."""
    calls = json.loads(kept.normalized)
    lines = [kept.plan_text, "", f"The calls that run ({len(calls)}, normalized):"]
    for number, call in enumerate(calls, start=1):
        given = call.get("arguments")
        if isinstance(given, dict):
            given = {k: v for k, v in given.items() if v not in (None, [], {})}
        arguments = json.dumps(given, ensure_ascii=False)
        if len(arguments) > CALL_SHOWN:
            arguments = (f"{arguments[:CALL_SHOWN]}… ({len(arguments) - CALL_SHOWN} more "
                         "characters, in normalized_calls.json, checked against this plan)")
        lines.append(f"{number}. {call.get('tool')} {arguments}")
    return "\n".join(lines)


def _fields(kept: KeptPlan) -> dict[str, Any]:
    return kept.model_dump(mode="json", exclude={"seal"})
