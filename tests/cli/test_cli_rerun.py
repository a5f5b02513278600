"""``sam-agent rerun RUN_ID --part P ...``: a verified run's calls on other parts, with no
model (docs/architecture.md §6): one plan and approval per part (or ``--yes``), the summary
on stdout, exit 0 only when every part verified, undo per part."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from cli_support import base_args, run_cli

from tests.support import specs

DEFINE = {"materials": [{"name": "Steel", "youngs_modulus": 210000, "poisson_ratio": 0.3}],
          "sections": [{"name": "Skin", "kind": "shell", "material": "Steel", "thickness": 2}]}


def _plates(path: Path, sizes: dict[str, int]) -> Path:
    """A workspace with one n x n unit-QUAD plate per name, each 10 further along X."""
    import sam

    from tests.support.plates import plates

    sam.mdb = sam.database.Mdb()
    plates(sam.mdb.models["Model-1"], sizes)
    sam.mdb.saveAs(str(path))
    return path


def _source(tmp_path, capsys, provider_env, selection=None, sizes=None):
    """A verified property run on Plate, saved: (the saved workspace, the run id)."""
    workspace = _plates(tmp_path / "w.sam.json",
                        sizes or {"Plate": 2, "Plate-2": 2, "Plate-3": 2, "Small": 1})
    selection = selection or {"by": "all"}
    provider_env.enqueue_reply(specs.answer(
        specs.step("define_material", mode="property", name="Steel", E=210000, nu=0.3),
        specs.step("define_section", mode="property", name="Skin", kind="shell",
                   material="Steel", thickness=2),
        specs.step("assign_section", selection, mode="property", section="Skin"),
        summary="Define Steel and the shell section Skin, 2 thick; assign Skin."))
    provider_env.enqueue_reply(tool_calls=[
        ("define_property", json.dumps(DEFINE)),
        ("assign_property", json.dumps({"assignments": [{"section": "Skin",
                                                          "selection": selection}]}))])
    saved = tmp_path / "source.sam.json"
    args = base_args(workspace, tmp_path / "runs", mode="property") + [
        "--request", "steel E 210000 nu 0.3, shell 2 thick on elements 1-4 of the plate",
        "--yes", "--json", "--save", str(saved)]
    run = run_cli(args, capsys)
    assert run.code == 0, run.out + run.err
    return saved, run.result["run_id"]


def _rerun(tmp_path, run_id, workspace, *parts, extra=(), stdin="", capsys=None):
    argv = ["rerun", run_id, "--workspace", str(workspace), "--runs-dir",
            str(tmp_path / "runs"), *[a for p in parts for a in ("--part", p)], *extra]
    return run_cli(argv, capsys, stdin=stdin)


def _assigned(path: Path, part: str) -> int:
    data = json.loads(path.read_text())
    found = next(p for p in data["models"][0]["parts"] if p["name"] == part)
    return len(found.get("sectionAssignments") or [])


def test_yes_applies_the_run_to_each_part_saves_once_and_each_part_undoes(
        tmp_path, capsys, provider_env):
    workspace, source = _source(tmp_path, capsys, provider_env)
    asked = len(provider_env.requests)
    out = tmp_path / "out.sam.json"
    run = _rerun(tmp_path, source, workspace, "Plate-2", "Plate-3",
                 extra=["--yes", "--json", "--save", str(out)], capsys=capsys)
    assert run.code == 0, run.out + run.err
    assert len(provider_env.requests) == asked  # not one request more
    summary = json.loads(run.out)
    assert summary["all_verified"] and summary["source_run"] == source
    assert [(t["target"]["part_name"], t["outcome"]) for t in summary["targets"]] == [
        ("Plate-2", "verified"), ("Plate-3", "verified")]
    assert "no model is asked" in run.err and "approved (--yes)" in run.err
    assert _assigned(out, "Plate-2") == _assigned(out, "Plate-3") == 1
    runs = tmp_path / "runs"
    ids = [t["run_id"] for t in summary["targets"]]
    for run_id in ids:
        result = json.loads((runs / run_id / "result.json").read_text())
        assert (result["source"], result["source_run"]) == ("rerun", source)
        assert result["save"]["saved"] is True
    undone = tmp_path / "undone.sam.json"
    back = run_cli(["undo", ids[0], "--workspace", str(out), "--save", str(undone),
                    "--runs-dir", str(runs)], capsys)
    assert back.code == 0, back.err
    assert _assigned(undone, "Plate-2") == 0 and _assigned(undone, "Plate-3") == 1


def test_the_runs_table_marks_each_rerun_with_its_source_run(tmp_path, capsys, provider_env):
    workspace, source = _source(tmp_path, capsys, provider_env)
    rerun = _rerun(tmp_path, source, workspace, "Plate-2", extra=["--yes", "--json"],
                   capsys=capsys)
    rerun_id = json.loads(rerun.out)["targets"][0]["run_id"]
    listed = run_cli(["runs", "--runs-dir", str(tmp_path / "runs")], capsys)
    rows = {line.split()[0]: line for line in listed.out.splitlines()[1:]}
    assert rows[rerun_id].endswith(f"(rerun of {source})")
    assert "rerun of" not in rows[source]
    as_json = run_cli(["runs", "--runs-dir", str(tmp_path / "runs"), "--json"], capsys)
    by_id = {s["run_id"]: s for s in json.loads(as_json.out)}
    assert (by_id[rerun_id]["source"], by_id[rerun_id]["source_run"]) == ("rerun", source)
    assert by_id[source]["source_run"] is None


def test_each_plan_is_asked_and_a_declined_one_is_skipped_exit_1(tmp_path, capsys,
                                                               provider_env):
    workspace, source = _source(tmp_path, capsys, provider_env)
    out = tmp_path / "out.sam.json"
    run = _rerun(tmp_path, source, workspace, "Plate-2", "Plate-3",
                 extra=["--save", str(out)], stdin="n\ny\n", capsys=capsys)
    assert run.code == 1, run.out + run.err
    assert run.err.count("Execute this plan on Model-1/Plate-") == 2
    assert "--- plan for Model-1/Plate-2 (part 1 of 2, run " in run.err
    lines = run.out.splitlines()
    assert lines[0] == f"Rerun of run {source} on 2 parts: 1 verified, 1 skipped"
    assert lines[1].startswith("  Model-1/Plate-2: skipped (run ")
    assert lines[1].endswith("the plan was declined; nothing was executed")
    assert lines[2].startswith("  Model-1/Plate-3: verified (run ")
    assert lines[3].startswith("    undo: sam-agent undo ") and str(out) in lines[3]
    assert "out.undone.sam.json" in lines[3]
    assert _assigned(out, "Plate-2") == 0 and _assigned(out, "Plate-3") == 1
    runs = tmp_path / "runs"
    asked = [r for r in runs.iterdir() if r.is_dir() and any(
        (json.loads(e)["event"], json.loads(e).get("channel")) == ("approval_requested", "cli")
        for e in (r / "events.jsonl").read_text().splitlines())]
    assert len(asked) == 2  # each plan asked at this terminal, the source's --yes never


def test_a_label_selection_warns_refuses_where_it_does_not_resolve_and_yes_skips_warned(
        tmp_path, capsys, provider_env):
    workspace, source = _source(tmp_path, capsys, provider_env,
                                selection={"by": "labels", "labels": [1, 2, 3, 4]})
    run = _rerun(tmp_path, source, workspace, "Plate-2", "Small",
                 extra=["--yes", "--json"], capsys=capsys)
    assert run.code == 1
    targets = json.loads(run.out)["targets"]
    assert [t["outcome"] for t in targets] == ["skipped", "refused"]
    assert targets[0]["message"].startswith("the plan has warnings; --yes approves only")
    assert "WARNING: selection by element labels 1-4 came from part Plate; on Plate-2 they " \
           "are 4 elements in the box (10, 0, 0)-(12, 2, 0) mm" in run.err  # its unit
    assert "refused at compile" in targets[1]["message"]
    assert "unknown element label(s) 2, 3, 4" in targets[1]["message"]
    again = _rerun(tmp_path, source, workspace, "Plate-2",
                   extra=["--yes-with-warnings", "--json"], capsys=capsys)
    assert again.code == 0, again.out + again.err
    assert json.loads(again.out)["targets"][0]["outcome"] == "verified"


def test_a_answers_yes_to_every_later_plan(tmp_path, capsys, provider_env):
    workspace, source = _source(tmp_path, capsys, provider_env)
    run = _rerun(tmp_path, source, workspace, "Plate-2", "Plate-3", "Small",
                 extra=["--json"], stdin="a\n", capsys=capsys)
    assert run.code == 0, run.out + run.err
    assert run.err.count("Execute this plan on") == 1 and run.err.count("approved (a: all)") == 2


def test_usage_errors_name_the_argument(tmp_path, capsys, provider_env):
    workspace, source = _source(tmp_path, capsys, provider_env)
    cases = [
        (["20261129T193000Z-ab12cd", "--part", "Plate-2"], "no run 20261129T193000Z-ab12cd in"),
        ([source, "--part", "Nope"], "--part: no part 'Nope' in model 'Model-1' (parts: "),
        ([source, "--part", "Plate"], f"--part: 'Plate' is the part run {source} changed"),
        ([source, "--part", "Plate-2", "--part", "Plate-2"], "'Plate-2' is named twice"),
        ([source, "--part", "Plate-2", "--model", "M2"], "--model: no model 'M2' in"),
    ]
    for argv, words in cases:
        run = run_cli(["rerun", *argv, "--workspace", str(workspace), "--runs-dir",
                       str(tmp_path / "runs")], capsys)
        assert run.code == 2 and words in run.err, (argv, run.err)


def test_a_source_run_rewritten_to_delete_every_element_is_refused_under_yes(
        tmp_path, capsys, provider_env):
    """On main the rewritten spec.json and normalized_calls.json (both "delete all elements",
    agreeing with each other) ran on Plate-2 under --yes: nothing sealed them."""
    workspace = _plates(tmp_path / "w.sam.json", {"Plate": 2, "Plate-2": 2})
    provider_env.enqueue_reply(specs.answer(specs.step("translate", specs.ALL, vector=[0, 0, 1]),
                                            summary="Translate the plate by 1 in z."))
    provider_env.enqueue_reply(tool_calls=[("transform_part", json.dumps({"operations": [
        {"op": "translate", "vector": [0, 0, 1], "selection": {"by": "all"}}]}))])
    run = run_cli(base_args(workspace, tmp_path / "runs") + [
        "--request", "translate the plate by 1 in z", "--yes", "--json"], capsys)
    assert run.code == 0, run.out + run.err
    source = run.result["run_id"]
    folder = tmp_path / "runs" / source
    (folder / "spec.json").write_text(specs.answer(
        specs.step("delete_elements", specs.ALL), summary="Delete every element."))
    (folder / "normalized_calls.json").write_text(json.dumps(
        [{"tool": "edit_part", "arguments": {"delete_elements": {"by": "all"}}}]))
    out = tmp_path / "out.sam.json"
    rerun = _rerun(tmp_path, source, workspace, "Plate-2", extra=["--yes", "--save", str(out)],
                   capsys=capsys)
    assert rerun.code == 2, rerun.out + rerun.err
    assert rerun.err.splitlines() == [
        f"sam-agent: error: run {source}: spec.json was changed after its plan (SHA-256 "
        f"{hashlib.sha256((folder / 'spec.json').read_bytes()).hexdigest()[:12]}, sealed "
        f"{json.loads((folder / 'source_seal.json').read_text())['files']['spec.json'][:12]}"
        "); it is not rerun"]
    assert not out.exists() and len([r for r in (tmp_path / "runs").iterdir() if r.is_dir()]) == 1


def _copy_source(tmp_path, capsys, provider_env):
    """A verified Part run on the 2 x 2 Plate that copies its elements 20 along Y, its spec
    expecting Plate's counts after it (9 + 9 nodes, 4 + 4 elements): (workspace, run id)."""
    workspace = _plates(tmp_path / "w.sam.json", {"Plate": 2, "Plate-2": 3})
    provider_env.enqueue_reply(specs.answer(
        specs.step("translate_copy", specs.ALL, vector=[0, 20, 0]),
        summary="Copy every element 20 along Y.",
        expected={"nodes": 18, "elements": 8, "shapes": {"QUAD": 8}}))
    provider_env.enqueue_reply(tool_calls=[("transform_part", json.dumps({"operations": [
        {"op": "translate_copy", "vector": [0, 20, 0], "selection": {"by": "all"}}]}))])
    run = run_cli(base_args(workspace, tmp_path / "runs") + [
        "--request", "copy all elements 20 along Y", "--yes", "--json"], capsys)
    assert run.code == 0, run.out + run.err
    return workspace, run.result["run_id"]


def test_yes_approves_a_rerun_onto_a_part_of_another_size(tmp_path, capsys, provider_env):
    """Before, the plan compared Plate's counts with Plate-2's ("the spec expects 18 nodes;
    the calls leave 32 nodes"): a warning on every other part, so --yes never approved it."""
    workspace, source = _copy_source(tmp_path, capsys, provider_env)
    run = _rerun(tmp_path, source, workspace, "Plate-2", extra=["--yes", "--json"],
                 capsys=capsys)
    assert run.code == 0, run.out + run.err
    assert json.loads(run.out)["targets"][0]["outcome"] == "verified"
    assert "WARNING" not in run.err and "approved (--yes)" in run.err
    assert ("expected: the spec's 18 nodes on Plate (9 before, +9) are compared as a change "
            "on Plate-2 (16 before; the calls leave 32)") in run.err.splitlines()


def test_a_part_that_is_not_there_is_a_usage_error_and_leaves_no_run(tmp_path, capsys,
                                                                      provider_env):
    """A Part-mode source (Part mode may build a part): it said "refused at design: the given
    spec is not a spec of this mode…" and left a run directory."""
    workspace, source = _copy_source(tmp_path, capsys, provider_env)
    runs = sorted(p.name for p in (tmp_path / "runs").iterdir() if p.is_dir())
    run = _rerun(tmp_path, source, workspace, "Nope", capsys=capsys)
    assert run.code == 2, run.out + run.err
    assert (
        f"sam-agent: error: --part: no part 'Nope' in model 'Model-1' (parts: 'Plate', "
        f"'Plate-2'); run {source} changed an existing part, so its rerun needs one (only a "
        "build makes a new part)") in run.err
    assert sorted(p.name for p in (tmp_path / "runs").iterdir() if p.is_dir()) == runs


def test_a_declined_plan_whose_result_says_verified_is_not_rerun(tmp_path, capsys,
                                                                 provider_env):
    """On main a declined plan whose result.json was set to ``verified`` was rerun under
    --yes: its spec, calls and script hold their seal, and nothing sealed its outcome."""
    workspace, source = _source(tmp_path, capsys, provider_env)
    declined = _rerun(tmp_path, source, workspace, "Plate-2", stdin="n\n", capsys=capsys)
    assert declined.code == 1, declined.out + declined.err
    declined_id = declined.out.splitlines()[1].split("(run ")[1].split(")")[0]
    path = tmp_path / "runs" / declined_id / "result.json"
    path.write_text(json.dumps({**json.loads(path.read_text()), "status": "verified",
                                "submissions": 1}))
    out = tmp_path / "out.sam.json"
    run = _rerun(tmp_path, declined_id, workspace, "Plate-3",
                 extra=["--yes", "--save", str(out)], capsys=capsys)
    assert run.code == 2, run.out + run.err
    assert run.err.splitlines() == [
        f"sam-agent: error: run {declined_id}: its result.json says verified, but no verified "
        "outcome was sealed for it (outcome_seal.json is missing); it is not rerun"]
    assert not out.exists()
