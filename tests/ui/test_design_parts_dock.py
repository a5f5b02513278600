"""The dock at Review with the design asked in parts, or whole (docs/architecture.md §4 "The design,
asked in parts"): a step of the design asked again is said in the Review notes."""

from __future__ import annotations

import json

from sam_plugin.demo.examples import example_by_id
from sam_plugin.demo.streams import openai_stream

TIMEOUT_MS = 20_000


def test_a_step_asked_again_is_said_at_review(qtbot, replay, dock, monkeypatch):
    monkeypatch.setenv("SAM_AGENT_MODEL", "a-live-model")  # the answers below, not Replay's
    monkeypatch.setenv("SAM_AGENT_DESIGN", "parts")
    dock.refresh_provider()
    rectangle = {"shape": "QUAD", "size": [60, 100], "divisions": [6, 10]}
    for answer in ({"actions": [{"action": "build", "words": "a 60 x 100 plate"}]},
                   {"values": rectangle}, {"values": {**rectangle, "plane": "XY"}}):
        replay.enqueue_stream(openai_stream(content=json.dumps(answer)))
    example = example_by_id("plate")
    dock.set_target(example.mode, example.model, example.part)
    dock.request_edit.setPlainText(example.request)
    dock.submit_button.click()
    qtbot.waitUntil(lambda: not dock.busy and "Review" in dock.status_label.text(),
                    timeout=TIMEOUT_MS)
    assert "in the XY plane" in dock.spec_view.toPlainText()
    assert dock.spec_extras.notes.text().splitlines() == [
        "Repaired: step 1 (build) was asked again once, because: values.plane: a step stating "
        "size and divisions states its plane too: XY or XZ or YZ"]


def test_a_step_repaired_in_the_design_asked_whole_is_said_at_review(
        qtbot, replay, dock, monkeypatch, calls_from_spec):
    """The design asked whole (the default): a step that does not compute is sent back once
    with its diagnostic, and Review says so in the same words as in parts."""
    from tests.support.specs import answer, step

    monkeypatch.setenv("SAM_AGENT_MODEL", "a-live-model")
    monkeypatch.setenv("SAM_AGENT_DESIGN", "whole")
    dock.refresh_provider()
    wrong = answer(step("build", mode="part", shape="BEAM", size=[60, 100], divisions=[6, 10]))
    right = answer(step("build", mode="part", shape="QUAD", size=[60, 100], divisions=[6, 10]))
    for spec in (wrong, right):
        replay.enqueue_stream(openai_stream(content=spec))
    example = example_by_id("plate")
    dock.set_target(example.mode, example.model, example.part)
    dock.request_edit.setPlainText(example.request)
    dock.submit_button.click()
    qtbot.waitUntil(lambda: not dock.busy and "Review" in dock.status_label.text(),
                    timeout=TIMEOUT_MS)
    assert "QUAD" in dock.spec_view.toPlainText()
    (note,) = [line for line in dock.spec_extras.notes.text().splitlines()
               if line.startswith("Repaired: ")]
    assert note.startswith("Repaired: step 1 (build) was asked again once, because: step 1 "
                           "(build a mesh of BEAM elements")
