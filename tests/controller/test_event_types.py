"""Typed events (docs/architecture.md §8): one type per event, and ``events.jsonl`` in the
very bytes the name-plus-dict events wrote.

``tests/fixtures/events/recorded_runs.jsonl`` holds nine runs' ``events.jsonl`` lines as the
untyped code wrote them (the runs of the test suite, picked to cover every persisted event
and every set of fields it had), so the typed events are measured against what was really
written, not against themselves.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import get_args

import pytest
from controller_fakes import (
    TARGET,
    ScriptedProvider,
    calls,
    design,
    fake_spec,
)

from sam_plugin.runtime import event_types
from sam_plugin.runtime.event_types import (
    BY_NAME,
    EVENT_TYPES,
    DesignConfirmed,
    DesignDelta,
    RepairRequested,
    RunEvent,
    event_from,
)
from sam_plugin.runtime.events import ControllerEvent, EventBus, read_events

RECORDED = Path(__file__).parent.parent / "fixtures" / "events" / "recorded_runs.jsonl"
# the events typed after the recording was made (their emitters landed since, or are still
# on their branches)
NOT_RECORDED = {"server_detected", "constraint_dropped", "approval_requested",
                "decision_forged"}


def _lines() -> list[str]:
    return RECORDED.read_text(encoding="utf-8").splitlines()


def _retyped(line: str) -> str:
    """The line written again from its typed event."""
    record = json.loads(line)
    run_id, name, timestamp = record.pop("run_id"), record.pop("event"), record.pop("timestamp")
    typed = event_from(name, record)
    return ControllerEvent(run_id=run_id, event=typed.name, timestamp=timestamp,
                           data=typed.data()).to_line()


def test_recorded_runs_are_written_in_the_same_bytes_from_their_typed_events():
    lines = _lines()
    assert len({json.loads(line)["run_id"] for line in lines}) == 9
    for line in lines:
        assert _retyped(line) == line


def test_the_recording_covers_every_persisted_event():
    recorded = {json.loads(line)["event"] for line in _lines()}
    assert recorded == event_types.PERSISTED_EVENTS - NOT_RECORDED


def test_a_changed_field_order_or_value_would_be_seen():
    # the comparison is of bytes: the same fields in another order are another line
    line = next(line for line in _lines() if '"event": "plan_shown"' in line)
    record = json.loads(line)
    reordered = json.dumps(dict(reversed(list(record.items()))), ensure_ascii=False)
    assert _retyped(reordered) != reordered


def test_one_type_per_event_and_the_union_holds_them_all():
    assert set(get_args(RunEvent)) == set(EVENT_TYPES)
    assert len(BY_NAME) == len(EVENT_TYPES)
    assert event_types.PERSISTED_EVENTS.isdisjoint(event_types.LISTENER_EVENTS)
    assert event_types.PERSISTED_EVENTS | event_types.LISTENER_EVENTS == set(BY_NAME)


def test_fields_written_only_sometimes_are_left_out_at_their_default():
    assert DesignConfirmed(tools=["build_part"]).data() == {"tools": ["build_part"]}
    assert DesignConfirmed(tools=[], given=True).data() == {"tools": [], "given": True}
    assert DesignDelta(text="x").data() == {"text": "x"}
    repair = RepairRequested(repair=1, of=2, layer="compile", tool="t", headline="h",
                             diagnostic="d")
    assert list(repair.data()) == ["repair", "of", "layer", "tool", "headline", "diagnostic"]


def test_a_name_and_fields_that_do_not_fit_are_refused_by_name():
    with pytest.raises(ValueError, match="event: unknown event 'done'; known events: "):
        event_from("done", {})
    with pytest.raises(ValueError, match=r"event plan_approved: unknown field\(s\) who; "
                                         r"missing field\(s\) by; its fields: by"):
        event_from("plan_approved", {"who": "me"})


def test_a_typed_event_writes_the_line_its_name_and_dict_wrote(tmp_path):
    bus = EventBus()
    bus.log_path = tmp_path / "events.jsonl"
    seen: list[RunEvent] = []
    bus.subscribe(seen.append)
    event = RepairRequested(repair=1, of=1, layer="design", tool="", headline="h",
                            problems=["h", "i"])
    bus.emit("r", event)
    [line] = read_events(bus.log_path)
    line.pop("timestamp")
    named = {"run_id": "r", "event": "repair_requested", "repair": 1, "of": 1,
             "layer": "design", "tool": "", "headline": "h", "problems": ["h", "i"]}
    assert json.dumps(line) == json.dumps(named)  # the same keys, in the same order
    assert seen == [event]


def test_a_listener_is_handed_the_scrubbed_typed_event_and_the_log_its_dict(tmp_path):
    def scrub(value):  # as the run's scrubber: every string, in lists and dicts too; the
        # value itself when nothing in it changes
        if isinstance(value, str):
            return value.replace("sk-secret", "[redacted]")
        if isinstance(value, list):
            items = [scrub(item) for item in value]
            return value if items == value else items
        if isinstance(value, dict):
            return {scrub(key): scrub(item) for key, item in value.items()}
        return value

    bus = EventBus(scrubber=scrub)
    bus.log_path = tmp_path / "events.jsonl"
    seen: list[RunEvent] = []
    bus.subscribe(seen.append)
    event = RepairRequested(repair=1, of=2, layer="compile", tool="edit_part",
                            headline="key sk-secret refused", problems=["sk-secret", "x"])
    returned = bus.emit("r", event)
    [line] = bus.log_path.read_text(encoding="utf-8").splitlines()
    record = json.loads(line)
    assert seen == [returned] and isinstance(returned, RepairRequested)
    assert returned.headline == "key [redacted] refused"
    assert returned.problems == ["[redacted]", "x"]
    assert "sk-secret" not in line
    # the bytes the log held when listeners were handed the record of the scrubbed dict
    assert line == ControllerEvent(run_id="r", event="repair_requested",
                                   timestamp=record["timestamp"],
                                   data=scrub(event.data())).to_line()
    unchanged = DesignConfirmed(tools=["build_part"])
    assert bus.emit("r", unchanged) is unchanged  # nothing to scrub: the event itself


def test_a_run_today_writes_lines_its_typed_events_write_again(controller):
    provider = ScriptedProvider(design(fake_spec("build", "audit", summary="One plate.")),
                                calls(("build_part", {"quads": 2}), ("audit_part", {})))
    built = controller(provider)
    asyncio.run(built.controller.submit("a plate", "part", TARGET))
    asyncio.run(built.controller.confirm("part", TARGET))
    result = built.controller.result
    assert result is not None and result.status == "verified"
    lines = (built.runs / result.run_id / "events.jsonl").read_text(encoding="utf-8")
    assert lines.splitlines() and all(_retyped(line) == line for line in lines.splitlines())
