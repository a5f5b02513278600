"""Rerun test set-up: ``rerun_support`` importable, a fresh offline SAM database per test."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.support.pipeline import fresh_database

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)

fresh_sam = pytest.fixture(fresh_database)
