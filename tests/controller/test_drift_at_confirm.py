"""I3 at confirm, scoped (docs/architecture.md §1): the check reads the counts, every name and
definition and the entities the spec names, and compares them bit for bit with the
observation's read; anything else drifted is caught by the whole read right before execution,
so nothing runs on a part that changed. A run reads the whole part three times: observation,
before execution (the script's snapshot takes that read) and the readback.
"""

from __future__ import annotations

import asyncio
import collections
from pathlib import Path
from typing import Any

import pytest

from sam_plugin.runtime.run.drift import DRIFT_MESSAGE
from tests.support.pipeline import fresh_database
from tests.support.scripted import TARGET, plate, submitted
from tests.support.specs import ALL, answer, named_set, step

fresh_sam = pytest.fixture(fresh_database)
MOVE = ("move the last node 25 to (4, 4.5, 0)",
        answer(step("move_nodes", labels=[25], to=[4.0, 4.5, 0.0])), "edit_part",
        {"move_nodes": [{"label": 25, "coordinates": [4.0, 4.5, 0.0]}]})
SET = ("translate S1 by 5 in z", answer(step("translate", named_set("S1"), vector=[0.0, 0.0, 5.0])),
       "transform_part", {"operations": [{"op": "translate", "vector": [0.0, 0.0, 5.0],
                                          "selection": {"by": "set", "name": "S1"}}]})
EVERYTHING = ("translate everything by 5 in z",
              answer(step("translate", ALL, vector=[0.0, 0.0, 5.0])),
              "transform_part", {"operations": [{"op": "translate", "vector": [0.0, 0.0, 5.0],
                                                 "selection": {"by": "all"}}]})


def _move(part: Any, label: int, to: tuple[float, float, float]) -> None:
    part.editNode(nodes=part.nodes.sequenceFromLabels([label]), coordinates=[to])


def _confirmed(sam: Any, tmp_path: Path, case: tuple[str, str, str, dict[str, Any]],
               meanwhile: Any) -> Any:
    plate(sam, 4)
    controller = submitted(sam, tmp_path, "part", *case)
    meanwhile(sam.mdb.models["Model-1"].parts["Plate"], sam.mdb.models["Model-1"])
    return asyncio.run(controller.confirm("part", TARGET))


def _drifted(result: Any, when: str, detail: str = "") -> None:
    assert result.status == "failed" and result.error.layer == "observation"
    assert result.submissions == 0
    tail = f": {detail}" if detail else ""
    assert result.error.message == f"{DRIFT_MESSAGE} (the part was modified before {when}{tail})"


@pytest.mark.parametrize(("case", "meanwhile", "detail"), [
    (MOVE, lambda part, model: _move(part, 25, (4.0, 4.0, 1e-9)), "node 25 moved"),
    (MOVE, lambda part, model: part.Node(coordinates=(9.0, 9.0, 0.0)),
     "26 nodes and 16 elements now, 25 and 16 observed"),
    (MOVE, lambda part, model: part.Set(name="New", nodes=part.nodes[:1]),
     "the set names changed"),
    (MOVE, lambda part, model: model.materials["Steel"].Elastic(table=((1.0, 0.3),)),
     "a material, profile or section changed"),
    (SET, lambda part, model: part.Set(name="S1", elements=part.elements[:1]),
     "set S1 changed"),
    (SET, lambda part, model: _move(part, 7, (1.0, 1.0, -0.0)), "node 7 moved"),
], ids=["named node", "a node added", "a set added", "a material", "the named set",
        "a node of the set's elements"])
def test_a_change_of_what_the_spec_names_fails_at_confirm(fresh_sam: Any, tmp_path: Path,
                                                          case: Any, meanwhile: Any,
                                                          detail: str) -> None:
    _drifted(_confirmed(fresh_sam, tmp_path, case, meanwhile), "confirm", detail)


def test_a_change_elsewhere_fails_before_execution_and_nothing_runs(fresh_sam: Any,
                                                                    tmp_path: Path) -> None:
    result = _confirmed(fresh_sam, tmp_path, MOVE,
                        lambda part, model: _move(part, 7, (1.0, 1.0, 2.0)))
    _drifted(result, "execution")
    assert fresh_sam.mdb.models["Model-1"].parts["Plate"].nodes.getFromLabel(25) \
        .coordinates == (4.0, 4.0, 0.0)


def test_a_spec_on_the_whole_part_reads_the_whole_part_at_confirm(fresh_sam: Any,
                                                                  tmp_path: Path) -> None:
    _drifted(_confirmed(fresh_sam, tmp_path, EVERYTHING,
                        lambda part, model: _move(part, 7, (1.0, 1.0, 2.0))), "confirm")


def test_a_run_reads_the_whole_part_three_times(fresh_sam: Any, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Observation, the check before execution (the snapshot takes it) and the readback; the
    confirm check and the undo data read no whole part. (The compile's simulation of a part
    this small reads its elements once more, for the shape counts; none above 50,000.)"""
    from sam import mesh

    part = plate(fresh_sam, 4)
    reads: collections.Counter[str] = collections.Counter()
    iterate = mesh._MeshArray.__iter__

    def counted(array: Any) -> Any:
        if array._items is None and array._part is part:
            reads[type(array).__name__] += 1
        return iterate(array)

    monkeypatch.setattr(mesh._MeshArray, "__iter__", counted)
    controller = submitted(fresh_sam, tmp_path, "part", *MOVE)
    result = asyncio.run(controller.confirm("part", TARGET))
    assert result.status == "verified" and result.undoable
    assert reads["MeshNodeArray"] == 3
