"""What several commands share: the exit codes, the ``sam`` module (the host's, else the
offline stub, said out loud), opening a workspace, the ``--save`` and ``--runs-dir`` paths
(docs/architecture.md §6)."""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import sam_plugin
from sam_plugin.errors import UsageError

if TYPE_CHECKING:
    from sam_plugin.runtime.store.workspace_save import OpenedWorkspace

EXIT_VERIFIED = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_REVIEW = 3
EXIT_INTERRUPTED = 130


def stubs_dir() -> Path:
    return Path(sam_plugin.__file__).resolve().parents[1] / "stubs"


def import_sam(err: TextIO) -> Any:
    """The host's ``sam`` when one is importable; else the offline stub, said out loud."""
    stubs = stubs_dir()
    spec = importlib.util.find_spec("sam")
    if spec is None:
        if not (stubs / "sam").is_dir():
            raise UsageError(f"no SAM module: not inside SAM and no offline stub at {stubs}")
        sys.path.insert(0, str(stubs))
        importlib.invalidate_caches()
        spec = importlib.util.find_spec("sam")
    origin = Path(spec.origin).resolve() if spec and spec.origin else None
    if origin is not None and stubs in origin.parents:
        print(f"sam-agent: using the offline SAM stub from {stubs}", file=err)
    return importlib.import_module("sam")


def open_workspace(sam: Any, path: Path, save_path: Path | None) -> OpenedWorkspace:
    """Open ``path`` into ``sam``; what it (and the save target) held is fingerprinted first,
    so that ``--save`` can tell when another process wrote them meanwhile."""
    from sam_plugin.runtime.store.path_kinds import not_a_file
    from sam_plugin.runtime.store.workspace_save import OpenedWorkspace

    problem = not_a_file(path)
    if problem is not None:
        raise UsageError(f"--workspace: {problem}; give a *.sam.json file"
                         if not problem.startswith("no such file") else f"--workspace: {problem}")
    opened = OpenedWorkspace.opened(path, save_path)
    try:
        sam.openMdb(str(path))
    except Exception as error:  # the host's own message says what is wrong with the file
        reason = str(error).removeprefix(f"cannot open {str(path)!r}: ")
        raise UsageError(f"--workspace: cannot open {path} ({reason})") from None
    return opened


def check_save_path(path: Path) -> Path:
    """The file ``--save`` will write (``.sam.json`` appended like SAM does), checked before
    anything runs so that a verified run is never left unsaved for a typo."""
    if path.is_dir():
        raise UsageError(f"--save: {path} is a directory; give a file name such as "
                         f"{path / 'out.sam.json'}")
    if not path.name.endswith(".sam.json"):
        path = path.with_name(path.name + ".sam.json")
    existing = next(p for p in (path.parent, *path.parent.parents) if p.exists() or p == p.parent)
    if not existing.is_dir() or not _can_create_in(existing):
        raise UsageError(f"--save: cannot write {path} ({existing} is not a writable directory)")
    return path


def _can_create_in(directory: Path) -> bool:
    """Really try (``os.access`` says yes to root everywhere, even under /proc)."""
    try:
        with tempfile.TemporaryFile(dir=directory):
            return True
    except OSError:
        return False


def runs_dir_of(args: argparse.Namespace) -> Path:
    """``--runs-dir``, else the rule the dock follows (``SAM_AGENT_RUNS_DIR``, else per user)."""
    from sam_plugin.runtime.config.store import runs_dir_from_env

    return Path(args.runs_dir) if args.runs_dir else runs_dir_from_env()


def repair_count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number (0 to 10)") from None
    if not 0 <= value <= 10:
        raise argparse.ArgumentTypeError(f"{value} is out of range; legal: 0 to 10")
    return value


def names(items: Sequence[str]) -> str:
    return ", ".join(repr(n) for n in items) if items else "none"
