"""Evaluation tests: the process-wide ``sam.mdb`` is put back after each test."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:  # oracle.py
    sys.path.insert(0, HERE)


@pytest.fixture(autouse=True)
def restore_sam_database():
    import sam

    saved = sam.mdb
    yield
    sam.mdb = saved
