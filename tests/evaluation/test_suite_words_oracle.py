"""Every task of eval/suite-words, answered as a careful model would
(tests/evaluation/oracle_words.py), is accepted: the tasks are solvable through the pipeline
(the calls computed from the confirmed spec) and their checks are right."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from oracle_words import ORACLE_WORDS

from sam_plugin.compilers.spec.refusal_category import REFUSAL_CATEGORIES
from sam_plugin.demo.loopback import FakeProvider, StreamResponse
from sam_plugin.demo.streams import openai_stream
from sam_plugin.evaluation.report import build_report, markdown
from sam_plugin.evaluation.runner import RunnerOptions, Source, run_suite
from sam_plugin.evaluation.task import Task, load_suite
from tests.support.fixtures import settings_for

SUITE = Path(__file__).resolve().parents[2] / "eval" / "suite-words"


def task_of(tasks: list[Task], request: dict[str, Any]) -> Task:
    """The task whose request the user turns hold (the longest, should one contain another)."""
    user = "\n".join(m["content"] for m in request["messages"] if m["role"] == "user")
    return max((t for t in tasks if t.request in user), key=lambda t: len(t.request))


def oracle_responder(tasks: list[Task]) -> Any:
    def respond(request: dict[str, Any]) -> StreamResponse:
        assert not request.get("tools"), "calls are computed from the spec: no tool request"
        task = task_of(tasks, request)
        steps = ORACLE_WORDS[task.name]
        document = {"refuse": steps} if isinstance(steps, str) else {
            "summary": task.request, "steps": steps}
        answer = json.dumps(document, ensure_ascii=False)
        return StreamResponse([c.encode() for c in openai_stream(answer)])

    return respond


def test_the_suite_asks_every_refusal_category_and_enough_of_everything():
    tasks = load_suite(SUITE)
    assert len(tasks) >= 60
    refusals = [t for t in tasks if t.expect == "nothing_runs"]
    by_category = [t for t in refusals if t.category is not None]
    # the rest are refused by their own mode's rules (a pressure in the Initial step)
    assert len(by_category) >= 12 and all(t.mode == "load" for t in refusals
                                          if t.category is None)
    assert {t.category for t in by_category} == set(REFUSAL_CATEGORIES)
    assert any("zh" in t.tags for t in refusals)
    assert {t.mode for t in refusals} == {"part", "property", "mesh", "load"}


def test_no_request_is_one_of_eval_suite():
    words = {t.request for t in load_suite(SUITE)}
    first = {t.request for t in load_suite(SUITE.parent / "suite")}
    assert not words & first
    assert not {t.name for t in load_suite(SUITE)} & {t.name for t in load_suite(
        SUITE.parent / "suite")}


def test_every_task_is_accepted_with_the_oracle_answers(tmp_path):
    tasks = load_suite(SUITE)
    assert sorted(ORACLE_WORDS) == sorted(t.name for t in tasks)
    assert len({t.request for t in tasks}) == len(tasks)
    fake = FakeProvider(responder=oracle_responder(tasks))
    try:
        source = Source(settings=settings_for(fake, total_timeout=120.0,
                                              idle_read_timeout=60.0))
        lines: list[str] = []
        results = asyncio.run(run_suite(tasks, source, RunnerOptions(
            work=tmp_path, progress=lines.append, calls="spec")))
    finally:
        fake.close()
    failed = {r.name: (r.pipeline.layer, r.pipeline.message) for r in results
              if not r.pipeline.accepted}
    assert failed == {}, json.dumps(failed, indent=1, ensure_ascii=False)
    refused = [r for r in results if r.expect == "nothing_runs"]
    assert all(r.pipeline.unchanged and r.pipeline.ended_at == "design" for r in refused)
    assert len(lines) == len(tasks)
    # the report names, for each refusal, where it ended and the category expected
    report = build_report(results, {"suite": str(SUITE)})
    assert report["refusals"]["tasks"] == report["refusals"]["held"] == len(refused)
    text = markdown(report)
    assert "| refuse_mesh_coarsen | mesh | mesh_generation | design |" in text
