"""A rerun repeats a source run from its files, with no model and (under ``--yes``) no person
reading them again, so ``spec.json``, ``normalized_calls.json`` and ``generated_script.py`` are
sealed at the plan under the per-user secret of the undo snapshots (docs/architecture.md §7
``source_seal.json``). On main a source run whose spec.json and normalized_calls.json were both
rewritten reran what the new files said, and a ``generated_script.py`` replaced between plan
and execute stayed in the run directory although other bytes ran."""

from __future__ import annotations

import asyncio
import hashlib
import json

import pytest
from rerun_support import (
    ASSIGN_ALL,
    DEFINE,
    MODEL,
    NoProvider,
    approve_all,
    plates,
    rerun,
    result_of,
    source_run,
    target,
)

from sam_plugin.errors import RerunRefused
from sam_plugin.runtime.config.policy import RunPolicy
from sam_plugin.runtime.config.settings import ProviderSettings
from sam_plugin.runtime.host_gateway import HostGateway
from sam_plugin.runtime.rerun.source import load_source
from sam_plugin.runtime.run.controller import RunController
from sam_plugin.runtime.store.record_seal import seal_record
from tests.support import specs

CALLS = [("define_property", DEFINE), ("assign_property", ASSIGN_ALL)]
# a spec and calls that agree with each other: the source run as someone rewrote it
ONE_ELEMENT_SPEC = specs.document(
    specs.step("define_material", mode="property", name="Steel", E=210000, nu=0.3),
    specs.step("define_section", mode="property", name="Skin", kind="shell", material="Steel",
               thickness=2),
    specs.step("assign_section", specs.labels(1), mode="property", section="Skin"),
    summary="Define Steel and Skin; assign Skin to element 1.")
ONE_ELEMENT_CALLS = [
    {"tool": "define_property", "arguments": DEFINE},
    {"tool": "assign_property", "arguments": {"assignments": [
        {"section": "Skin", "selection": {"by": "labels", "labels": [1]}}]}}]


def _source(sam, tmp_path):
    plates(sam, {"Plate": 2, "Plate-2": 2})
    runs = tmp_path / "runs"
    return runs, source_run(sam, runs, "Plate", CALLS)


def _refusal(runs, run_id) -> str:
    with pytest.raises(RerunRefused) as refused:
        load_source(runs, run_id)
    return str(refused.value)


def test_spec_and_calls_both_rewritten_are_refused_naming_the_file(fresh_sam, tmp_path):
    runs, source = _source(fresh_sam, tmp_path)
    (runs / source / "spec.json").write_text(json.dumps(ONE_ELEMENT_SPEC))
    (runs / source / "normalized_calls.json").write_text(json.dumps(ONE_ELEMENT_CALLS))
    message = _refusal(runs, source)
    assert message.startswith(f"run {source}: spec.json was changed after its plan (SHA-256 ")
    assert message.endswith("); it is not rerun")
    assert "\n" not in message


@pytest.mark.parametrize("name", ["spec.json", "normalized_calls.json", "generated_script.py"])
def test_each_sealed_file_rewritten_alone_is_refused_by_name(fresh_sam, tmp_path, name):
    runs, source = _source(fresh_sam, tmp_path)
    path = runs / source / name
    kept = path.read_bytes()
    path.write_bytes(kept.replace(b"Skin", b"Skim") if name != "generated_script.py"
                     else kept + b"\n# one more line\n")
    sealed = json.loads((runs / source / "source_seal.json").read_text())["files"][name]
    actual = hashlib.sha256(path.read_bytes()).hexdigest()
    assert _refusal(runs, source) == (
        f"run {source}: {name} was changed after its plan (SHA-256 {actual[:12]}, sealed "
        f"{sealed[:12]}); it is not rerun")


def test_a_seal_rewritten_with_the_files_does_not_hold(fresh_sam, tmp_path):
    """Whoever rewrites the files and writes their hashes into the seal file has no secret."""
    runs, source = _source(fresh_sam, tmp_path)
    folder = runs / source
    (folder / "normalized_calls.json").write_text(json.dumps(ONE_ELEMENT_CALLS))
    files = {name: hashlib.sha256((folder / name).read_bytes()).hexdigest()
             for name in ("spec.json", "normalized_calls.json", "generated_script.py")}
    forged = seal_record("source_files", {"run_id": source, **files}, b"k" * 32)
    (folder / "source_seal.json").write_text(json.dumps(
        {"run_id": source, "files": files, "seal": forged}))
    assert _refusal(runs, source) == (
        f"run {source}: source_seal.json does not hold its seal (it was rewritten, or sealed "
        "under another user's secret); it is not rerun")


def test_a_run_without_a_seal_is_refused(fresh_sam, tmp_path):
    runs, source = _source(fresh_sam, tmp_path)
    (runs / source / "source_seal.json").unlink()
    assert _refusal(runs, source) == (
        f"run {source}: it has no source_seal.json (a run planned before source runs were "
        "sealed), so its spec and calls cannot be shown to be the ones it planned; ask for the "
        "change again on the other parts")


def test_a_sealed_file_deleted_is_refused(fresh_sam, tmp_path):
    runs, source = _source(fresh_sam, tmp_path)
    (runs / source / "generated_script.py").unlink()
    assert _refusal(runs, source) == (
        f"run {source}: generated_script.py is missing (it was sealed with the plan); it is "
        "not rerun")


def test_an_untouched_source_and_a_rerun_of_a_rerun_still_run(fresh_sam, tmp_path):
    plates(fresh_sam, {"Plate": 2, "Plate-2": 2, "Plate-3": 2})
    runs = tmp_path / "runs"
    source = source_run(fresh_sam, runs, "Plate", CALLS)
    first = rerun(fresh_sam, runs, source, ["Plate-2"], approve_all()).summary
    assert first.all_verified
    again = rerun(fresh_sam, runs, str(first.targets[0].run_id), ["Plate-3"],
                  approve_all()).summary
    assert again.all_verified


def test_the_run_directory_keeps_the_script_that_ran_when_it_was_replaced(fresh_sam, tmp_path):
    """Replaced between plan and execute: the approved bytes ran, and the directory said
    otherwise (its script's SHA-256 was not the plan's)."""
    plates(fresh_sam, {"Plate": 2})
    runs = tmp_path / "runs"
    controller = RunController(runs_dir=runs, settings=ProviderSettings(),
                               host=HostGateway(fresh_sam), provider_factory=NoProvider(),
                               policy=RunPolicy())
    asyncio.run(controller.plan_calls("steel shell 2 thick on every element", "property",
                                      target("Plate"), spec=specs.answer(
                                          *ONE_ELEMENT_SPEC["steps"][:2],
                                          specs.step("assign_section", specs.ALL,
                                                     mode="property", section="Skin"),
                                          summary="Steel shell Skin on every element."),
                                      calls=CALLS, source="cli"))
    assert controller.run_id is not None
    script = runs / controller.run_id / "generated_script.py"
    planned = script.read_bytes()
    script.write_text("mdb.models['Model-1'].parts.clear()\n")
    result = asyncio.run(controller.execute())
    assert result.status == "verified", result.error
    assert fresh_sam.mdb.models[MODEL].parts["Plate"].elements  # the approved bytes ran
    kept = script.read_bytes()
    assert kept == planned
    assert hashlib.sha256(kept).hexdigest() == result.script_sha256 == json.loads(
        (runs / controller.run_id / "plan.json").read_text())["script_sha256"]
    assert result_of(runs, controller.run_id).script_sha256 == result.script_sha256
    assert load_source(runs, controller.run_id).tools == ["define_property", "assign_property"]
