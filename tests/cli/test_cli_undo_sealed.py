"""Undo that cannot be steered (docs/architecture.md §7 ``undo_snapshot``): a snapshot that is
not the one kept for the run — replaced (with a matching result.json), too large for the run's
counts, random bytes, without its meta, or holding a pickled object — is refused in one line,
exit 1, before anything is loaded, and nothing is changed or saved."""

from __future__ import annotations

import io
import json
import os
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from cli_support import run_cli
from test_cli_undo import _verified_edit

from sam_plugin.samops import snapshot_file
from sam_plugin.samops.snapshot_delta import NodeColumns, PartDelta


def _undo(tmp_path: Path, capsys: Any, edited: Path, run_id: str) -> Any:
    out = tmp_path / "undone.sam.json"
    run = run_cli(["undo", run_id, "--workspace", str(edited), "--save", str(out),
                   "--runs-dir", str(tmp_path / "runs")], capsys)
    return run, out


def _result(tmp_path: Path, run_id: str) -> dict[str, Any]:
    return json.loads((tmp_path / "runs" / run_id / "result.json").read_text())


def _rewrite(tmp_path: Path, run_id: str, **changes: Any) -> None:
    """A tamperer who also edits result.json to match the file it put in place."""
    path = tmp_path / "runs" / run_id / "result.json"
    data = json.loads(path.read_text())
    data.update(changes)
    path.write_text(json.dumps(data))


def _refused_in_one_line(run: Any, out: Path, words: str) -> None:
    assert run.code == 1, run.out + run.err
    lines = [line for line in run.err.splitlines()
             if line.strip() and "using the offline SAM stub" not in line]
    assert len(lines) == 1 and lines[0].startswith("sam-agent: undo refused:"), run.err
    assert words in lines[0], lines[0]
    assert "Traceback" not in run.err
    assert not out.exists()


def test_a_replaced_snapshot_with_a_matching_result_is_refused(tmp_path, capsys, provider_env):
    _, edited, run_id = _verified_edit(tmp_path, capsys, provider_env)
    path = tmp_path / "runs" / run_id / "snapshot.npz"
    forged = PartDelta(part_name="Plate", part_existed=True, definitions=None,
                       node_count=4, node_tail=NodeColumns.of(
                           range(1, 5), [(9.0, 9.0, float(k)) for k in range(1, 5)]))
    size = snapshot_file.save_delta(forged, path)
    kept = _result(tmp_path, run_id)["undo_snapshot"]
    kept.update(bytes=size, members=snapshot_file.member_sizes(path))
    before = _result(tmp_path, run_id)["before"]
    _rewrite(tmp_path, run_id, undo_snapshot=kept,
             before={**before, "fingerprint": _result(tmp_path, run_id)["before"]["fingerprint"]})
    run, out = _undo(tmp_path, capsys, edited, run_id)
    _refused_in_one_line(run, out, "the seal does not match")
    assert _result(tmp_path, run_id)["status"] == "verified"


def test_a_snapshot_larger_than_the_run_is_refused_before_it_is_read(
        tmp_path, capsys, provider_env, monkeypatch):
    _, edited, run_id = _verified_edit(tmp_path, capsys, provider_env)
    path = tmp_path / "runs" / run_id / "snapshot.npz"
    honest = snapshot_file.load_delta(path)
    # a million nodes of zeros compress to almost nothing
    buffer = io.BytesIO()
    with zipfile.ZipFile(path) as original, zipfile.ZipFile(
            buffer, "w", zipfile.ZIP_DEFLATED) as bomb:
        for info in original.infolist():
            if info.filename == "node_tail_points.npy":
                member = io.BytesIO()
                np.lib.format.write_array(member, np.zeros((1_000_000, 3)))
                bomb.writestr(info.filename, member.getvalue())
            else:
                bomb.writestr(info.filename, original.read(info))
    path.write_bytes(buffer.getvalue())
    assert path.stat().st_size < 200_000 and honest.node_count < 10
    kept = _result(tmp_path, run_id)["undo_snapshot"]
    kept.update(bytes=path.stat().st_size, members=snapshot_file.member_sizes(path))
    _rewrite(tmp_path, run_id, undo_snapshot=kept)

    def never(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("an array was read from a refused snapshot")

    monkeypatch.setattr(np.lib.format, "read_array", never)
    run, out = _undo(tmp_path, capsys, edited, run_id)
    _refused_in_one_line(run, out, "more than the run's recorded counts allow")


def _damaged(path: Path, damage: str) -> None:
    if damage == "random bytes":
        path.write_bytes(os.urandom(4096))
        return
    buffer = io.BytesIO()
    with zipfile.ZipFile(path) as original, zipfile.ZipFile(buffer, "w") as changed:
        for info in original.infolist():
            if info.filename == "meta.npy":
                if damage == "no meta":
                    continue
                member = io.BytesIO()
                np.lib.format.write_array(member, np.array([{"x": 1}], dtype=object),
                                          allow_pickle=True)
                changed.writestr(info.filename, member.getvalue())
            else:
                changed.writestr(info.filename, original.read(info))
    path.write_bytes(buffer.getvalue())


DAMAGES = ["random bytes", "no meta", "pickled object"]


@pytest.mark.parametrize("damage", DAMAGES)
@pytest.mark.parametrize("sizes_edited", [False, True], ids=["as-is", "result-edited"])
def test_a_damaged_snapshot_is_refused_in_one_line(tmp_path, capsys, provider_env, damage,
                                                   sizes_edited):
    _, edited, run_id = _verified_edit(tmp_path, capsys, provider_env)
    path = tmp_path / "runs" / run_id / "snapshot.npz"
    _damaged(path, damage)
    if sizes_edited:  # a tamperer who makes result.json state the new sizes
        kept = _result(tmp_path, run_id)["undo_snapshot"]
        try:
            members = snapshot_file.member_sizes(path)
        except zipfile.BadZipFile:
            members = kept["members"]
        kept.update(bytes=path.stat().st_size, members=members)
        _rewrite(tmp_path, run_id, undo_snapshot=kept)
    run, out = _undo(tmp_path, capsys, edited, run_id)
    _refused_in_one_line(run, out, "snapshot.npz")
    assert _result(tmp_path, run_id)["status"] == "verified"


@pytest.mark.parametrize("damage", DAMAGES)
def test_a_damaged_file_read_directly_says_so_in_one_line(tmp_path, capsys, provider_env,
                                                          damage):
    _, _, run_id = _verified_edit(tmp_path, capsys, provider_env)
    path = tmp_path / "runs" / run_id / "snapshot.npz"
    _damaged(path, damage)
    with pytest.raises(ValueError) as refused:
        snapshot_file.load_delta(path)
    assert "\n" not in str(refused.value) and str(refused.value).startswith(f"snapshot {path}")


def test_the_sealing_secret_is_kept_beside_the_settings_0600(tmp_path, capsys, provider_env):
    from sam_plugin.runtime.config.store import default_settings_path

    _verified_edit(tmp_path, capsys, provider_env)
    key = default_settings_path().parent / "snapshot.key"
    assert key.is_file()
    if os.name == "posix":
        assert key.stat().st_mode & 0o777 == 0o600
