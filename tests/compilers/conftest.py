"""A fresh offline SAM database per test (the stub is on sys.path via tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture
def fresh_sam() -> Iterator[Any]:
    import sam
    from sam.database import Mdb

    saved = sam.mdb
    sam.mdb = Mdb()
    try:
        yield sam
    finally:
        sam.mdb = saved
        sam.session.viewports["Viewport: 1"].displayedObject = None
