"""The CLI and the dock find the runs directory by one rule (runtime.settings_store)."""

from __future__ import annotations

import argparse

import platformdirs

from sam_plugin.cli import run as cli
from sam_plugin.runtime.config import store as settings
from sam_plugin.ui import settings_store


def test_the_cli_and_the_dock_default_to_the_same_runs_directory(monkeypatch, tmp_path):
    assert settings_store.runs_dir_from_env is settings.runs_dir_from_env
    no_flag = argparse.Namespace(runs_dir=None)
    monkeypatch.setenv(settings.ENV_RUNS_DIR, str(tmp_path))
    assert cli._runs_dir(no_flag) == tmp_path == settings_store.runs_dir_from_env()
    monkeypatch.setenv(settings.ENV_RUNS_DIR, "  ")
    expected = settings.runs_dir_from_env({})
    assert expected.parts[-2:] == ("sam-agent", "runs")
    assert str(expected).startswith(platformdirs.user_data_dir())
    assert cli._runs_dir(no_flag) == expected
    assert cli._runs_dir(argparse.Namespace(runs_dir=tmp_path / "flag")) == tmp_path / "flag"
