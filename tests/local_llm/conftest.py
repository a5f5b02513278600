"""Every test here has its own local-model home and the fake source and model pinned."""

from __future__ import annotations

from pathlib import Path

import pytest

from sam_plugin.local_llm.home import LocalHome
from sam_plugin.runtime.config.env import LLM_HOME as HOME_VARIABLE
from tests.support.fake_llama_build import pin_fakes


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> LocalHome:
    root = tmp_path / "cache" / "llm"
    monkeypatch.setenv(HOME_VARIABLE, str(root))
    pin_fakes(monkeypatch)
    return LocalHome(root)
