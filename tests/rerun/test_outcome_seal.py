"""A rerun is bound to its source run's outcome (docs/architecture.md §7 ``outcome_seal.json``):
the verified outcome is sealed under the per-user secret right after verification, and a run
whose sealed outcome is not verified is never rerun, whatever its ``result.json`` says. On main
a declined plan whose ``result.json`` was set to ``verified`` was rerun (its spec, calls and
script hold their seal: they were sealed with the plan)."""

from __future__ import annotations

import asyncio
import json

import pytest
from rerun_support import (
    ASSIGN_ALL,
    DEFINE,
    PROPERTY_REQUEST,
    PROPERTY_SPEC,
    NoProvider,
    plates,
    source_run,
    target,
)

from sam_plugin.errors import RerunRefused
from sam_plugin.runtime.config.policy import RunPolicy
from sam_plugin.runtime.config.settings import ProviderSettings
from sam_plugin.runtime.host_gateway import HostGateway
from sam_plugin.runtime.rerun.source import load_source
from sam_plugin.runtime.run.controller import RunController
from sam_plugin.runtime.store.outcome_seal import SEAL_FILE

CALLS_ALL = [("define_property", DEFINE), ("assign_property", ASSIGN_ALL)]


def _declined(sam, runs) -> str:
    controller = RunController(runs_dir=runs, settings=ProviderSettings(),
                               host=HostGateway(sam), provider_factory=NoProvider(),
                               policy=RunPolicy())
    asyncio.run(controller.plan_calls(PROPERTY_REQUEST, "property", target("Plate"),
                                      spec=PROPERTY_SPEC, calls=CALLS_ALL, source="cli"))
    assert controller.decline_plan().status == "cancelled"
    assert controller.run_id is not None
    return controller.run_id


def _refusal(runs, run_id) -> str:
    with pytest.raises(RerunRefused) as refused:
        load_source(runs, run_id)
    return str(refused.value)


def _set(runs, run_id, **fields) -> None:
    path = runs / run_id / "result.json"
    path.write_text(json.dumps({**json.loads(path.read_text()), **fields}))


def test_a_declined_run_set_to_verified_is_not_rerun(fresh_sam, tmp_path):
    plates(fresh_sam, {"Plate": 2, "Plate-2": 2})
    runs = tmp_path / "runs"
    declined = _declined(fresh_sam, runs)
    _set(runs, declined, status="verified", submissions=1)
    assert _refusal(runs, declined) == (
        f"run {declined}: its result.json says verified, but no verified outcome was sealed "
        f"for it ({SEAL_FILE} is missing); it is not rerun")


def test_a_verified_run_is_sealed_and_reruns(fresh_sam, tmp_path):
    plates(fresh_sam, {"Plate": 2, "Plate-2": 2})
    runs = tmp_path / "runs"
    source = source_run(fresh_sam, runs, "Plate", CALLS_ALL)
    kept = json.loads((runs / source / SEAL_FILE).read_text())
    assert kept["outcome"]["status"] == "verified"
    assert kept["outcome"]["decision"] == "approved"
    assert load_source(runs, source).run_id == source


def test_a_sealed_outcome_copied_from_another_run_does_not_hold(fresh_sam, tmp_path):
    plates(fresh_sam, {"Plate": 2, "Plate-2": 2})
    runs = tmp_path / "runs"
    verified = source_run(fresh_sam, runs, "Plate", CALLS_ALL)
    declined = _declined(fresh_sam, runs)
    (runs / declined / SEAL_FILE).write_bytes((runs / verified / SEAL_FILE).read_bytes())
    _set(runs, declined, status="verified", submissions=1)
    assert _refusal(runs, declined) == (
        f"run {declined}: {SEAL_FILE} does not hold its seal (it was rewritten, copied from "
        "another run, or sealed under another user's secret); it is not rerun")


@pytest.mark.parametrize("field,value", [
    ("module", "part"),
    ("target", {"model_name": "Model-1", "part_name": "Plate-2"}),
])
def test_the_fields_a_rerun_reads_from_result_json_must_match_the_sealed_outcome(
        fresh_sam, tmp_path, field, value):
    plates(fresh_sam, {"Plate": 2, "Plate-2": 2})
    runs = tmp_path / "runs"
    source = source_run(fresh_sam, runs, "Plate", CALLS_ALL)
    _set(runs, source, **{field: value})
    assert _refusal(runs, source) == (
        f"run {source}: its result.json differs from its sealed verified outcome in "
        f"{field}; it is not rerun")


def test_an_undone_run_still_reruns(fresh_sam, tmp_path):
    plates(fresh_sam, {"Plate": 2, "Plate-2": 2})
    runs = tmp_path / "runs"
    source = source_run(fresh_sam, runs, "Plate", CALLS_ALL)
    controller = RunController(runs_dir=runs, settings=ProviderSettings(),
                               host=HostGateway(fresh_sam), provider_factory=NoProvider(),
                               policy=RunPolicy())
    assert controller.undo(source).status == "undone"
    assert load_source(runs, source).run_id == source


def test_a_seal_that_cannot_be_made_leaves_the_run_verified_and_not_rerunnable(
        fresh_sam, tmp_path, monkeypatch, caplog):
    from sam_plugin.runtime.run import endings

    def no_secret(*_args: object) -> None:
        raise OSError("the keyring is locked")

    monkeypatch.setattr(endings, "seal_outcome", no_secret)
    plates(fresh_sam, {"Plate": 2, "Plate-2": 2})
    runs = tmp_path / "runs"
    source = source_run(fresh_sam, runs, "Plate", CALLS_ALL)  # asserts it verified
    assert f"run {source}: its verified outcome could not be sealed (the keyring is " \
        "locked); it cannot be rerun" in caplog.text
    assert _refusal(runs, source).endswith(f"({SEAL_FILE} is missing); it is not rerun")
