"""Workspace and request-file paths that are not files say what they are (issue 15)."""

from __future__ import annotations

import os

import pytest
from cli_support import base_args, run_cli


@pytest.mark.parametrize("flag", ["--workspace", "--request-file"])
def test_a_character_device_is_named_as_such(tmp_path, capsys, provider_env, flag):
    args = _args(tmp_path, flag, "/dev/zero")
    run = run_cli(args, capsys)
    assert run.code == 2
    assert f"{flag}: /dev/zero is a character device, not a file" in run.err
    assert "no such file" not in run.err


@pytest.mark.parametrize("flag", ["--workspace", "--request-file"])
def test_a_symlink_loop_is_named_as_such(tmp_path, capsys, provider_env, flag):
    loop = tmp_path / "loop.sam.json"
    os.symlink(loop, loop)
    run = run_cli(_args(tmp_path, flag, str(loop)), capsys)
    assert run.code == 2
    assert f"{flag}: {loop} is a symbolic link loop (following it leads back to itself)" in run.err


def test_a_fifo_and_a_broken_link_are_named(tmp_path, capsys, provider_env):
    fifo = tmp_path / "pipe.sam.json"
    os.mkfifo(fifo)
    run = run_cli(_args(tmp_path, "--workspace", str(fifo)), capsys)
    assert f"--workspace: {fifo} is a named pipe (FIFO), not a file" in run.err
    broken = tmp_path / "gone.sam.json"
    os.symlink(tmp_path / "nowhere", broken)
    run = run_cli(_args(tmp_path, "--workspace", str(broken)), capsys)
    assert f"{broken} is a broken symbolic link (to {tmp_path / 'nowhere'}" in run.err


def test_a_missing_file_is_still_no_such_file(tmp_path, capsys, provider_env):
    run = run_cli(_args(tmp_path, "--workspace", str(tmp_path / "absent.sam.json")), capsys)
    assert f"--workspace: no such file {tmp_path / 'absent.sam.json'}" in run.err


def _args(tmp_path, flag: str, value: str) -> list[str]:
    from cli_support import new_workspace

    workspace = value if flag == "--workspace" else str(new_workspace(tmp_path / "w.sam.json"))
    args = base_args(workspace, tmp_path / "runs")
    args[2] = workspace
    request = ["--request-file", value] if flag == "--request-file" else ["--request", "q"]
    return args + request + ["--yes"]
