"""Model text shown to the analyst: no terminal control characters or bidi overrides, and
what is shown is exactly what is stored in design.txt and sent as the confirmed spec."""

from __future__ import annotations

import asyncio
import json

from controller_fakes import (
    TARGET,
    FakeHost,
    FakePartModule,
    ScriptedProvider,
    calls,
    design,
    fake_spec,
    fake_step,
    policy,
    settings,
)

from sam_plugin.runtime.run.controller import RunController
from sam_plugin.runtime.text_safety import visible_text

HOSTILE_WORDS = ("Build one plate.\x1b[2J\x1b]0;owned\x07\r\x08 Keep \u202eelements 1-4\u202c "
                 "and \u2066nodes\u2069.\x9b31m")
# as a model writes it: control characters escaped inside the JSON strings, where no filter of
# the raw stream can see them, and bidi characters raw
HOSTILE = fake_spec(fake_step("build", text=HOSTILE_WORDS), summary=HOSTILE_WORDS)
_BAD = "\u202e\u202c\u2066\u2069\x9b\x1b\r\x08\x07"


def test_control_and_bidi_characters_are_removed_lines_and_tabs_kept():
    assert visible_text("a\tb\nc\x1b[31md\u202ee\u200ff\x7fg\x85h") == "a\tb\nc[31mdefgh"


def test_what_the_dock_shows_what_design_txt_stores_and_what_is_sent_are_one_text(tmp_path):
    provider = ScriptedProvider(design(HOSTILE), "unused")
    host = FakeHost()
    controller = RunController(runs_dir=tmp_path / "runs", settings=settings(), policy=policy(),
                               host=host,
                               provider_factory=provider.factory,
                               module_factory=lambda mode: FakePartModule())
    streamed: list[str] = []
    controller.subscribe(lambda e: streamed.append(e.data().get("text", ""))
                         if e.name == "design_delta" else None)
    asyncio.run(controller.submit("a plate", "part", TARGET))
    shown = controller.spec_text
    assert not any(ord(c) < 32 and c not in "\n\t" for c in shown)
    assert not any(c in shown for c in _BAD)
    assert "Build one plate.[2J]0;owned Keep elements 1-4 and nodes.31m" in shown
    assert not any(c in "".join(streamed) for c in _BAD)
    folder = controller.runs_dir / controller.run_id
    assert (folder / "design.txt").read_text(encoding="utf-8") == shown + "\n"
    data = (folder / "spec.json").read_text(encoding="utf-8")
    assert not any(c in json.loads(data)["summary"] for c in _BAD)
    provider.queue.clear()
    provider.queue.append(calls(("build_part", {})))
    asyncio.run(controller.confirm("part", TARGET))
    sent = provider.requests[1].messages
    assert any(shown in str(m.get("content", "")) for m in sent)
    assert not any(c in str(m.get("content", "")) for m in sent for c in _BAD)


def test_streamed_reasoning_is_filtered_too(tmp_path):
    from sam_plugin.runtime.run.provider_call import _Relay

    seen: list[str] = []
    relay = _Relay(lambda event: seen.append(event.data()["text"]), spec=False)
    relay.on_reasoning("think\x1b[2J \u202eabc")
    assert seen == ["think[2J abc"]
