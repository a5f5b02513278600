"""Small pieces of the evaluation package: token counts, totals, the chart, task files."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from sam_plugin.errors import UsageError
from sam_plugin.evaluation.cassette import tokens_of
from sam_plugin.evaluation.chart import draw_outcomes, outcome_counts
from sam_plugin.evaluation.report import markdown, totals
from sam_plugin.evaluation.runner import KindResult
from sam_plugin.evaluation.task import load_suite

LLAMACPP_TAIL = (
    b'data: {"choices":[{"finish_reason":"stop","index":0,"delta":{}}],"timings":'
    b'{"cache_n":5,"prompt_n":2069,"prompt_ms":21617.8,"predicted_n":318,"predicted_ms":3.1}}'
    b"\n\ndata: [DONE]\n\n"
)


def test_tokens_come_from_usage_else_from_llamacpp_timings():
    assert tokens_of({"prompt_tokens": 7, "completion_tokens": 3}, LLAMACPP_TAIL) == (7, 3)
    assert tokens_of(None, LLAMACPP_TAIL) == (2074, 318)  # cached prompt tokens count too
    assert tokens_of(None, b"data: [DONE]\n\n") == (0, 0)


def kind(outcome: str, accepted: bool, layer: str | None = None, repairs: int = 0,
         seconds: float = 1.0) -> KindResult:
    return KindResult(outcome=outcome, status="x", accepted=accepted, layer=layer,
                      repair_rounds=repairs, seconds=seconds, prompt_tokens=100,
                      completion_tokens=10)


def test_totals_leave_skipped_tasks_out_of_the_rate():
    kinds = [kind("accepted", True), kind("accepted", True, repairs=2),
             kind("failed", False, "compile"), kind("mismatch", False, "cassette"),
             kind("skipped", False, seconds=0.0)]
    t = totals(kinds)
    assert (t.tasks, t.scored, t.accepted, t.skipped, t.mismatches) == (5, 4, 2, 1, 1)
    assert t.success_rate == 0.5 and t.success_within_one_repair == 0.25
    assert t.failures_per_layer == {"cassette": 1, "compile": 1}
    assert t.mean_seconds == 1.0 and t.mean_prompt_tokens == 100


def test_markdown_and_chart_show_both_kinds(tmp_path: Path):
    task = {"name": "t1", "mode": "part", "expect": "verified", "tags": [],
            **kind("failed", False, "compile").model_dump(),
            "baseline": kind("accepted", True).model_dump()}
    report = {"suite": "s", "source": {"kind": "replay", "api_model": "m"}, "tasks": [task],
              "totals": totals([kind("failed", False, "compile")]).model_dump(),
              "baseline_totals": totals([kind("accepted", True)]).model_dump()}
    text = markdown(report)
    assert "| t1 | part | verified | x | compile | 0 | 0 | 100/10 | 1.0 | no | yes |  |" in text
    assert "| success rate | 0.0% | 100.0% |" in text
    assert "- pipeline: compile 1" in text and "- free-python: none" in text
    assert outcome_counts(report, "pipeline")["compile"] == 1
    assert outcome_counts(report, "baseline")["accepted"] == 1
    assert draw_outcomes(report, tmp_path / "o.png")
    assert (tmp_path / "o.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("body, message", [
    ("x = 1\n", "defines no TASK"),
    ("from sam_plugin.evaluation.task import Task\nTASK = Task(mode='part', part='P', "
     "request='r')\ndef setup(mdb):\n    pass\n", "needs acceptance checks"),
    ("raise RuntimeError('boom')\n", "RuntimeError: boom"),
])
def test_a_bad_task_file_is_named_with_what_is_wrong(tmp_path: Path, body: str, message: str):
    (tmp_path / "bad.py").write_text(body)
    with pytest.raises(UsageError, match=message) as raised:
        load_suite(tmp_path)
    assert "bad.py" in str(raised.value)


def test_only_runs_the_named_tasks_in_the_order_given():
    suite = Path(__file__).resolve().parents[2] / "eval" / "suite"
    names = ["refuse_outside_load", "part_build_plate"]
    assert [t.name for t in load_suite(suite, names)] == names


def test_live_runs_wait_minutes_for_a_cpu_model_and_never_retry(fake_provider):
    from sam_plugin.cli.main import build_parser
    from sam_plugin.evaluation.command import LIVE_IDLE_TIMEOUT, _source

    args = build_parser().parse_args(["eval", "suite", "--base-url", fake_provider.base_url,
                                      "--api-model", "m"])
    fake_provider.get_routes["/props"] = {"build_info": "b1", "model_path": "/m/q.gguf"}
    source, meta = asyncio.run(_source(args))
    settings = source.settings
    # the server was asked: meta.json names it, and the profile follows it
    assert (meta["server_kind"], meta["server_version"], meta["profile"]) == (
        "llamacpp", "b1", "llamacpp")
    assert meta["server"] == "b1 q.gguf" and settings.profile == "llamacpp"
    assert settings.idle_timeout == settings.idle_read_timeout == LIVE_IDLE_TIMEOUT
    assert settings.max_retries == 0 and not settings.retry_broken_stream
    assert meta["kind"] == "live" and meta["api_model"] == "m"
