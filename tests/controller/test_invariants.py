"""Each controller invariant I1–I10 (docs/architecture.md §1) with a test that tries to break it."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from controller_fakes import (
    TARGET,
    Crash,
    FakeHost,
    FakePartModule,
    ScriptedProvider,
    Target,
    build_controller,
    calls,
    design,
    fake_spec,
    policy,
    settings,
)

from sam_plugin.errors import AlreadySubmitted, ControllerStateError, ProviderError
from sam_plugin.runtime.events import read_events
from sam_plugin.runtime.run.controller import DRIFT_MESSAGE, PARTIAL_WARNING, Phase, RunController
from sam_plugin.runtime.store.journal import UNKNOWN_ADVICE, SubmissionJournal
from sam_plugin.runtime.store.run_history import list_runs

SPEC_BUILD = fake_spec("build", "audit", summary="Build a plate.")
SPEC_THREE = fake_spec("translate", "repair", "audit", summary="Move, merge, audit.")


def make(tmp_path: Path, provider: ScriptedProvider, quads: int = 0, **options: Any):
    built = build_controller(tmp_path, provider, quads=quads, **options)
    return built.controller, built.host, built.module


def reviewed(tmp_path: Path, *responses, quads: int = 0, spec: str = SPEC_BUILD):
    provider = ScriptedProvider(design(spec), *responses)
    controller, host, module = make(tmp_path, provider, quads=quads)
    assert asyncio.run(controller.submit("request", "part", TARGET)) == Phase.REVIEW
    return controller, host, module, provider


def folder(controller: RunController) -> Path:
    return controller.runs_dir / controller.run_id


def assert_back_in_review(controller, host, layer: str, message: str) -> None:
    assert controller.phase == Phase.REVIEW
    result = controller.result
    assert result.status == "rejected" and result.phase == "review"
    assert result.error.layer == layer and result.error.message == message
    assert result.submissions == 0 and host.executions == []
    assert not (folder(controller) / "generated_script.py").exists() or layer == "execution"
    stored = json.loads((folder(controller) / "result.json").read_text())
    assert stored["status"] == "rejected"
    events = [r["event"] for r in read_events(folder(controller) / "events.jsonl")]
    assert events[-1] == "returned_to_review"
    assert "execution_submitted" not in events


# -- I1 ---------------------------------------------------------------------------------------


def test_i1_design_request_has_no_tools_and_tool_calls_in_the_answer_are_ignored(tmp_path):
    provider = ScriptedProvider(design(SPEC_BUILD, tool_calls=[("build_part", "{}")]))
    # the whole spec's request, whose prompt this checks (in parts: test_design_parts.py)
    controller, host, module = make(tmp_path, provider, policy=policy(design="whole"))
    assert asyncio.run(controller.submit("plate", "part", TARGET)) == Phase.REVIEW
    assert provider.requests[0].tools is None
    assert provider.requests[0].messages[0]["content"].startswith("DESIGN PROMPT")
    assert module.compiled == [] and host.executions == []
    events = read_events(folder(controller) / "events.jsonl")
    assert [e["event"] for e in events] == ["server_detected", "observation_completed",
                                            "design_received"]
    assert events[2]["ignored_tool_calls"] == 1


# -- I2 ---------------------------------------------------------------------------------------


def test_i2_nothing_is_collected_before_confirm_and_confirm_twice_is_refused(tmp_path):
    controller, host, _, provider = reviewed(
        tmp_path, calls(("build_part", {}), ("audit_part", {}))
    )
    assert len(provider.requests) == 1  # only the design request
    result = asyncio.run(controller.confirm("part", TARGET))
    assert result.status == "verified"
    with pytest.raises(ControllerStateError, match="confirm: no spec is waiting for review"):
        asyncio.run(controller.confirm("part", TARGET))
    assert len(host.executions) == 1 and len(provider.requests) == 2


def test_confirm_without_a_run_is_refused(tmp_path):
    controller, _, _ = make(tmp_path, ScriptedProvider())
    with pytest.raises(ControllerStateError, match=r"\(phase idle\)"):
        asyncio.run(controller.confirm("part", TARGET))


# -- I3 ---------------------------------------------------------------------------------------


def _assert_drift_failure(controller, host, provider_requests: int, provider) -> None:
    result = controller.result
    assert controller.phase == Phase.FAILED and result.status == "failed"
    assert result.error.layer == "observation"
    assert result.error.message.startswith(DRIFT_MESSAGE)
    assert result.submissions == 0 and host.executions == []
    assert len(provider.requests) == provider_requests


def test_i3_target_changed_in_the_gui_at_confirm_fails_without_collecting(tmp_path):
    controller, host, _, provider = reviewed(tmp_path, calls(("build_part", {})))
    other = Target(model_name="Model-1", part_name="Other")
    asyncio.run(controller.confirm("part", other))
    _assert_drift_failure(controller, host, 1, provider)
    assert "the dock shows part Model-1/Other" in controller.result.error.message


def test_i3_mode_changed_at_confirm_fails(tmp_path):
    controller, host, _, provider = reviewed(tmp_path, calls(("build_part", {})))
    asyncio.run(controller.confirm("mesh", TARGET))
    _assert_drift_failure(controller, host, 1, provider)


def test_i3_part_edited_between_review_and_confirm_fails(tmp_path):
    spec = fake_spec("translate", summary="Move it.")
    controller, host, _, provider = reviewed(
        tmp_path, calls(("transform_part", {})), quads=1, spec=spec
    )
    host.mdb.models["Model-1"].parts["Plate"].nodes[0].coordinates = (9.0, 9.0, 9.0)
    asyncio.run(controller.confirm("part", TARGET))
    _assert_drift_failure(controller, host, 1, provider)
    assert controller.result.error.message == (
        f"{DRIFT_MESSAGE} (the part was modified before confirm)"
    )


def test_i3_part_edited_during_collection_fails_before_execution(tmp_path):
    controller, host, _, provider = reviewed(
        tmp_path, calls(("build_part", {}), ("audit_part", {}))
    )

    def edit_meanwhile(request_number: int) -> None:
        if request_number == 2:  # the analyst edits the part while the model answers
            from controller_fakes import Part

            host.mdb.models["Model-1"].parts["Plate"] = Part("Plate")
            host.mdb.models["Model-1"].parts["Plate"].add_quad()

    provider.before_answer = edit_meanwhile
    asyncio.run(controller.confirm("part", TARGET))
    _assert_drift_failure(controller, host, 2, provider)
    assert controller.result.error.message == (
        f"{DRIFT_MESSAGE} (the part was modified before execution)"
    )
    assert (folder(controller) / "generated_script.py").is_file()  # composed, never run
    assert SubmissionJournal(controller.runs_dir / "submissions.jsonl").entries() == []


def test_i3_invalidate_in_review_fails_the_run(tmp_path):
    controller, host, _, provider = reviewed(tmp_path)
    controller.invalidate("part changed from Plate to Other")
    _assert_drift_failure(controller, host, 1, provider)
    assert controller.result.error.message == (
        f"{DRIFT_MESSAGE} (part changed from Plate to Other)"
    )


# -- I4 / I5 / I6 -----------------------------------------------------------------------------


def test_i4_an_unrouted_tool_returns_to_review(tmp_path):
    controller, host, module, provider = reviewed(tmp_path, calls(("transform_part", {})))
    asyncio.run(controller.confirm("part", TARGET))
    assert_back_in_review(
        controller,
        host,
        "tool_call",
        "round 1: tool 'transform_part' was not offered in this round; "
        "offered: build_part, audit_part",
    )
    assert provider.offered[1] == ["build_part", "audit_part"]
    assert module.compiled == []


def test_i4_later_rounds_offer_only_the_remaining_tools(tmp_path):
    controller, host, _, provider = reviewed(
        tmp_path,
        calls(("transform_part", {"dx": 2})),
        calls(("repair_part", {})),
        calls(("audit_part", {})),
        quads=1,
        spec=SPEC_THREE,
    )
    result = asyncio.run(controller.confirm("part", TARGET))
    assert result.status == "verified"
    assert provider.offered == [
        None,
        ["transform_part", "repair_part", "audit_part"],
        ["repair_part", "audit_part"],
        ["audit_part"],
    ]
    round_three = provider.requests[3].messages[1]["content"]
    assert "Calls already received (collected, not executed):" in round_three
    assert '- transform_part({"dx":2})' in round_three and "- repair_part({})" in round_three
    names = sorted(p.name for p in folder(controller).glob("provider_tool_response*.sse"))
    assert names == [
        "provider_tool_response.2.sse",
        "provider_tool_response.3.sse",
        "provider_tool_response.sse",
    ]


def test_i5_out_of_order_calls_return_to_review(tmp_path):
    controller, host, module, _ = reviewed(tmp_path, calls(("audit_part", {}), ("build_part", {})))
    asyncio.run(controller.confirm("part", TARGET))
    assert_back_in_review(
        controller,
        host,
        "tool_call",
        "round 1: calls out of order: received audit_part, build_part; "
        "the canonical order is build_part, audit_part",
    )


def test_i5_skipping_a_tool_is_out_of_order(tmp_path):
    controller, host, _, _ = reviewed(
        tmp_path, calls(("repair_part", {})), quads=1, spec=SPEC_THREE
    )
    asyncio.run(controller.confirm("part", TARGET))
    assert controller.result.error.message.startswith("round 1: calls out of order")
    assert host.executions == []


def test_i6_duplicate_call_returns_to_review(tmp_path):
    controller, host, _, _ = reviewed(tmp_path, calls(("build_part", {}), ("build_part", {})))
    asyncio.run(controller.confirm("part", TARGET))
    assert_back_in_review(
        controller,
        host,
        "tool_call",
        "round 1: tool 'build_part' was called more than once; each tool is called exactly once",
    )


def test_i6_an_empty_round_returns_to_review(tmp_path):
    controller, host, _, _ = reviewed(tmp_path, calls(("build_part", {})), calls())
    asyncio.run(controller.confirm("part", TARGET))
    assert_back_in_review(
        controller,
        host,
        "tool_call",
        "round 2: the response carried no tool call; expected one of: audit_part",
    )
    raw = json.loads((folder(controller) / "result.json").read_text())
    assert raw["submissions"] == 0


def test_i6_a_truncated_collection_stream_returns_to_review(tmp_path):
    cut = ProviderError("protocol", "stream ended before [DONE]", raw_sse=b'data: {"x"')
    controller, host, _, _ = reviewed(tmp_path, calls(("build_part", {})), cut)
    asyncio.run(controller.confirm("part", TARGET))
    assert_back_in_review(
        controller, host, "provider", "round 2: protocol: stream ended before [DONE]"
    )
    assert (folder(controller) / "provider_tool_response.2.sse").read_bytes() == b'data: {"x"'


def test_i6_nothing_touches_sam_until_the_last_call_is_collected(tmp_path):
    executions_seen: list[int] = []
    controller, host, _, provider = reviewed(
        tmp_path,
        calls(("transform_part", {})),
        calls(("repair_part", {})),
        calls(("audit_part", {})),
        quads=1,
        spec=SPEC_THREE,
    )
    provider.before_answer = lambda _n: executions_seen.append(len(host.executions))
    result = asyncio.run(controller.confirm("part", TARGET))
    assert executions_seen == [0, 0, 0] and len(host.executions) == 1
    assert result.status == "verified"


def test_returned_run_can_be_confirmed_again(tmp_path):
    controller, host, _, provider = reviewed(
        tmp_path, calls(("audit_part", {})), calls(("build_part", {}), ("audit_part", {}))
    )
    assert asyncio.run(controller.confirm("part", TARGET)).status == "rejected"
    assert asyncio.run(controller.confirm("part", TARGET)).status == "verified"
    assert len(host.executions) == 1
    assert (folder(controller) / "provider_tool_response.2.sse").is_file()


# -- I7 ---------------------------------------------------------------------------------------


def test_i7_a_compile_error_in_any_call_stops_before_composing(tmp_path):
    controller, host, module, _ = reviewed(
        tmp_path, calls(("build_part", {}), ("audit_part", {"bad": 1}))
    )
    asyncio.run(controller.confirm("part", TARGET))
    assert_back_in_review(
        controller,
        host,
        "compile",
        "audit_part: 1 problem(s)\n  - bad: remove it; legal: quads",
    )
    assert module.compiled == ["build_part"]
    assert not (folder(controller) / "generated_script.py").exists()
    assert (folder(controller) / "tool_calls.json").is_file()


# -- I8 ---------------------------------------------------------------------------------------


def test_i8_submitted_is_durable_before_the_script_reaches_sam(tmp_path):
    controller, host, _, _ = reviewed(tmp_path, calls(("build_part", {}), ("audit_part", {})))
    asyncio.run(controller.confirm("part", TARGET))
    [journal_then] = host.journal_at_execution
    entry = json.loads(journal_then.strip())
    assert entry["run_id"] == controller.run_id and entry["state"] == "submitted"
    assert entry["script_sha256"] == controller.result.script_sha256
    states = [
        e.state for e in SubmissionJournal(controller.runs_dir / "submissions.jsonl").entries()
    ]
    assert states == ["submitted", "executed"]


def test_i8_a_run_id_already_journalled_never_submits_again(tmp_path):
    controller, host, _, _ = reviewed(tmp_path, calls(("build_part", {}), ("audit_part", {})))
    # a previous process journalled this run id (e.g. a crash and a restored session)
    SubmissionJournal(controller.runs_dir / "submissions.jsonl").record_submitted(
        controller.run_id, "0" * 64, "k"
    )
    asyncio.run(controller.confirm("part", TARGET))
    assert host.executions == []
    assert controller.result.error.layer == "execution"
    assert controller.result.error.message == (
        f"run {controller.run_id} was already submitted once and is never resubmitted: "
        "its outcome is unknown; re-observe the workspace and submit a new request"
    )


def test_i8_journal_refuses_a_second_submission_across_restarts(tmp_path):
    path = tmp_path / "submissions.jsonl"
    SubmissionJournal(path).record_submitted("20261129T193000Z-ab12cd", "a" * 64, "k")
    SubmissionJournal(path).record_executed("20261129T193000Z-ab12cd", "PASS")
    with pytest.raises(AlreadySubmitted, match="it already executed"):
        SubmissionJournal(path).record_submitted("20261129T193000Z-ab12cd", "a" * 64, "k")


def test_i8_torn_last_journal_line_is_ignored(tmp_path):
    path = tmp_path / "submissions.jsonl"
    SubmissionJournal(path).record_submitted("20261129T193000Z-ab12cd", "a" * 64, "k")
    with path.open("a") as handle:
        handle.write('{"run_id": "20261129T193001Z-ab12')
    assert SubmissionJournal(path).unknown_runs() == ["20261129T193000Z-ab12cd"]


def test_i8_crash_between_submitted_and_executed_marks_the_run_unknown(tmp_path):
    controller, host, _, _ = reviewed(tmp_path, calls(("build_part", {}), ("audit_part", {})))
    host.crash_next = True
    with pytest.raises(Crash):
        asyncio.run(controller.confirm("part", TARGET))
    run_id = controller.run_id
    controller._run.dir.unlock()  # the process died: the OS let go of its run lock
    # written before the journal entry: a crash never leaves "nothing executed" behind
    provisional = json.loads((folder(controller) / "result.json").read_text())
    assert provisional["status"] == "unknown" and provisional["submissions"] == 1

    restarted = RunController(
        runs_dir=controller.runs_dir,
        settings=settings(), policy=policy(),
        host=FakeHost(),
        provider_factory=ScriptedProvider().factory,
        module_factory=lambda mode: FakePartModule(),
    )
    assert restarted.unknown_runs == [run_id] and restarted.recovered_runs == [run_id]
    result = json.loads((controller.runs_dir / run_id / "result.json").read_text())
    assert result["status"] == "unknown" and result["submissions"] == 1
    assert result["error"] == {"layer": "execution", "message": UNKNOWN_ADVICE, "part": None}
    assert "never be resubmitted" in UNKNOWN_ADVICE and "Re-observe" in UNKNOWN_ADVICE
    assert [r.status for r in list_runs(controller.runs_dir)] == ["unknown"]
    with pytest.raises(AlreadySubmitted):
        restarted.journal.record_submitted(run_id, "b" * 64, "k")


# -- I9 ---------------------------------------------------------------------------------------


def test_i9_a_pass_that_did_not_change_the_model_fails_verification(tmp_path):
    controller, host, _, _ = reviewed(tmp_path, calls(("build_part", {}), ("audit_part", {})))
    host.lie = True  # PASS, but nothing happened
    result = asyncio.run(controller.confirm("part", TARGET))
    assert controller.phase == Phase.FAILED and result.status == "failed"
    assert result.error.layer == "verification"
    assert result.error.message.startswith("the model WAS changed, but verification failed: ")
    assert "part exists: expected present, actual missing" in result.error.message
    failed = {c.name: c for c in result.checks if not c.ok}
    assert failed["node count"].expected == "4" and failed["node count"].actual == "0"
    assert failed["file part_audit.json"].actual == "missing"
    events = [r["event"] for r in read_events(folder(controller) / "events.jsonl")]
    # the readback happened, but nothing is logged as "verified" when it did not hold
    assert events[-2:] == ["execution_completed", "run_failed"]
    assert "readback_verified" not in events


# -- I10 --------------------------------------------------------------------------------------


def test_i10_an_execution_failure_is_reported_and_never_retried(tmp_path):
    controller, host, _, _ = reviewed(tmp_path, calls(("build_part", {}), ("audit_part", {})))
    host.fail_next = "Traceback (most recent call last):\nTypeError: found string, expecting enum"
    result = asyncio.run(controller.confirm("part", TARGET))
    assert len(host.executions) == 1
    assert result.status == "failed" and result.error.layer == "execution"
    assert result.error.message == (
        f"the script failed in SAM (FAIL). {PARTIAL_WARNING} Restore unavailable: this host "
        "takes no snapshot (no restore or undo).\n"
        "Traceback (most recent call last):\nTypeError: found string, expecting enum"
    )
    # a host without snapshots says so in result.json, never a silent no-op
    assert result.restored is False
    assert result.restore_unavailable == "this host takes no snapshot (no restore or undo)"
    assert result.submissions == 1 and result.after is not None
    with pytest.raises(ControllerStateError):
        asyncio.run(controller.confirm("part", TARGET))
    assert len(host.executions) == 1
    states = [
        (e.state, e.outcome)
        for e in SubmissionJournal(controller.runs_dir / "submissions.jsonl").entries()
    ]
    assert states == [("submitted", ""), ("executed", "FAIL")]


def test_i8_submission_after_a_torn_line_starts_a_new_line_and_is_journalled(tmp_path):
    path = tmp_path / "submissions.jsonl"
    SubmissionJournal(path).record_submitted("20261129T193000Z-ab12cd", "a" * 64, "k")
    with path.open("a") as handle:
        handle.write('{"run_id": "20261129T193001Z-ab12')
    SubmissionJournal(path).record_submitted("20261129T193002Z-ef34gh", "b" * 64, "k2")
    journal = SubmissionJournal(path)
    assert journal.state_of("20261129T193002Z-ef34gh") == "submitted"
    assert journal.unknown_runs() == ["20261129T193000Z-ab12cd", "20261129T193002Z-ef34gh"]
    assert path.read_text().splitlines()[1] == '{"run_id": "20261129T193001Z-ab12'
    with pytest.raises(AlreadySubmitted):
        journal.record_submitted("20261129T193002Z-ef34gh", "b" * 64, "k2")


def test_i8_a_record_glued_onto_a_torn_fragment_is_still_read(tmp_path):
    path = tmp_path / "submissions.jsonl"
    SubmissionJournal(tmp_path / "whole.jsonl").record_submitted(
        "20261129T193002Z-ef34gh", "b" * 64, "k2"
    )
    whole = (tmp_path / "whole.jsonl").read_text()
    path.write_text('{"run_id":"20261129T193001Z-ab12","sta' + whole)
    assert SubmissionJournal(path).state_of("20261129T193002Z-ef34gh") == "submitted"


def test_i8_a_torn_multibyte_character_does_not_break_reading(tmp_path):
    path = tmp_path / "submissions.jsonl"
    SubmissionJournal(path).record_submitted("20261129T193000Z-ab12cd", "a" * 64, "k")
    with path.open("ab") as handle:
        handle.write('{"run_id":"é'.encode()[:-1])
    SubmissionJournal(path).record_executed("20261129T193000Z-ab12cd", "PASS")
    assert SubmissionJournal(path).state_of("20261129T193000Z-ab12cd") == "executed"


def test_i8_a_run_returned_to_review_then_crashing_in_execution_is_recovered_unknown(tmp_path):
    """A "rejected" result from an earlier round must not survive a later submission."""
    controller, host, _, provider = reviewed(tmp_path, calls(("audit_part", {})))
    asyncio.run(controller.confirm("part", TARGET))  # out of order: back to Review
    assert json.loads((folder(controller) / "result.json").read_text())["status"] == "rejected"
    provider.queue.append(calls(("build_part", {}), ("audit_part", {})))
    host.crash_next = True
    with pytest.raises(Crash):
        asyncio.run(controller.confirm("part", TARGET))
    controller._run.dir.unlock()  # the process died: the OS let go of its run lock
    (folder(controller) / "result.json").write_text(
        json.dumps({**json.loads((folder(controller) / "result.json").read_text()),
                    "status": "rejected", "submissions": 0})
    )  # as if the provisional result had been lost: the journal still decides
    restarted = RunController(
        runs_dir=controller.runs_dir, settings=settings(), policy=policy(), host=FakeHost(),
        provider_factory=ScriptedProvider().factory,
        module_factory=lambda mode: FakePartModule(),
    )
    assert restarted.recovered_runs == [controller.run_id]
    result = json.loads((folder(controller) / "result.json").read_text())
    assert (result["status"], result["submissions"]) == ("unknown", 1)
