"""``sam-agent undo RUN_ID --workspace W.sam.json --save OUT.sam.json [--runs-dir DIR]``.

Undoes a verified run on a saved database: the run's ``snapshot.npz`` puts the part back,
but only while the workspace's part still has the run's after-fingerprint (exit 1
otherwise, nothing written). The result becomes ``undone``; ``run_undone`` is logged.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from sam_plugin.cli.common import check_save_path, import_sam, open_workspace, runs_dir_of

if TYPE_CHECKING:
    from sam_plugin.runtime.store.run_store import RunDir

EXIT_UNDONE = 0
EXIT_REFUSED = 1


def add_parser(commands: Any) -> None:
    undo = commands.add_parser(
        "undo",
        help="undo a verified run on a saved database",
        description="Put the part back as it was before RUN_ID, from the snapshot the run "
        "kept; refused when the part changed since the run.",
    )
    undo.add_argument("run_id", metavar="RUN_ID")
    undo.add_argument("--workspace", required=True, type=Path, metavar="W.sam.json")
    undo.add_argument("--save", required=True, type=Path, metavar="OUT.sam.json",
                      help="write the database here after the undo")
    undo.add_argument("--runs-dir", type=Path, metavar="DIR")
    undo.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    save_path = check_save_path(args.save)
    sam = import_sam(sys.stderr)
    open_workspace(sam, args.workspace, None)
    return undo_command(args, sam=sam, runs_dir=runs_dir_of(args), save_path=save_path,
                        out=sys.stdout, err=sys.stderr)


def undo_command(args: argparse.Namespace, *, sam: Any, runs_dir: Path, save_path: Path,
                 out: TextIO, err: TextIO) -> int:
    from sam_plugin.errors import UndoRefused
    from sam_plugin.runtime.host_gateway import HostGateway
    from sam_plugin.runtime.store.run_store import RunDir
    from sam_plugin.runtime.store.undo import log_emitter, undo_run

    host = HostGateway(sam)
    try:
        result = undo_run(host, runs_dir, args.run_id,
                          emit=log_emitter(RunDir(runs_dir, args.run_id)))
    except UndoRefused as refused:
        print(f"sam-agent: undo refused: {refused}", file=err)
        for line in which_file(host, RunDir(runs_dir, args.run_id), args.workspace, save_path):
            print(f"  {line}", file=err)
        return EXIT_REFUSED
    try:
        host.mdb.saveAs(str(save_path))
    except Exception as error:  # noqa: BLE001 - the host's words
        print(f"sam-agent: the part was put back, but saving {save_path} failed: {error}",
              file=err)
        return EXIT_REFUSED
    print(f"undone: run {result.run_id}; {result.target.model_name}/"
          f"{result.target.part_name} is back as it was before it "
          f"(fingerprint {result.after.fingerprint if result.after else 'not read'})", file=out)
    print(f"saved: {save_path}", file=err)
    return EXIT_UNDONE


def which_file(host: Any, run_dir: RunDir, workspace: Path, save_path: Path) -> list[str]:
    """When the workspace's part is not the one the run left: is this the file the run saved?
    (Said only for a verified run whose part differs; nothing for the other refusals.)"""
    from sam_plugin.runtime.observe.observation import target_fingerprint

    try:
        result = run_dir.read_result()
    except ValueError:
        return []
    if result is None or result.status != "verified" or result.after is None:
        return []
    try:
        live: str | None = target_fingerprint(host.readback(result.target))
    except Exception:  # noqa: BLE001 - the refusal already said the part could not be read
        return []
    if live == result.after.fingerprint:
        return []
    target = f"{result.target.model_name}/{result.target.part_name}"
    lines = []
    if result.before is not None and live == result.before.fingerprint:
        lines.append(f"{workspace} holds {target} as it was before run {result.run_id}: "
                     "the run's change is not in this file.")
    save = result.save
    if save is not None and save.saved:
        if Path(save.path).resolve() != workspace.resolve():
            lines.append(f"Is {workspace} the file the run saved? It saved {save.path}:")
            lines.append(f"sam-agent undo {result.run_id} --workspace {shlex.quote(save.path)} "
                         f"--save {shlex.quote(str(save_path))} "
                         f"--runs-dir {shlex.quote(str(run_dir.path.parent))}")
    elif save is not None:
        lines.append(f"The run did not save its change ({save.path} was {save.message}), so "
                     "no file holds it: there is nothing to undo on disk.")
    else:
        lines.append(f"Is {workspace} the file the run's change was saved in? The run wrote "
                     "no file itself (a dock run, or sam-agent run without --save): give the "
                     "database saved after it.")
    return lines
