"""Every task of eval/suite, answered as a careful model would (tests/evaluation/oracle.py),
is accepted: the tasks are solvable through the pipeline and their checks are right."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from oracle import ORACLE

from sam_plugin.demo.loopback import FakeProvider, StreamResponse
from sam_plugin.demo.streams import openai_stream
from sam_plugin.evaluation.runner import RunnerOptions, Source, run_suite
from sam_plugin.evaluation.task import load_suite
from tests.support.fixtures import settings_for

SUITE = Path(__file__).resolve().parents[2] / "eval" / "suite"


def oracle_responder(tasks: list[Any], asked: list[str] | None = None) -> Any:
    """The oracle's answers; ``asked`` collects the tools of every tool-call request."""

    def respond(request: dict[str, Any]) -> StreamResponse:
        # the request is in the first user turn (a design repair round adds another)
        user = "\n".join(m["content"] for m in request["messages"] if m["role"] == "user")
        task = next(t for t in tasks if t.request in user)
        steps, calls = ORACLE[task.name]
        offered = [t["function"]["name"] for t in request.get("tools") or []]
        if asked is not None:
            asked.extend(offered)
        if not offered:
            # a spec of the task's steps, summarized by the request; a refusal is words
            answer = steps if isinstance(steps, str) else json.dumps(
                {"summary": task.request, "steps": steps}, ensure_ascii=False)
            return StreamResponse([c.encode() for c in openai_stream(answer)])
        tool, arguments = next((name, args) for name, args in calls if name == offered[0])
        return StreamResponse([c.encode() for c in openai_stream(
            tool_calls=[(tool, json.dumps(arguments))])])

    return respond


@pytest.mark.parametrize("calls", ["spec", "model"])
def test_every_task_is_accepted_with_the_oracle_answers(tmp_path, calls):
    """With ``calls: spec`` the oracle's spec alone carries every task: no tool-call request
    is ever sent; with ``calls: model`` its calls are collected and bound as before."""
    tasks = load_suite(SUITE)
    assert sorted(ORACLE) == sorted(t.name for t in tasks)
    assert len({t.request for t in tasks}) == len(tasks)  # the responder finds tasks by text
    asked: list[str] = []
    fake = FakeProvider(responder=oracle_responder(tasks, asked))
    try:
        source = Source(settings=settings_for(fake, total_timeout=120.0,
                                              idle_read_timeout=60.0))
        lines: list[str] = []
        results = asyncio.run(run_suite(tasks, source, RunnerOptions(
            work=tmp_path, progress=lines.append, calls=calls)))
    finally:
        fake.close()
    assert (asked == []) is (calls == "spec"), asked
    failed = {r.name: (r.pipeline.layer, r.pipeline.message) for r in results
              if not r.pipeline.accepted}
    assert failed == {}, json.dumps(failed, indent=1)
    refused = [r for r in results if r.expect == "nothing_runs"]
    assert len(refused) >= 5 and all(r.pipeline.unchanged for r in refused)
    assert len(lines) == len(tasks)
