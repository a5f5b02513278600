"""A repository a domain adds to the snapshot (``samops/covered.py``, docs/architecture.md §5):
taken with the part, put back by restore and by undo from the file, named in the script only
when a domain covers one. The covering module here is a test fake over the stub's pressures."""

from __future__ import annotations

import sys
import types
from typing import Any

import pytest
from restore_support import plate

from sam_plugin.compilers import composer
from sam_plugin.compilers.evidence import Prediction, Range
from sam_plugin.compilers.protocol import Fragment
from sam_plugin.samops import snapshot, snapshot_file

NAME = "pressures_for_a_test"


def _capture(model: Any) -> list[Any]:
    return [[name, load.createStepName, list(load.region), load.magnitude]
            for name, load in ((n, model.loads[n]) for n in model.loads.keys())]


def _differences(saved: list[Any], model: Any) -> list[str]:
    return [] if _capture(model) == saved else ["pressures"]


def _restore(model: Any, saved: list[Any]) -> None:
    for name in list(model.loads.keys()):
        del model.loads[name]
    for name, step, (part, region), magnitude in saved:
        model.Pressure(name, step, model.parts[part].sets[region], magnitude)


@pytest.fixture
def covering(monkeypatch: pytest.MonkeyPatch) -> str:
    module = types.ModuleType(f"sam_plugin.samops.{NAME}")
    module.missing = lambda model: [] if hasattr(model, "loads") else ["Model.loads"]
    module.capture, module.differences, module.restore = _capture, _differences, _restore
    monkeypatch.setitem(sys.modules, module.__name__, module)
    return NAME


def _loaded_plate(sam: Any) -> Any:
    plate(sam, 2)
    model = sam.mdb.models["Model-1"]
    part = model.parts["Plate"]
    part.Set(name="All", elements=part.elements)
    model.StaticStep("Load", previous="Initial")
    model.Pressure("P", "Load", part.sets["All"], 0.5)
    return model


def _run_changes_the_loads(model: Any) -> None:
    del model.loads["P"]
    model.Pressure("Q", "Load", model.parts["Plate"].sets["All"], 9.0)


def test_restore_puts_a_covered_repository_back(fresh_sam_database, covering):
    model = _loaded_plate(fresh_sam_database)
    taken = snapshot.take(model, "Plate", covers=(covering,))
    assert taken.covered == {NAME: [["P", "Load", ["Plate", "All"], 0.5]]}
    _run_changes_the_loads(model)
    assert snapshot.differences(taken, model) == ["pressures"]
    snapshot.restore(model, taken)
    assert snapshot.differences(taken, model) == []
    assert model.loads.keys() == ["P"] and model.loads["P"].magnitude == 0.5


def test_undo_from_the_file_puts_a_covered_repository_back(fresh_sam_database, covering,
                                                          tmp_path):
    model = _loaded_plate(fresh_sam_database)
    taken = snapshot.take(model, "Plate", covers=(covering,))
    _run_changes_the_loads(model)
    snapshot_file.save(taken, tmp_path / "snapshot.npz", model)
    kept = snapshot_file.load(tmp_path / "snapshot.npz", model)
    snapshot.restore(model, kept)
    assert _capture(model) == [["P", "Load", ["Plate", "All"], 0.5]]


def test_a_snapshot_without_covered_repositories_writes_no_covered_key(fresh_sam_database,
                                                                        tmp_path):
    model = _loaded_plate(fresh_sam_database)
    taken = snapshot.take(model, "Plate")
    assert taken.covered == {}
    snapshot_file.save(taken, tmp_path / "snapshot.npz", model)
    assert snapshot_file.load_delta(tmp_path / "snapshot.npz").covered == {}
    import zipfile

    with zipfile.ZipFile(tmp_path / "snapshot.npz") as archive:
        assert b'"covered"' not in archive.read("meta.npy")


@pytest.mark.parametrize("name", ["os", "no_such_module", "snapshot"])
def test_a_file_naming_no_covering_module_is_refused_in_one_line(fresh_sam_database, covering,
                                                                 tmp_path, name):
    model = _loaded_plate(fresh_sam_database)
    taken = snapshot.take(model, "Plate", covers=(covering,))
    taken.covered = {name: []}
    snapshot_file.save(taken, tmp_path / "snapshot.npz", model)
    with pytest.raises(ValueError, match=r"^snapshot .*: covered repository|covers no "
                                         r"repository") as refused:
        snapshot_file.load(tmp_path / "snapshot.npz", model)
    assert "\n" not in str(refused.value)


def _fragment() -> Fragment:
    state = Prediction(node_count=Range.exact(0), element_count=Range.exact(0),
                       shape_counts={})
    return Fragment(tool="t", mutation="pass\n", normalized={}, evidence=state)


def test_the_script_names_covered_repositories_only_when_a_domain_has_one():
    plain = composer.compose([_fragment()], covers=())
    assert "_snapshot.take(_model, _part_name)\n" in plain.text
    registered = composer.compose([_fragment()])  # the Load mode's steps, loads, conditions
    assert "_snapshot.take(_model, _part_name, covers=('load_cover',))\n" in registered.text
    covered = composer.compose([_fragment()], covers=(NAME,))
    assert f"_snapshot.take(_model, _part_name, covers=({NAME!r},))\n" in covered.text


def test_a_host_lacking_what_a_covering_module_needs_takes_no_snapshot(fresh_sam_database,
                                                                      covering):
    model = _loaded_plate(fresh_sam_database)

    class WithoutLoads:
        """The model as a host without ``loads`` shows it."""

        def __getattr__(self, name: str) -> Any:
            if name == "loads":
                raise AttributeError(name)
            return getattr(model, name)

    assert snapshot.missing(WithoutLoads(), None, (covering,)) == ["Model.loads"]
    taken = snapshot.take(WithoutLoads(), "Plate", covers=(covering,))
    assert not taken.usable and taken.missing == ["Model.loads"]
