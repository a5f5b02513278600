"""The CLI and the dock find the runs directory by one rule (runtime/config/store.py)."""

from __future__ import annotations

import argparse

import platformdirs

from sam_plugin.cli import common as cli
from sam_plugin.runtime.config import env
from sam_plugin.runtime.config import store as settings
from sam_plugin.ui import host_adapter


def test_the_cli_and_the_dock_default_to_the_same_runs_directory(monkeypatch, tmp_path):
    assert host_adapter.runs_dir_from_env is settings.runs_dir_from_env
    no_flag = argparse.Namespace(runs_dir=None)
    monkeypatch.setenv(env.RUNS_DIR, str(tmp_path))
    assert cli.runs_dir_of(no_flag) == tmp_path == host_adapter.runs_dir_from_env()
    monkeypatch.setenv(env.RUNS_DIR, "  ")
    expected = settings.runs_dir_from_env({})
    assert expected.parts[-2:] == ("sam-agent", "runs")
    assert str(expected).startswith(platformdirs.user_data_dir())
    assert cli.runs_dir_of(no_flag) == expected
    assert cli.runs_dir_of(argparse.Namespace(runs_dir=tmp_path / "flag")) == tmp_path / "flag"
