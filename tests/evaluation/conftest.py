"""Evaluation tests: the process-wide ``sam.mdb`` is put back after each test."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def restore_sam_database():
    import sam

    saved = sam.mdb
    yield
    sam.mdb = saved
