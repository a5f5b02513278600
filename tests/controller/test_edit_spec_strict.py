"""The dock's JSON edit (``RunController.edit_spec``) is read by the strict reader a
``--spec`` file and an MCP agent's arguments meet (docs/architecture.md §4 "The spec"):
nesting at most 64 levels, no lone surrogate, and a refusal object is no spec. Each is one
problem the spec editor shows, and the standing spec stays. On main a refusal raised
``DesignRefused``, 9,000 levels raised ``RecursionError`` and a lone ``\\ud800`` raised
``UnicodeEncodeError`` out of ``edit_spec``."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from controller_fakes import TARGET, ScriptedProvider, design, policy, settings

from sam_plugin.errors import SpecRejected
from sam_plugin.runtime.host_gateway import HostGateway
from sam_plugin.runtime.run.controller import RunController
from sam_plugin.runtime.run.phases import Phase
from tests.support.pipeline import fresh_database
from tests.support.plates import quad_plate
from tests.support.specs import answer, named_set, step

fresh_sam = pytest.fixture(fresh_database)
FIRST = answer(step("translate", named_set("S1"), vector=[5, 0, 0]))


def _in_review(sam: Any, tmp_path: Path) -> RunController:
    part = quad_plate(sam.mdb.models["Model-1"], "Plate", 2)
    part.Set(name="S1", elements=part.elements[0:2])
    controller = RunController(runs_dir=tmp_path / "runs", settings=settings(),
                               policy=policy(calls="spec"), host=HostGateway(sam),
                               provider_factory=ScriptedProvider(design(FIRST)).factory)
    asyncio.run(controller.submit("Translate set S1 by (5, 0, 0).", "part", TARGET))
    assert controller.phase == Phase.REVIEW
    return controller


def _deep(levels: int) -> str:
    return '{"a": ' * levels + "1" + "}" * levels


SURROGATE = json.loads(FIRST)
SURROGATE["summary"] = "lift \ud800"


@pytest.mark.parametrize("edit,problem", [
    ({"refuse": "no"}, 'the edit holds {"refuse": ...}, how a model declines a request, not a '
                       'spec; write the spec as {"summary": ..., "steps": [...]}'),
    ('{"refuse": "no"}', 'the edit holds {"refuse": ...}, how a model declines a request, not '
                         'a spec; write the spec as {"summary": ..., "steps": [...]}'),
    (SURROGATE, "summary holds a lone surrogate (\\ud800), which is no character; write the "
                "text as UTF-8"),
    ("[" * 9000 + "]" * 9000, "nested deeper than 64 levels; nothing was read"),
    (_deep(65), "nested deeper than 64 levels; nothing was read"),
])
def test_an_edit_the_strict_reader_refuses_is_one_problem(fresh_sam, tmp_path, edit, problem):
    controller = _in_review(fresh_sam, tmp_path)
    before = controller.spec_text
    with pytest.raises(SpecRejected) as refused:
        controller.edit_spec(edit)
    assert refused.value.problems == [problem]
    assert controller.spec_text == before and controller.phase == Phase.REVIEW
