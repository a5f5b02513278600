"""A fresh offline SAM database per test (the stub is on sys.path via tests/conftest.py)."""

from __future__ import annotations

import pytest

from tests.support.pipeline import fresh_database

fresh_sam = pytest.fixture(fresh_database)
