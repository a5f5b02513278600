"""The collector and bulk mesh data (samops/gc_pause.py): no collection during bulk work, no
collection walking what it leaves alive afterwards (frozen), and given back at the end of a
run so that a cycle that became garbage meanwhile is still collected."""

from __future__ import annotations

import asyncio
import gc
from pathlib import Path
from typing import Any

import pytest

from sam_plugin.samops.gc_pause import collector_paused, release
from tests.support.pipeline import fresh_database
from tests.support.scripted import TARGET, plate, submitted
from tests.support.specs import answer, step

fresh_sam = pytest.fixture(fresh_database)


def test_what_bulk_work_leaves_is_frozen_and_released() -> None:
    release()
    with collector_paused():
        assert not gc.isenabled()
        made = [[i] for i in range(10_000)]  # the many small objects of a bulk copy
    assert gc.isenabled()
    assert gc.get_freeze_count() >= len(made)  # out of every generation: never walked
    release()
    assert gc.get_freeze_count() == 0


def test_pauses_nest_and_keep_a_disabled_collector_disabled() -> None:
    gc.disable()
    try:
        with collector_paused(), collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
        release()


def test_a_run_gives_the_frozen_data_back_when_it_ends(fresh_sam: Any, tmp_path: Path) -> None:
    plate(fresh_sam, 4)
    controller = submitted(fresh_sam, tmp_path, "part", "move the last node 25 to (4, 4.5, 0)",
                           answer(step("move_nodes", labels=[25], to=[4.0, 4.5, 0.0])),
                           "edit_part", {"move_nodes": [{"label": 25,
                                                         "coordinates": [4.0, 4.5, 0.0]}]})
    assert gc.get_freeze_count() > 0  # the observation's read
    result = asyncio.run(controller.confirm("part", TARGET))
    assert result.status == "verified"
    assert gc.get_freeze_count() == 0
