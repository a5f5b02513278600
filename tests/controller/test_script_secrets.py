"""A composed script that would hold the API key is refused before the plan, so the
``generated_script.py`` a run keeps is always the executed bytes (docs/architecture.md §7)."""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Sequence
from pathlib import Path

from controller_fakes import (
    API_KEY,
    TARGET,
    FakeHost,
    ScriptedProvider,
    Target,
    build_controller,
    calls,
    design,
    fake_compose,
    fake_spec,
)

from sam_plugin.compilers.protocol import Fragment
from sam_plugin.runtime.run.controller import Phase, RunController


def _keyed_compose(fragments: Sequence[Fragment], run_id: str,
                   target: Target) -> tuple[str, str, str]:
    """A composer that splices a run of the key into a comment (as a compiler bug might)."""
    text, _, _ = fake_compose(fragments, run_id, target)
    text += f"# {API_KEY[2:14]}\n"
    sha = hashlib.sha256(text.encode()).hexdigest()
    return text, sha, hashlib.sha256(f"{sha}\n{run_id}".encode()).hexdigest()


def _confirm(tmp_path: Path, composer) -> tuple[RunController, FakeHost]:
    provider = ScriptedProvider(design(fake_spec("build", summary="Build a plate.")),
                                calls(("build_part", '{"quads": 1}')))
    built = build_controller(tmp_path, provider, composer=composer)
    controller, host = built.controller, built.host
    asyncio.run(controller.submit("a plate", "part", TARGET))
    asyncio.run(controller.confirm("part", TARGET))
    return controller, host


def test_a_script_holding_the_key_is_refused_before_the_plan(tmp_path):
    controller, host = _confirm(tmp_path, _keyed_compose)
    assert controller.phase == Phase.REVIEW and host.executions == []
    result = controller.result
    assert result.status == "rejected" and result.error.layer == "compile"
    assert result.error.message == (
        "the composed script would hold the API key (or part of it), which no script, run "
        "file or saved database may hold; nothing was shown or executed")
    run_dir = controller.runs_dir / result.run_id
    assert not (run_dir / "generated_script.py").exists()
    assert not (run_dir / "plan.json").exists()


def test_the_kept_script_hashes_to_the_plans_sha_after_execution(tmp_path):
    import json

    controller, host = _confirm(tmp_path, fake_compose)
    assert controller.result.status == "verified"
    run_dir = controller.runs_dir / controller.result.run_id
    kept = (run_dir / "generated_script.py").read_bytes()
    plan = json.loads((run_dir / "plan.json").read_text())
    assert hashlib.sha256(kept).hexdigest() == plan["script_sha256"]
    assert kept.decode() == host.executions[0]
