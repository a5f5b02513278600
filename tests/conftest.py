"""Shared test set-up: the offline SAM (``stubs/``) is put on ``sys.path`` for tests only.

``stubs/`` must never be installed into site-packages: inside the real SAM it would shadow
the host's own ``sam`` module (docs/architecture.md §2).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STUBS = ROOT / "stubs"
if str(STUBS) not in sys.path:
    sys.path.insert(0, str(STUBS))

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
for _var in ("SAM_AGENT_BASE_URL", "SAM_AGENT_API_KEY", "SAM_AGENT_MODEL", "SAM_AGENT_RUNS_DIR",
             "SAM_AGENT_PROFILE", "SAM_AGENT_REPLAY"):
    os.environ.pop(_var, None)
# The tests written before calls were computed from the spec drive the model's collection
# rounds (scripted tool-call answers): they run under ``calls: model``. A test of computed
# calls says so itself (``calls_from_spec`` below, or ``RunPolicy(calls="spec")``).
os.environ["SAM_AGENT_CALLS"] = "model"
# the CLI and the dock read the settings the dock saved: never the developer's own file
os.environ["SAM_AGENT_SETTINGS_FILE"] = str(
    Path(tempfile.mkdtemp(prefix="sam-agent-test-settings-")) / "settings.json")

# the local model's home (sam-agent local): never the developer's own cache
os.environ["SAM_AGENT_LLM_HOME"] = str(
    Path(tempfile.mkdtemp(prefix="sam-agent-test-llm-")) / "llm")

pytest_plugins = ["tests.support.fixtures"]


@pytest.fixture
def calls_from_spec(monkeypatch):
    """The product's default: the tool calls computed from the confirmed steps."""
    monkeypatch.setenv("SAM_AGENT_CALLS", "spec")


@pytest.fixture(autouse=True)
def _private_settings_file(tmp_path_factory, monkeypatch):
    """Each test its own (absent) settings file: a choice saved by one never leaks."""
    path = tmp_path_factory.mktemp("settings") / "settings.json"
    monkeypatch.setenv("SAM_AGENT_SETTINGS_FILE", str(path))
