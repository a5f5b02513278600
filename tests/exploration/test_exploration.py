"""The bounded read-only exploration loop against the loopback fake provider."""

from __future__ import annotations

import json
from typing import Any

import pytest

from sam_plugin.demo.loopback import FakeProvider
from sam_plugin.demo.streams import openai_stream
from sam_plugin.errors import ExplorationChangedModel
from sam_plugin.runtime.observe.exploration import ALLOWED_TOOLS, ExplorationResult
from sam_plugin.samops.readback import geometry_fingerprint

NEAR_RIGHT = {"entity": "elements", "by": "nearest", "point": [30, 10, 0], "k": 2}
GRID = {"section": "grid"}


def _tool_messages(request_json: dict[str, Any]) -> list[dict[str, Any]]:
    return [m for m in request_json["messages"] if m["role"] == "tool"]


def test_two_queries_then_stop(fake_provider: FakeProvider, run_explore: Any, recorder: Any,
                               plate: Any) -> None:
    fake_provider.enqueue_stream(openai_stream(tool_calls=[
        ("query_regions", json.dumps(GRID)), ("query_entities", json.dumps(NEAR_RIGHT))]))
    fake_provider.enqueue_stream(openai_stream(content="Elements 3 and 6 touch x = 30."))
    before = geometry_fingerprint(plate)
    result = run_explore()
    assert result.exit_reason == "stop" and result.checkpoint is False
    assert result.summary == "Elements 3 and 6 touch x = 30."
    assert [len(turn.queries) for turn in result.turns] == [2, 0]
    assert [(f.tool, f.arguments) for f in result.facts] == [
        ("query_regions", GRID), ("query_entities", NEAR_RIGHT)]
    assert result.facts[0].result["grid"]["divisions"] == [10, 6, 1]
    assert [e["label"] for e in result.facts[1].result["elements"]] == [3, 6]
    assert result.fingerprint == before == geometry_fingerprint(plate)
    # every exploration request carries the query tools and nothing else
    requests = [r.json for r in fake_provider.requests]
    assert len(requests) == 2
    for body in requests:
        assert [t["function"]["name"] for t in body["tools"]] == list(ALLOWED_TOOLS)
        assert "tool_choice" not in body
    # the second request answers both calls, by id, in order, as role "tool" messages
    assistant = requests[1]["messages"][2]
    assert assistant["role"] == "assistant"
    ids = [call["id"] for call in assistant["tool_calls"]]
    tools = _tool_messages(requests[1])
    assert [m["tool_call_id"] for m in tools] == ids
    assert json.loads(tools[1]["content"])["elements"][0]["label"] == 3
    assert recorder.names() == ["exploration_started", "exploration_query", "exploration_query",
                                "exploration_turn", "exploration_turn", "exploration_completed"]
    assert recorder.events[-1][1] == {"exit_reason": "stop", "turns": 2, "facts": 2,
                                      "checkpoint": False}
    assert result.usage == {"prompt_tokens": 240, "completion_tokens": 96, "total_tokens": 336}


def test_max_turns_keeps_a_checkpoint_not_an_answer(fake_provider: FakeProvider,
                                                    run_explore: Any) -> None:
    for _ in range(2):
        fake_provider.enqueue_stream(openai_stream(
            content="Probably element 3.",
            tool_calls=[("query_entities", json.dumps(NEAR_RIGHT))]))
    result = run_explore(max_turns=2)
    assert result.exit_reason == "max_turns" and result.checkpoint is True
    assert len(fake_provider.requests) == 2  # no third request: the budget is hard
    assert len(result.facts) == 2
    assert result.summary is None  # the model's text is not taken as an answer
    context = result.design_context()
    assert context.startswith(
        "Read-only exploration of the target part was cut after 2 turn(s) (max_turns). The "
        "query results below are a partial checkpoint, not an answer: use them only as "
        "context.")
    assert "Probably element 3." not in context


def test_a_failing_query_returns_its_error_to_the_model(fake_provider: FakeProvider,
                                                        run_explore: Any) -> None:
    fake_provider.enqueue_stream(openai_stream(tool_calls=[
        ("query_entities", json.dumps({"entity": "nodes", "by": "set", "name": "DECK"}))]))
    fake_provider.enqueue_stream(openai_stream(content="There is no DECK set."))
    result = run_explore()
    assert result.exit_reason == "stop"
    (query,) = result.turns[0].queries
    assert query.error == "name: no set 'DECK' in part 'Plate'; existing sets: EDGE, RIGHT"
    assert result.facts == []
    (tool_message,) = _tool_messages(fake_provider.requests[1].json)
    assert json.loads(tool_message["content"]) == {"error": query.error}
    assert tool_message["tool_call_id"] == query.id


def test_a_non_allowlisted_tool_is_refused_and_never_run(fake_provider: FakeProvider,
                                                         run_explore: Any, plate: Any) -> None:
    build = {"nodes": [{"id": "n1", "coordinates": [0, 0, 0]}]}
    fake_provider.enqueue_stream(openai_stream(tool_calls=[("edit_part", json.dumps(build))]))
    fake_provider.enqueue_stream(openai_stream(content="Understood, read-only."))
    before = geometry_fingerprint(plate)
    result = run_explore()
    (query,) = result.turns[0].queries
    assert query.error == ("refused: tool 'edit_part' is not available during exploration; "
                           "only query_regions, query_entities (read-only) may be called")
    assert query.result is None
    assert geometry_fingerprint(plate) == before and len(plate.nodes) == 12
    (tool_message,) = _tool_messages(fake_provider.requests[1].json)
    assert json.loads(tool_message["content"]) == {"error": query.error}
    assert result.exit_reason == "stop"


def test_turns_of_only_failures_end_with_tool_error(fake_provider: FakeProvider,
                                                    run_explore: Any) -> None:
    fake_provider.enqueue_stream(openai_stream(tool_calls=[("query_entities", "{not json")]))
    fake_provider.enqueue_stream(openai_stream(tool_calls=[("delete_part", "{}")]))
    result = run_explore()
    assert result.exit_reason == "tool_error" and result.checkpoint is False
    assert len(fake_provider.requests) == 2
    assert result.turns[0].queries[0].error == (
        "arguments: not valid JSON (Expecting property name enclosed in double quotes at "
        "char 1)")
    assert result.design_context().startswith(
        "Read-only exploration of the target part stopped after repeated query errors.")


def test_calls_over_the_per_turn_limit_are_refused(fake_provider: FakeProvider,
                                                   run_explore: Any) -> None:
    calls = [("query_regions", json.dumps({"section": s}))
             for s in ("grid", "sets", "shapes", "stations")]
    fake_provider.enqueue_stream(openai_stream(tool_calls=calls))
    fake_provider.enqueue_stream(openai_stream(content="done"))
    result = run_explore(max_queries_per_turn=3)
    assert [q.ok for q in result.turns[0].queries] == [True, True, True, False]
    assert result.turns[0].queries[3].error == (
        "refused: at most 3 queries per turn; this was call 4 of 4 (not run)")
    assert len(_tool_messages(fake_provider.requests[1].json)) == 4


def test_a_changed_fingerprint_raises(fake_provider: FakeProvider, run_explore: Any) -> None:
    fake_provider.enqueue_stream(openai_stream(content="nothing to ask"))
    prints = iter(["fp-before", "fp-after"])
    with pytest.raises(ExplorationChangedModel) as caught:
        run_explore(fingerprint_fn=lambda: next(prints))
    assert str(caught.value) == ("exploration changed the target part: fingerprint fp-before "
                                 "before, fp-after after (exploration must only read)")


def test_exploration_json_round_trips_without_raw_sse(fake_provider: FakeProvider,
                                                      run_explore: Any) -> None:
    fake_provider.enqueue_stream(openai_stream(tool_calls=[
        ("query_regions", json.dumps({"section": "sets", "names": ["RIGHT"]}))]))
    fake_provider.enqueue_stream(openai_stream(content="RIGHT spans x 20..30."))
    result = run_explore()
    assert result.raw_sse and b"data:" in result.raw_sse[0]
    dumped = result.model_dump()
    assert "raw_sse" not in dumped
    assert ExplorationResult.model_validate(json.loads(json.dumps(dumped))) == \
        result.model_copy(update={"raw_sse": []})
    assert result.facts[0].result["sets"] == [
        {"name": "RIGHT", "nodes": 0, "elements": 2,
         "bbox": [[20.0, 0.0, 0.0], [30.0, 20.0, 0.0]]}]


def test_bad_limits_are_rejected(run_explore: Any) -> None:
    with pytest.raises(ValueError) as caught:
        run_explore(max_turns=0)
    assert str(caught.value) == "max_turns: must be a positive integer; got 0"


def test_reasoning_of_a_tool_call_turn_is_passed_back(fake_provider: FakeProvider,
                                                      run_explore: Any) -> None:
    from sam_plugin.demo.streams import deepseek_stream

    fake_provider.enqueue_stream(deepseek_stream(
        reasoning="The right edge is x = 30.",
        tool_calls=[("query_entities", json.dumps(NEAR_RIGHT))]))
    fake_provider.enqueue_stream(deepseek_stream(content="Elements 3 and 6."))
    result = run_explore()
    assert result.exit_reason == "stop"
    assistant = fake_provider.requests[1].json["messages"][2]
    assert assistant["reasoning_content"] == "The right edge is x = 30."
    assert "reasoning_content" not in fake_provider.requests[0].json["messages"][1]


def test_dock_default_is_on_only_for_big_parts() -> None:
    from sam_plugin.runtime.observe.exploration import explore_by_default

    assert explore_by_default(12, 6) is False
    assert explore_by_default(10_000, 10_000) is False
    assert explore_by_default(188_356, 187_489) is True


MUTATORS = frozenset({"Node", "Element", "Set", "deleteNode", "deleteElement", "editNode",
                      "mergeNodes", "SectionAssignment", "assignBeamSectionOrientation"})


class ReadOnlyPart:
    """The plate behind a guard: any mutating host call fails the test."""

    def __init__(self, part: Any) -> None:
        self._part = part
        self.touched: set[str] = set()

    def __getattr__(self, name: str) -> Any:
        if name in MUTATORS:
            raise AssertionError(f"exploration called part.{name}")
        self.touched.add(name)
        return getattr(self._part, name)


def test_every_query_kind_only_reads(fake_provider: FakeProvider, run_explore: Any,
                                     plate: Any) -> None:
    guarded = ReadOnlyPart(plate)
    queries = [
        ("query_regions", {}),
        ("query_regions", {"box": {"min": [0, 0, 0], "max": [20, 20, 0]}, "stations": 3}),
        ("query_regions", {"section": "sets", "names": ["EDGE"]}),
        ("query_entities", {"entity": "nodes", "by": "labels", "labels": [1, 2]}),
        ("query_entities", {"entity": "elements", "by": "set", "name": "RIGHT"}),
        ("query_entities", {"entity": "nodes", "by": "box", "min": [0, 0, 0],
                            "max": [10, 10, 0]}),
        ("query_entities", {"entity": "elements", "by": "nearest", "point": [0, 0, 0]}),
        ("query_entities", {"entity": "nodes", "by": "nearest", "point": [0, 0, 0], "k": 1}),
    ]
    for start in (0, 4):
        fake_provider.enqueue_stream(openai_stream(tool_calls=[
            (name, json.dumps(arguments)) for name, arguments in queries[start:start + 4]]))
    fake_provider.enqueue_stream(openai_stream(content="done"))
    result = run_explore(part=guarded)
    assert result.exit_reason == "stop"
    assert [q.error for turn in result.turns for q in turn.queries] == [None] * 8
    assert guarded.touched <= {"nodes", "elements", "sets", "name"}
