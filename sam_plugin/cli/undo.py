"""``sam-agent undo RUN_ID --workspace W.sam.json --save OUT.sam.json [--runs-dir DIR]``.

Undoes a verified run on a saved database: the run's ``snapshot.npz`` puts the part back,
but only while the workspace's part still has the run's after-fingerprint (exit 1
otherwise, nothing written). The result becomes ``undone``; ``run_undone`` is logged.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, TextIO

from sam_plugin.cli.common import check_save_path, import_sam, open_workspace, runs_dir_of

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
