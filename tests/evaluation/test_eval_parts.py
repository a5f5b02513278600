"""Small pieces of the evaluation package: token counts, totals, the chart, task files."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from sam_plugin.errors import UsageError
from sam_plugin.evaluation.cassette import tokens_of
from sam_plugin.evaluation.chart import draw_outcomes, outcome_counts
from sam_plugin.evaluation.report import markdown, refusal_totals, totals
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
    ("from sam_plugin.evaluation.task import Task\nTASK = Task(mode='mesh', part='P', "
     "request='r', expect='nothing_runs', category='coarsening')\ndef setup(mdb):\n    pass\n",
     "category 'coarsening' is not a refusal category; one of load, boundary_condition, "
     "contact, analysis_step, job, material, section, geometry, mesh_generation, other"),
    ("from sam_plugin.evaluation import checks as c\nfrom sam_plugin.evaluation.task import "
     "Task\nTASK = Task(mode='mesh', part='P', request='r', checks=[c.node_count(1)], "
     "category='load')\ndef setup(mdb):\n    pass\n",
     'category names a refusal: only with expect="nothing_runs"'),
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


def refusal(name: str, layer: str | None, named: str | None, accepted: bool = True) -> dict:
    return {"name": name, "mode": "mesh", "expect": "nothing_runs", "tags": [],
            "expected_category": "mesh_generation",
            **kind("accepted" if accepted else "failed", accepted, layer).model_dump(),
            "ended_at": layer, "category": named}


def test_each_refusal_says_where_it_ended_and_the_category_it_named():
    """Acceptance is that nothing ran; the category is said beside it, and "no category"
    while the design layer names none."""
    tasks = [refusal("coarsen", "design", "mesh_generation"),
             refusal("coarsen_compile", "compile", None),
             refusal("coarsen_other", "design", "other"),
             refusal("coarsen_ran", "acceptance", None, accepted=False)]
    report = {"suite": "s", "source": {}, "tasks": tasks,
              "totals": totals([kind("accepted", True)]).model_dump(),
              "refusals": refusal_totals(tasks)}
    assert report["refusals"] == {"tasks": 4, "held": 3, "with_category": 4, "by_category": 1}
    text = markdown(report)
    assert "| coarsen | mesh | mesh_generation | design | mesh_generation | yes | yes |" in text
    assert ("| coarsen_compile | mesh | mesh_generation | compile | no category | yes | no |"
            in text)
    assert "| coarsen_other | mesh | mesh_generation | design | other | yes | no |" in text
    assert "| coarsen_ran | mesh | mesh_generation | acceptance | no category | no | no |" in text
    assert "Refusals held: 3/4; at design by their category: 1/4." in text
    # a refusal task that names no category (eval/suite's) is not judged by one
    tasks[0]["expected_category"] = None
    assert "| coarsen | mesh |  | design | mesh_generation | yes |  |" in markdown(report)


def test_the_runner_reads_the_category_of_the_run_error_when_it_has_one():
    from types import SimpleNamespace

    from sam_plugin.evaluation.runner import _category

    assert _category(SimpleNamespace(layer="design", message="m", category="contact")) == \
        "contact"
    assert _category(SimpleNamespace(layer="design", message="m")) is None
    assert _category(None) is None


def test_coverage_in_a_box_fails_when_the_section_sits_elsewhere():
    from sam.database import Mdb

    from sam_plugin.evaluation import checks as c
    from sam_plugin.evaluation import workspaces as w
    from sam_plugin.evaluation.runner import import_stub_sam

    import_stub_sam()
    mdb = Mdb()
    part = w.plate(mdb, "P", 2, 1, 20.0, 10.0)
    w.steel(mdb)
    w.shell(mdb, "S", "Steel", 1.0)
    w.element_set(part, "LEFT", [1])
    part.SectionAssignment(region=part.sets["LEFT"], sectionName="S")
    right = c.coverage("S", count=1, box=((10, 0, 0), (20, 10, 0)))
    left = c.coverage("S", count=1, box=((0, 0, 0), (10, 10, 0)))
    assert not right.check(mdb, "Model-1", "P").ok
    assert right.check(mdb, "Model-1", "P").actual == "1 elements, 1 outside"
    assert left.check(mdb, "Model-1", "P").ok
    assert c.shell_coverage(1.0).check(mdb, "Model-1", "P").actual == "1 carry one"
    assert c.material_values(210000, 0.3).check(mdb, "Model-1", "P").ok
    assert not c.material_values(70000, 0.33).check(mdb, "Model-1", "P").ok
