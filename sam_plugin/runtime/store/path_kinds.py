"""What a path the user named is, when it is not a regular file to read.

``Path.is_file()`` is false for a device, a FIFO and a symlink loop alike, and "no such file"
is then wrong; worse, reading ``/dev/zero`` or a FIFO never ends. Asked before anything reads.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

_KINDS = (
    (stat.S_ISDIR, "is a directory"),
    (stat.S_ISCHR, "is a character device, not a file"),
    (stat.S_ISBLK, "is a block device, not a file"),
    (stat.S_ISFIFO, "is a named pipe (FIFO), not a file"),
    (stat.S_ISSOCK, "is a socket, not a file"),
)


def not_a_file(path: Path) -> str | None:
    """Why ``path`` cannot be read as a file (``"<path> is a ..."`` or ``"no such file
    <path>"``), or ``None`` for a regular file (through symlinks)."""
    try:
        mode = path.stat().st_mode
    except OSError as error:
        return _unreadable(path, error)
    for test, words in _KINDS:
        if test(mode):
            return f"{path} {words}"
    if not stat.S_ISREG(mode):
        return f"{path} is not a regular file"
    return None


def _unreadable(path: Path, error: OSError) -> str:
    if error.errno == errno.ELOOP:
        return f"{path} is a symbolic link loop (following it leads back to itself)"
    if error.errno == errno.ENOENT and path.is_symlink():
        return f"{path} is a broken symbolic link (to {os.readlink(path)}, which does not exist)"
    if error.errno == errno.ENOENT:
        return f"no such file {path}"
    if error.errno == errno.ENOTDIR:
        return f"{path}: a part of the path is a file, not a directory"
    if error.errno == errno.EACCES:
        return f"{path}: permission denied"
    return f"{path}: {error.strerror or error}"
