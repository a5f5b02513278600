"""Advisory OS file locks: held by a live process, released when it exits or crashes.

``fcntl.flock`` on POSIX, ``msvcrt.locking`` on Windows. A lock is taken on an open file
description, so a second attempt conflicts even inside the same process (what tests need).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]  # no fcntl on Windows
    import msvcrt


class FileLock:
    """An exclusive lock on ``path`` (created when missing); :meth:`release`, its collection
    or process exit frees it."""

    def __init__(self, fd: int, path: Path) -> None:
        self._fd: int | None = fd
        self.path = path

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                _unlock(fd)
            os.close(fd)

    def __del__(self) -> None:
        # a lock nothing can reach any more is let go, as a file object closes its
        # descriptor when collected: a dropped run's lock must not hold a file open for good
        self.release()

    @property
    def held(self) -> bool:
        return self._fd is not None


def try_lock(path: Path, *, wait: bool = False) -> FileLock | None:
    """The lock on ``path``, or ``None`` when another holder has it (``wait`` blocks instead)."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        if _lock(fd, wait=wait):
            return FileLock(fd, Path(path))
    except BaseException:
        os.close(fd)
        raise
    os.close(fd)
    return None


def is_locked(path: Path) -> bool:
    """Whether a live holder has the lock on ``path`` (a missing file is not locked)."""
    if not Path(path).exists():
        return False
    lock = try_lock(path)
    if lock is None:
        return True
    lock.release()
    return False


@contextlib.contextmanager
def locked(path: Path) -> Iterator[FileLock]:
    """Hold the lock on ``path`` for the block, waiting for another holder to let go."""
    lock = try_lock(path, wait=True)
    assert lock is not None
    try:
        yield lock
    finally:
        lock.release()


def _lock(fd: int, *, wait: bool) -> bool:
    if fcntl is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            return False
        return True
    mode = msvcrt.LK_LOCK if wait else msvcrt.LK_NBLCK  # pragma: no cover - Windows
    try:  # pragma: no cover - Windows
        msvcrt.locking(fd, mode, 1)
    except OSError:  # pragma: no cover - Windows
        return False
    return True  # pragma: no cover - Windows


def _unlock(fd: int) -> None:
    if fcntl is not None:
        fcntl.flock(fd, fcntl.LOCK_UN)
    else:  # pragma: no cover - Windows
        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
