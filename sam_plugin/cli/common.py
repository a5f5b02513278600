"""What several commands share: the exit codes, the ``sam`` module (the host's, else the
offline stub, said out loud), opening a workspace, the ``--save`` and ``--runs-dir`` paths
(docs/architecture.md §6)."""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from sam_plugin.errors import UsageError

if TYPE_CHECKING:
    from sam_plugin.runtime.store.run_store import SaveOutcome
    from sam_plugin.runtime.store.workspace_save import OpenedWorkspace

EXIT_VERIFIED = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_REVIEW = 3
EXIT_INTERRUPTED = 130


class VisibleStream:
    """A text stream whose writes pass :func:`visible_text` (no terminal control or bidi
    characters: a stored request once retitled the window and cleared the screen) and hold no
    run of ``secrets`` (the API key of the environment, and each value of the command line
    shaped like a key: ``key_shape``); anything else is the wrapped stream's. JSON output is
    escaped before it gets here (``visible_json``), so it reaches the terminal as the same
    data."""

    def __init__(self, stream: TextIO, secrets: Sequence[str] = ()) -> None:
        from sam_plugin.runtime.store.scrubber import Scrubber

        self._stream = stream
        # the API key and what looks like one in the command line, never shown
        self._scrubbers = [s for s in map(Scrubber, dict.fromkeys(secrets)) if s.active]

    def write(self, text: str) -> int:
        from sam_plugin.runtime.text_safety import visible_text

        shown = visible_text(text)
        for scrubber in self._scrubbers:
            shown = scrubber.text(shown)
        self._stream.write(shown)
        return len(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def import_sam(err: TextIO) -> Any:
    """The host's ``sam`` when one is importable; else the offline SAM (``stubs/``, or its
    copy in the wheel), put on the path and said out loud (sam_plugin/offline_sam.py)."""
    from sam_plugin.errors import OfflineSamMissing
    from sam_plugin.offline_sam import host_sam_origin, use_offline_sam

    if host_sam_origin() is None:
        try:
            folder = use_offline_sam()
        except OfflineSamMissing as error:
            raise UsageError(str(error)) from None
        print(f"sam-agent: using the offline SAM stub from {folder}", file=err)
    return importlib.import_module("sam")


def open_workspace(sam: Any, path: Path, save_path: Path | None) -> OpenedWorkspace:
    """Open ``path`` into ``sam``; what it (and the save target) held is fingerprinted first,
    so that ``--save`` can tell when another process wrote them meanwhile."""
    from sam_plugin.runtime.store.path_kinds import not_a_file
    from sam_plugin.runtime.store.workspace_save import OpenedWorkspace
    from sam_plugin.samops.gc_pause import collector_paused

    problem = not_a_file(path)
    if problem is not None:
        raise UsageError(f"--workspace: {problem}; give a *.sam.json file"
                         if not problem.startswith("no such file") else f"--workspace: {problem}")
    opened = OpenedWorkspace.opened(path, save_path)
    try:
        # a big workspace is hundreds of thousands of entities made at once: no collection
        # walks them meanwhile, nor after (samops/gc_pause.py; 0.1 s of 1.9 on the 188k part)
        with collector_paused():
            sam.openMdb(str(path))
    except Exception as error:  # the host's own message says what is wrong with the file
        reason = str(error).removeprefix(f"cannot open {str(path)!r}: ")
        raise UsageError(f"--workspace: cannot open {path} ({reason})") from None
    return opened


def check_save_path(path: Path) -> Path:
    """The file ``--save`` will write, exactly as given, checked before anything runs so that
    a verified run is never left unsaved for a typo. A name SAM would change (``saveAs``
    appends ``.sam.json``) and a folder that does not exist are usage errors: the analyst
    finds the database where they said, and no folder appears that they did not make."""
    if path.is_dir():
        raise UsageError(f"--save: {path} is a directory; give a file name such as "
                         f"{path / 'out.sam.json'}")
    if not path.name.endswith(".sam.json") or path.name == ".sam.json":
        raise UsageError(f"--save: {path} does not end in .sam.json, and SAM saves a database "
                         f"only under that ending (it would write {path.name}.sam.json); give "
                         f"the name to write, such as {path.with_name(_sam_name(path.name))}")
    existing = next(p for p in (path.parent, *path.parent.parents) if p.exists() or p == p.parent)
    if existing.is_dir() and existing != path.parent:
        raise UsageError(f"--save: cannot write {path}: the folder {path.parent} does not "
                         "exist; create it first, or save into a folder that exists")
    if not existing.is_dir() or not _can_create_in(existing):
        raise UsageError(f"--save: cannot write {path} ({existing} is not a writable directory)")
    return path


def _sam_name(name: str) -> str:
    """``out.json`` -> ``out.sam.json``: the name with SAM's ending in place of its own."""
    stem = name.removesuffix(".json").removesuffix(".sam")
    return f"{stem or 'out'}.sam.json"


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


def warn_recovered_runs(run_ids: Sequence[str], err: TextIO) -> None:
    """The runs a controller found submitted without an outcome (I8), said once each."""
    for run_id in run_ids:
        print(
            f"warning: run {run_id} was submitted but its outcome was never recorded; the part "
            "may or may not have been modified. Re-observe it; the run is never resubmitted "
            f"(said once; sam-agent runs --ack {run_id} when you have checked it).",
            file=err,
        )


def save_database(host: Any, path: Path, opened: OpenedWorkspace, err: TextIO) -> SaveOutcome:
    """Write the database to ``path`` after a verified run; a file another process wrote
    since the workspace was opened is not replaced (the outcome says so)."""
    from sam_plugin.runtime.store.run_store import SaveOutcome
    from sam_plugin.runtime.store.workspace_save import SaveConflict

    try:
        opened.save(host.mdb, path)
    except SaveConflict as conflict:
        message = f"not saved: {conflict}"
    except Exception as error:
        message = f"saving failed: {error}"
    else:
        saved_as = str(getattr(host.mdb, "pathName", None) or path)
        print(f"saved: {saved_as}", file=err)
        return SaveOutcome(path=saved_as, saved=True)
    print(f"sam-agent: the run is verified, but {path} was {message}; the change is only in "
          "this process's database and is lost when it exits", file=err)
    return SaveOutcome(path=str(path), saved=False, message=message)
