"""The CLI's words after a run: the undo line names the file that holds the change, an undo on
a file the run never touched asks whether it is the file the run saved, ``runs`` is a table."""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path

from cli_support import run_cli

from sam_plugin.demo.examples import WORKSPACE_FILE

PLATE = "build a 60 x 100 plate meshed 6 x 10 with QUAD elements"


def _plate_run(tmp_path: Path, capsys, *extra: str) -> tuple[Path, object]:
    workspace = tmp_path / "w.sam.json"
    shutil.copyfile(WORKSPACE_FILE, workspace)
    run = run_cli(["run", "--replay", "--yes", "--workspace", str(workspace), "--mode", "part",
                   "--model", "Model-1", "--part", "Plate", "--new-part", "--request", PLATE,
                   "--runs-dir", str(tmp_path / "runs"), *extra], capsys)
    assert run.code == 0, run.err
    return workspace, run


def _line(text: str, start: str) -> str:
    (found,) = [line.strip() for line in text.splitlines() if line.strip().startswith(start)]
    return found


def _run_id(tmp_path: Path) -> str:
    (run_id,) = [p.name for p in (tmp_path / "runs").iterdir() if p.is_dir()]
    return run_id


def test_the_undo_line_names_the_saved_file_and_works_as_printed(tmp_path, capsys):
    saved = tmp_path / "out.sam.json"
    workspace, run = _plate_run(tmp_path, capsys, "--save", str(saved))
    hint = _line(run.out, "undo: ")
    run_id = _run_id(tmp_path)
    assert hint == (f"undo: sam-agent undo {run_id} --workspace {saved} --save "
                    f"{tmp_path / 'out.undone.sam.json'} --runs-dir {tmp_path / 'runs'}")
    undo = run_cli(shlex.split(hint.removeprefix("undo: "))[1:], capsys)
    assert undo.code == 0, undo.err
    assert f"undone: run {run_id}" in undo.out
    assert _part_names(tmp_path / "out.undone.sam.json") == _part_names(workspace)


def _part_names(path: Path) -> list[str]:
    return [part["name"] for part in json.loads(path.read_text())["models"][0]["parts"]]


def test_without_save_there_is_nothing_to_undo_on_disk(tmp_path, capsys):
    workspace, run = _plate_run(tmp_path, capsys)
    assert "undo:" not in run.out
    assert _line(run.out, "not saved:") == (
        f"not saved: without --save the change stays in this run only ({workspace} is "
        "unchanged on disk); run again with --save OUT.sam.json to keep it")


def test_undo_on_the_untouched_workspace_asks_for_the_saved_file(tmp_path, capsys):
    saved = tmp_path / "out.sam.json"
    workspace, _ = _plate_run(tmp_path, capsys, "--save", str(saved))
    run_id = _run_id(tmp_path)
    undone = tmp_path / "undone.sam.json"
    refused = run_cli(["undo", run_id, "--workspace", str(workspace), "--save", str(undone),
                       "--runs-dir", str(tmp_path / "runs")], capsys)
    assert refused.code == 1 and not undone.exists()
    assert (f"{workspace} holds Model-1/Plate as it was before run {run_id}: the run's change "
            "is not in this file.") in refused.err
    assert f"Is {workspace} the file the run saved? It saved {saved}:" in refused.err
    suggested = _line(refused.err, f"sam-agent undo {run_id} --workspace {saved}")
    undo = run_cli(shlex.split(suggested)[1:], capsys)
    assert undo.code == 0, undo.err
    assert undone.is_file()


def test_undo_on_the_saved_file_changed_since_asks_nothing(tmp_path, capsys):
    import sam

    saved = tmp_path / "out.sam.json"
    _plate_run(tmp_path, capsys, "--save", str(saved))
    sam.openMdb(str(saved))
    part = sam.mdb.models["Model-1"].parts["Plate"]
    part.deleteElement(elements=part.elements.sequenceFromLabels([1]))
    sam.mdb.saveAs(str(saved))
    refused = run_cli(["undo", _run_id(tmp_path), "--workspace", str(saved), "--save",
                       str(tmp_path / "u.sam.json"), "--runs-dir", str(tmp_path / "runs")],
                      capsys)
    assert refused.code == 1
    assert "changed after run" in refused.err and "Is " not in refused.err


def test_runs_is_a_table_with_model_and_part(tmp_path, capsys):
    _plate_run(tmp_path, capsys)
    shutil.copyfile(WORKSPACE_FILE, tmp_path / "w2.sam.json")
    refine = run_cli(["run", "--replay", "--yes", "--workspace", str(tmp_path / "w2.sam.json"),
                      "--mode", "mesh", "--model", "Model-1", "--part", "Panel", "--request",
                      "refine all elements of the panel once and audit the mesh",
                      "--runs-dir", str(tmp_path / "runs")], capsys)
    assert refine.code == 0, refine.err
    listed = run_cli(["runs", "--runs-dir", str(tmp_path / "runs")], capsys)
    header, newest, oldest = listed.out.splitlines()
    assert header.split() == ["run", "status", "mode", "model", "part", "request"]
    assert newest.split()[1:6] == ["verified", "mesh", "Model-1", "Panel", "refine"]
    assert oldest.split()[1:6] == ["verified", "part", "Model-1", "Plate", "build"]
    assert newest.index("Panel") == header.index("part") == oldest.index("Plate")
    rows = json.loads(run_cli(["runs", "--runs-dir", str(tmp_path / "runs"), "--json"],
                              capsys).out)
    assert [(r["model"], r["part"]) for r in rows] == [("Model-1", "Panel"), ("Model-1", "Plate")]
