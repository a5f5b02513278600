"""A request that acts on what was picked in the viewport (docs/ui.md "Picking"): the
selection is one line after the request in the design request (and nothing at all without
one), the spec's scope is the selected labels and reads "the 12 selected elements", and a
selection changed after submit is drift: the run fails before anything executes."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from sam_plugin.runtime.run.drift import DRIFT_MESSAGE
from sam_plugin.runtime.selection import Selection
from tests.support.pipeline import fresh_database
from tests.support.scripted import TARGET, Provider, controller, plate
from tests.support.specs import answer, labels, step

fresh_sam = pytest.fixture(fresh_database)
PICKED = Selection(kind="elements", labels=tuple(range(3, 15)))
REQUEST = "translate the selection by (0, 0, 5)"  # no reading of its words follows
SPEC = answer(step("translate", labels(*range(3, 15)), vector=[0.0, 0.0, 5.0]))
CALL = {"operations": [{"op": "translate", "vector": [0.0, 0.0, 5.0],
                        "selection": labels(*range(3, 15))}]}


class Recording(Provider):
    def __init__(self) -> None:
        super().__init__(SPEC, "transform_part", CALL)
        self.sent: list[Any] = []

    async def stream_chat(self, messages: Any, tools: Any = None, listener: Any = None,
                          options: Any = None) -> Any:
        self.sent.append(json.loads(json.dumps(messages)))
        return await super().stream_chat(messages, tools, listener, options)


def _submitted(sam: Any, tmp_path: Path, selection: Selection | None) -> tuple[Any, Recording]:
    plate(sam, 4)
    provider = Recording()
    run = controller(sam, tmp_path, SPEC, "transform_part", CALL)
    run._provider_factory = provider.factory
    asyncio.run(run.submit(REQUEST, "part", TARGET, selection=selection))
    assert run.phase == "review", run.result
    return run, provider


def test_without_a_selection_the_design_request_has_no_word_of_it(fresh_sam, tmp_path):
    run, provider = _submitted(fresh_sam, tmp_path, None)
    user = provider.sent[0][1]["content"]
    assert user.endswith(f"Request:\n{REQUEST}")
    assert "Selection" not in user and "selected" not in run.spec_text
    assert not (tmp_path / "runs" / run.run_id / "selection.json").exists()


def test_a_selection_adds_one_line_and_the_spec_reads_the_selected_elements(fresh_sam,
                                                                            tmp_path):
    run, provider = _submitted(fresh_sam, tmp_path, PICKED)
    user = provider.sent[0][1]["content"]
    head, line = user.rsplit("\n", 1)
    assert head.endswith(f"Request:\n{REQUEST}")  # the rest as without a selection
    assert line == ('Selection (picked in the viewport; "the selection", "selected"): '
                    '12 elements, scope {"by":"labels","labels":[3,4,5,6,7,8,9,10,11,12,13,14]}')
    assert "translate the 12 selected elements by (0, 0, 5)" in run.spec_text
    assert run.review_warnings == []  # the labels were shown: they are sourced numbers
    kept = json.loads((tmp_path / "runs" / run.run_id / "selection.json").read_text())
    assert kept == {"kind": "elements", "labels": list(range(3, 15))}
    result = asyncio.run(run.confirm("part", TARGET, selection=PICKED))
    assert result.status == "verified", result.error


def test_a_selection_changed_after_submit_fails_the_run_before_execution(fresh_sam, tmp_path):
    run, _ = _submitted(fresh_sam, tmp_path, PICKED)
    now = Selection(kind="elements", labels=(3, 4))
    result = asyncio.run(run.confirm("part", TARGET, selection=now))
    assert result.status == "failed" and result.submissions == 0
    assert result.error.layer == "observation"
    assert result.error.message == (
        f"{DRIFT_MESSAGE} (at confirm: the selection changed since submit: 12 elements "
        "(labels 3-14) then, 2 elements (labels 3-4) now)")
    part = fresh_sam.mdb.models["Model-1"].parts["Plate"]
    assert all(node.coordinates[2] == 0.0 for node in part.nodes)


def test_a_selection_cleared_before_execute_is_drift_too(fresh_sam, tmp_path):
    plate(fresh_sam, 4)
    run = controller(fresh_sam, tmp_path, SPEC, "transform_part", CALL)
    run.policy = run.policy.model_copy(update={"plan_wait": "always"})
    asyncio.run(run.submit(REQUEST, "part", TARGET, selection=PICKED))
    assert asyncio.run(run.confirm("part", TARGET, selection=PICKED)) is None  # the plan waits
    result = asyncio.run(run.execute("part", TARGET, selection=None))
    assert result.status == "failed" and result.submissions == 0
    assert "the selection changed since submit: 12 elements (labels 3-14) then, nothing now" \
        in result.error.message


def test_the_chinese_spec_says_the_selected_elements():
    from sam_plugin.compilers import registry
    from sam_plugin.compilers.spec.render import render_spec
    from sam_plugin.compilers.spec.vocabulary import selected_scope
    from tests.support.specs import spec

    vocabulary = registry.get_module("part").vocabulary
    the_spec = spec(step("translate", labels(*range(3, 15)), vector=[0.0, 0.0, 5.0]))
    with selected_scope("elements", range(3, 15)):
        assert "选中的 12 个单元" in render_spec(the_spec, vocabulary, "zh")
    assert "选中" not in render_spec(the_spec, vocabulary, "zh")
    with selected_scope("nodes", range(3, 15)):  # nodes picked: elements 3-14 are not them
        assert "selected" not in render_spec(the_spec, vocabulary, "en")


def test_without_a_selection_the_design_messages_are_the_bytes_they_always_were():
    from sam_plugin.compilers.protocol import Target
    from sam_plugin.runtime.run.collection import design_messages

    given = dict(system_prompt="PROMPT", mode="part",
                 target=Target(model_name="Model-1", part_name="Plate"), target_note="NOTE",
                 observation={"part": {"nodes": 25}}, exploration="", request="move it")
    # the user message as it was written before selections existed, spelled out
    before = ("Mode: part. Target: model 'Model-1', part 'Plate'.\nNOTE\n"
              'Workspace observation (JSON): {"part":{"nodes":25}}\n\nRequest:\nmove it')
    assert design_messages(**given) == [{"role": "system", "content": "PROMPT"},
                                        {"role": "user", "content": before}]
    assert design_messages(**given, selection="") == design_messages(**given)
    picked = design_messages(**given, selection=PICKED.prompt_line())
    assert picked[1]["content"] == before + "\n" + PICKED.prompt_line()
