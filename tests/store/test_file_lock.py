"""The run's OS lock (runtime/store/file_lock.py): held while its holder can reach it."""

from __future__ import annotations

import gc
import os

from sam_plugin.runtime.store.file_lock import is_locked, try_lock


def open_files() -> int:
    return len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else 0


def test_a_lock_nothing_can_reach_is_let_go_and_its_file_closed(tmp_path):
    path = tmp_path / "run.lock"
    before = open_files()
    lock = try_lock(path)
    assert lock is not None and is_locked(path)
    del lock
    gc.collect()
    assert not is_locked(path)
    assert open_files() <= before


def test_a_lock_released_twice_or_then_collected_closes_its_file_once(tmp_path):
    lock = try_lock(tmp_path / "run.lock")
    assert lock is not None
    lock.release()
    lock.release()
    del lock
    gc.collect()
    assert not is_locked(tmp_path / "run.lock")
