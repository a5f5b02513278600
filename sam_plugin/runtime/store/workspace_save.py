"""``--save`` that cannot silently lose another process's work.

Two ``sam-agent run --save`` on one workspace both opened the same file; the later save
replaced the earlier one's build without a word. The files a save could clobber (the input
workspace and the output, when it already exists) are fingerprinted by content when the
workspace is opened; the save checks, holding an OS lock per file, that they are still what
was opened, and refuses otherwise.
"""

from __future__ import annotations

import contextlib
import hashlib
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sam_plugin.errors import SaveConflict as SaveConflict
from sam_plugin.runtime.store.file_lock import locked


def content_hash(path: Path) -> str | None:
    """SHA-256 of the file's bytes; ``None`` when there is no such file."""
    try:
        with Path(path).open("rb") as handle:
            return hashlib.file_digest(handle, "sha256").hexdigest()
    except FileNotFoundError:
        return None


@dataclass
class OpenedWorkspace:
    """What the run opened, and what the save may replace, as they were at opening."""

    workspace: Path
    seen: dict[Path, str | None] = field(default_factory=dict)

    @classmethod
    def opened(cls, workspace: Path, save_to: Path | None = None) -> OpenedWorkspace:
        record = cls(Path(workspace))
        for path in (record.workspace, save_to):
            if path is not None:
                record.seen[_key(path)] = content_hash(path)
        return record

    def changed(self) -> list[str]:
        """What is no longer as it was opened, in words."""
        found = []
        for path, digest in self.seen.items():
            now = content_hash(path)
            if now == digest:
                continue
            if digest is None:
                found.append(f"{path} was created since the workspace was opened")
            elif now is None:
                found.append(f"{path} was removed since the workspace was opened")
            else:
                found.append(f"{path} changed since the workspace was opened")
        return found

    def save(self, mdb: Any, path: Path) -> None:
        """``mdb.saveAs(path)`` unless a file it would replace changed since opening (another
        process saved?); raises :class:`SaveConflict` then, writing nothing."""
        path = Path(path)
        self.seen.setdefault(_key(path), None)
        with contextlib.ExitStack() as stack:
            for key in sorted(self.seen):  # one order everywhere: two savers never deadlock
                stack.enter_context(locked(_lock_path(key)))
            changed = self.changed()
            if changed:
                raise SaveConflict(
                    "; ".join(changed) + " (another process saved it?). Nothing was written, "
                    "so that change is not lost"
                )
            mdb.saveAs(str(path))
            self.seen[_key(path)] = content_hash(path)


def _key(path: Path) -> Path:
    return Path(path).resolve()


def _lock_path(key: Path) -> Path:
    """A lock per file, outside the analyst's folders (which may not exist yet)."""
    digest = hashlib.sha256(str(key).encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return Path(tempfile.gettempdir()) / f"sam-agent-save-{digest}.lock"
