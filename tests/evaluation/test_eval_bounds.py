"""What keeps a recording honest and finite: ``--task-timeout`` ends one runaway task (layer
``timeout``, recorded, replayed as such, kept by ``--only-stale``) and the suite goes on; the
machine's load at the start and at each task's end goes into meta.json and the report."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from sam_plugin.cli import main as cli
from sam_plugin.evaluation.cassette import CUT_BY_TIMEOUT, Cassette, load_meta
from sam_plugin.evaluation.machine_load import LoadLog, MachineLoad, sample
from tests.evaluation.test_eval_runner import (
    BUILD_SPEC,
    PATCH,
    REFUSED_SPEC,
    run_eval,
    write_suite,
)

BOUND = 4.0  # seconds: the hanging task is cut at this; the refusal runs well within it


def _live(fake, suite: Path, cassettes: Path, out: Path, *extra: str) -> list[str]:
    return [str(suite), "--base-url", fake.base_url, "--api-model", "fake-model",
            "--record", str(cassettes), "--out", str(out), "--only", "a_build,c_refuse_load",
            *extra]


@pytest.fixture
def suite(tmp_path: Path) -> Path:
    return write_suite(tmp_path)


def _refusal(fake) -> None:
    fake.enqueue_reply(REFUSED_SPEC)
    fake.enqueue_reply(REFUSED_SPEC)  # words again in the design repair round


def test_a_task_over_its_timeout_fails_at_timeout_and_the_suite_goes_on(
        tmp_path, suite, fake_provider, capsys):
    fake_provider.enqueue_hang(120.0)  # a_build's design answer never comes
    _refusal(fake_provider)
    cassettes = tmp_path / "cassettes"
    code, report, err = run_eval(_live(fake_provider, suite, cassettes, tmp_path / "live",
                                       "--task-timeout", f"{BOUND:g}"), capsys)
    tasks = {t["name"]: t for t in report["tasks"]}
    cut = tasks["a_build"]
    assert (cut["outcome"], cut["status"], cut["layer"]) == ("failed", "timeout", "timeout")
    assert cut["message"] == "ran over the task timeout of 4 s"
    assert BOUND <= cut["seconds"] < BOUND + 10
    assert fake_provider.client_disconnected.wait(5)  # the server may stop generating
    assert tasks["c_refuse_load"]["accepted"]  # the next task ran
    assert report["totals"]["failures_per_layer"] == {"timeout": 1}
    assert report["task_timeout"] == BOUND
    assert "[1/2] a_build: failed at timeout (timeout; 1 rounds" in err
    assert "Task timeout: 4 s per run of a task." in (tmp_path / "live" / "report.md").read_text()
    recorded = Cassette.load(cassettes, "a_build", "pipeline")
    assert recorded is not None and recorded.timeout == BOUND
    (in_flight,) = recorded.exchanges  # the request asked when the bound fell
    assert in_flight.error == CUT_BY_TIMEOUT and in_flight.fingerprint
    assert code == 0  # no --min-success

    fake_provider.close()
    code, replay, _ = run_eval([str(suite), "--replay", str(cassettes), "--out",
                                str(tmp_path / "replay"), "--only", "a_build,c_refuse_load",
                                "--fail-on-mismatch"], capsys)
    again = {t["name"]: t for t in replay["tasks"]}["a_build"]
    assert (again["status"], again["layer"], again["seconds"]) == (
        "timeout", "timeout", cut["seconds"])
    assert replay["totals"]["mismatches"] == 0 and code == 0  # a failure, not a mismatch


def test_only_stale_keeps_a_timed_out_cassette_and_a_new_prompt_makes_it_stale(
        tmp_path, suite, fake_provider, capsys):
    fake_provider.enqueue_hang(120.0)
    _refusal(fake_provider)
    cassettes = tmp_path / "cassettes"
    run_eval(_live(fake_provider, suite, cassettes, tmp_path / "live", "--task-timeout", "4"),
             capsys)
    asked = len(fake_provider.requests)
    _, report, _ = run_eval(_live(fake_provider, suite, cassettes, tmp_path / "again",
                                  "--only-stale", "--task-timeout", "4"), capsys)
    assert len(fake_provider.requests) == asked  # nothing asked again: both kept
    kept = {t["name"]: t for t in report["tasks"]}["a_build"]
    assert kept["layer"] == "timeout" and kept["message"].endswith("(cassette kept)")

    recorded = Cassette.load(cassettes, "a_build", "pipeline")
    assert recorded is not None
    recorded.exchanges[0].request["messages"][0]["content"] += " (an older design prompt)"
    recorded.exchanges[0].fingerprint = None
    recorded.save(cassettes)
    fake_provider.enqueue_reply(BUILD_SPEC)
    fake_provider.enqueue_reply(tool_calls=[("build_part", json.dumps(PATCH))])
    _, report, _ = run_eval(_live(fake_provider, suite, cassettes, tmp_path / "third",
                                  "--only-stale", "--task-timeout", "60"), capsys)
    assert {t["name"]: t for t in report["tasks"]}["a_build"]["accepted"]  # recorded anew
    fresh = Cassette.load(cassettes, "a_build", "pipeline")
    assert fresh is not None and fresh.timeout is None


@pytest.mark.parametrize(("argv", "words"), [
    (["--task-timeout", "0", "--base-url", "http://x/v1"],
     "--task-timeout: 0 is not a positive number of seconds"),
    (["--task-timeout", "60", "--replay", "CASSETTES"],
     "--task-timeout: a replay is not bounded; it reports the timeouts its cassettes recorded"),
])
def test_a_bad_task_timeout_is_a_usage_error(tmp_path, suite, capsys, argv, words):
    argv = [a.replace("CASSETTES", str(tmp_path)) for a in argv]
    assert cli.main(["eval", str(suite), *argv]) == 2
    assert words in capsys.readouterr().err


class _Loads:
    """os.getloadavg answering these values in turn (the last one again when they run out)."""

    def __init__(self, *values: float):
        self.values = list(values)

    def __call__(self) -> tuple[float, float, float]:
        one = self.values.pop(0) if len(self.values) > 1 else self.values[0]
        return one, one / 2, one / 4


def test_the_load_goes_into_meta_json_and_the_report_and_a_resume_keeps_the_earlier(
        tmp_path, suite, fake_provider, capsys, monkeypatch):
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(os, "getloadavg", _Loads(0.25, 2.1, 3.75))
    fake_provider.enqueue_reply(BUILD_SPEC)
    fake_provider.enqueue_reply(tool_calls=[("build_part", json.dumps(PATCH))])
    _refusal(fake_provider)
    cassettes = tmp_path / "cassettes"
    _, report, err = run_eval(_live(fake_provider, suite, cassettes, tmp_path / "live"), capsys)
    load = load_meta(cassettes).load
    assert load is not None and (load.cores, load.start, load.max) == (2, 0.25, 3.75)
    assert [(s.task, s.load) for s in load.samples] == [
        (None, (0.25, 0.12, 0.06)), ("a_build", (2.1, 1.05, 0.53)),
        ("c_refuse_load", (3.75, 1.88, 0.94))]
    assert report["load"] == load.model_dump(mode="json")
    assert "sam-agent eval: load 0.25 0.12 0.06 (1, 5, 15 min) on 2 cores before the first " \
        "task" in err
    busy = [line for line in err.splitlines() if "more runs on this machine" in line]
    assert busy == ["sam-agent eval: load 3.75 1.88 0.94 (1, 5, 15 min) on 2 cores after "
                    "c_refuse_load: more runs on this machine than the server (eval/README.md, "
                    "recording protocol)"]  # 2.1 on 2 cores is the server's own two threads
    md = (tmp_path / "live" / "report.md").read_text()
    assert "Load (1-minute average, 2 cores): 0.25 at the start, at most 3.75 (2 task ends " \
        "sampled)." in md

    monkeypatch.setattr(os, "getloadavg", _Loads(0.5))
    _, again, _ = run_eval(
        _live(fake_provider, suite, cassettes, tmp_path / "again", "--only-stale"), capsys)
    resumed = load_meta(cassettes).load
    assert resumed is not None and (resumed.start, resumed.max) == (0.5, 3.75)
    assert len(resumed.samples) == 6 and resumed.samples[:3] == load.samples
    assert again["load"]["max"] == 0.5 and len(again["load"]["samples"]) == 3

    fake_provider.close()
    _, replay, _ = run_eval([str(suite), "--replay", str(cassettes), "--out",
                             str(tmp_path / "replay"), "--only", "a_build"], capsys)
    assert replay["load"] is None and replay["source"]["load"]["max"] == 3.75
    assert "Recorded under load (1-minute average, 2 cores): 0.50 at the start, at most 3.75 " \
        "(4 task ends sampled)." in (tmp_path / "replay" / "report.md").read_text()


def test_no_load_average_means_no_load_and_no_line(monkeypatch):
    def missing() -> tuple[float, float, float]:
        raise OSError("no load average here")

    said: list[str] = []
    saved: list[MachineLoad] = []
    log = LoadLog(None, saved.append, said.append, read=missing)
    log.task_ended("a")
    assert (log.load, log.session(), said, saved) == (None, None, [], [])
    assert sample("a", missing) is None


def test_a_request_past_the_end_of_a_timed_out_cassette_is_its_cut_not_a_mismatch():
    from sam_plugin.demo.loopback import ErrorResponse
    from sam_plugin.evaluation.cassette import Exchange, ReplayResponder

    asked = {"model": "m", "messages": [{"role": "user", "content": "build"}]}
    exchange = Exchange(request=asked, error=CUT_BY_TIMEOUT)
    for timeout, mismatch in ((60.0, None), (None, "request #2 is not in the cassette (it "
                                                  "recorded 1)")):
        responder = ReplayResponder(Cassette(task="t", kind="pipeline", exchanges=[exchange],
                                             timeout=timeout))
        first, second = responder(asked), responder(asked)
        assert isinstance(first, ErrorResponse) and CUT_BY_TIMEOUT.encode() in first.body
        assert isinstance(second, ErrorResponse) and responder.mismatch == mismatch
        if timeout is not None:
            assert b"the recording ended here, at its task timeout" in second.body
