"""CLI test set-up: ``cli_support`` importable, provider env pointed at the loopback fake."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from cli_support import API_KEY  # noqa: E402


@pytest.fixture
def provider_env(fake_provider, monkeypatch):
    monkeypatch.setenv("SAM_AGENT_BASE_URL", fake_provider.base_url)
    monkeypatch.setenv("SAM_AGENT_API_KEY", API_KEY)
    monkeypatch.setenv("SAM_AGENT_MODEL", "fake-model")
    monkeypatch.setenv("SAM_AGENT_PROFILE", "generic")
    return fake_provider


@pytest.fixture(autouse=True)
def restore_sam_database():
    """The CLI opens workspaces into the process-wide ``sam.mdb``; put the old one back."""
    import sam

    saved = sam.mdb
    yield
    sam.mdb = saved
