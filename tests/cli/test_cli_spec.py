"""The spec as data through ``sam-agent run`` (docs/architecture.md §4 "The spec"): a call that
contradicts the confirmed spec never runs, and a replayed spec that no longer fits the part
is said before the confirmation question."""

from __future__ import annotations

import json
from pathlib import Path

from cli_support import base_args, run_cli, saved_counts

from sam_plugin.demo.examples import WORKSPACE_FILE, example_by_id
from tests.support.specs import answer, named_set, step


def plate_with_set(path: Path) -> Path:
    """Two unit QUADs (elements 1, 2; 6 nodes), set S1 = element 1, saved to ``path``."""
    import sam
    from samConstants import QUAD

    sam.mdb = sam.database.Mdb()
    part = sam.mdb.models["Model-1"].Part(name="Plate")
    nodes = [part.Node(coordinates=(float(i), float(j), 0.0)) for j in range(2) for i in range(3)]
    for i in range(2):
        part.Element(nodes=(nodes[i], nodes[i + 1], nodes[i + 4], nodes[i + 3]), elemShape=QUAD)
    part.Set(name="S1", elements=part.elements.sequenceFromLabels([1]))
    sam.mdb.saveAs(str(path))
    return path


def test_translate_s1_answered_as_everything_by_500_never_runs(tmp_path, capsys, provider_env):
    """The issue's first case, through the CLI: on main it ended "Verified and saved"."""
    workspace = plate_with_set(tmp_path / "w.sam.json")
    provider_env.enqueue_reply(answer(step("translate", named_set("S1"), vector=[5, 0, 0]),
                                      summary="Translate set S1 by (5, 0, 0)."))
    everything = {"operations": [{"op": "translate", "vector": [0, 500, 0]}]}
    provider_env.enqueue_reply(tool_calls=[("transform_part", json.dumps(everything))])
    out = tmp_path / "out.sam.json"
    args = base_args(workspace, tmp_path / "runs") + [
        "--request", "translate set S1 by 5 in x", "--yes", "--json", "--save", str(out),
        "--repairs", "0"]
    run = run_cli(args, capsys)
    assert run.code == 3, run.out + run.err
    result = run.result
    assert (result["status"], result["error"]["layer"], result["submissions"]) == (
        "rejected", "compile", 0)
    assert ("step 1 says translate set S1 by (5, 0, 0); the call translates all nodes by "
            "(0, 500, 0)") in result["error"]["message"]
    assert not out.exists()
    # the terminal showed the spec in words, as confirmed
    assert "1. translate set S1 by (5, 0, 0) mm — transform" in run.err


def test_a_replayed_spec_that_no_longer_fits_the_part_is_warned_before_confirm(
        tmp_path, capsys):
    """The recorded copy-and-merge expects 16 elements selected; Panel has lost one since."""
    import sam

    sam.mdb = sam.openMdb(str(WORKSPACE_FILE))
    panel = sam.mdb.models["Model-1"].parts["Panel"]
    panel.deleteElement(elements=panel.elements.sequenceFromLabels([16]))
    workspace = tmp_path / "changed.sam.json"
    sam.mdb.saveAs(str(workspace))
    example = example_by_id("copy_merge")
    args = base_args(workspace, tmp_path / "runs", part="Panel") + [
        "--request", example.request, "--replay"]
    run = run_cli(args, capsys, stdin="n\n")
    assert run.code == 3, run.out + run.err
    warning = ("WARNING: the spec expects its steps to act on 16; step 1's scope picks 15 "
               "elements on the part as it is now")
    assert warning in run.err
    assert run.err.index(warning) < run.err.index("Confirm this spec")
    assert saved_counts(workspace, "Panel") == (25, 15)  # nothing ran
