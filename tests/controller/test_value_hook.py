"""The domain's value-check hook (``DomainModule.record_values`` / ``value_checks``,
docs/architecture.md §5): the controller asks the run's module, and names no domain itself."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from controller_fakes import (
    TARGET,
    FakeHost,
    FakePartModule,
    ScriptedProvider,
    build_controller,
    calls,
    design,
    fake_spec,
)

from sam_plugin.compilers.evidence import Check
from sam_plugin.compilers.registry import get_module

SPEC = fake_spec("build", "audit", summary="Build one QUAD plate.")


class CheckingModule(FakePartModule):
    """A domain whose calls set a value that reads back wrong (or cannot be read)."""

    def __init__(self, after: Any) -> None:
        super().__init__()
        self.after = after
        self.recorded: list[Path] = []

    def record_values(self, run_dir: Path, model: Any) -> None:
        self.recorded.append(run_dir)

    def value_checks(self, run_dir: Path, model: Any) -> list[Check]:
        if isinstance(self.after, Exception):
            raise self.after
        return [Check(name="thickness", expected="2.0", actual=str(self.after),
                      ok=self.after == 2.0)]


def run(tmp_path: Path, module: CheckingModule) -> Any:
    provider = ScriptedProvider(design(SPEC), calls(("build_part", {"quads": 1}),
                                                    ("audit_part", {})))
    controller = build_controller(tmp_path, provider, host=FakeHost(), module=module).controller
    asyncio.run(controller.submit("a plate", "part", TARGET))
    assert module.recorded == [controller.runs_dir / controller.run_id]  # before the run
    return asyncio.run(controller.confirm("part", TARGET))


def test_a_value_the_domain_reads_back_right_is_one_more_check(tmp_path):
    result = run(tmp_path, CheckingModule(after=2.0))
    assert result.status == "verified"
    assert [c.name for c in result.checks][-1] == "thickness"


def test_a_value_that_reads_back_wrong_fails_the_verification(tmp_path):
    result = run(tmp_path, CheckingModule(after=3.0))
    assert (result.status, result.error.layer) == ("failed", "verification")
    assert "thickness: expected 2.0, actual 3.0" in result.error.message


def test_a_value_check_that_cannot_read_is_a_failed_check_never_a_pass(tmp_path):
    result = run(tmp_path, CheckingModule(after=RuntimeError("no materials here")))
    assert result.status == "failed"
    failed = [c for c in result.checks if not c.ok]
    assert [(c.name, c.actual) for c in failed] == [
        ("Part values", "could not be read: no materials here")]


def test_only_property_runs_check_values(tmp_path):
    for mode in ("part", "mesh"):
        assert get_module(mode).value_checks(tmp_path, None) == []
        get_module(mode).record_values(tmp_path, None)
        assert list(tmp_path.iterdir()) == []
