"""Restore and undo tests: ``restore_support`` importable; the process-wide database put back."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)


@pytest.fixture(autouse=True)
def fresh_sam_database():
    import sam
    from sam.database import Mdb

    saved = sam.mdb
    sam.mdb = Mdb()
    yield sam
    sam.mdb = saved
    sam.session.viewports["Viewport: 1"].displayedObject = None
