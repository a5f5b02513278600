"""Run files only their owner can read: directories 0700, files 0600 (docs/architecture.md §7).

A run directory holds the analyst's request, the model's answers and a snapshot of their
part: nothing another account on the machine should read. Modes are set at creation (not
after, so there is no window), and have no effect where the OS has no POSIX modes.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO, Any

DIR_MODE = 0o700
FILE_MODE = 0o600
POSIX = os.name == "posix"


def make_dir(path: Path, *, exist_ok: bool = False) -> None:
    """``path`` created 0700 (its missing parents too, with the usual mode)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.mkdir(mode=DIR_MODE, exist_ok=exist_ok)


def write_file(path: Path, data: bytes) -> Path:
    """``data`` to ``path`` complete or not at all (a temporary file, then a rename), 0600."""
    temp = path.with_name(path.name + ".tmp")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
    if POSIX:
        os.chmod(temp, FILE_MODE)  # an existing temp file keeps its old mode under O_CREAT
    os.replace(temp, path)
    return path


def open_append(path: Path, *, binary: bool = False) -> IO[Any]:
    """``path`` opened to append, created 0600 when missing."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, FILE_MODE)
    if binary:
        return os.fdopen(fd, "ab")
    return os.fdopen(fd, "a", encoding="utf-8")


def is_private(path: Path) -> bool:
    """Whether ``path`` has the mode this module gives (always True without POSIX modes)."""
    return not POSIX or (path.stat().st_mode & 0o777) == FILE_MODE
