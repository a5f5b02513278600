"""saveAs / openMdb: exact round trip, clear errors, the open database left untouched."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from samConstants import BEAM, N1_COSINES, TRI


def _populate(fresh_sam: Any, make_grid: Any) -> Any:
    model = fresh_sam.mdb.models["Model-1"]
    steel = model.Material("Steel")
    steel.Elastic(table=((210000.0, 0.3),))
    steel.Density(table=((7.85e-9,),))
    model.Material("Bare")
    model.IProfile("I", l=1.0, h=10.0, b1=4.0, b2=5.0, t1=1.0, t2=1.5, t3=0.5)
    model.HomogeneousShellSection("Shell", "Steel", 0.1 + 0.2)
    model.BeamSection("Beam", "Steel", "I")
    part = model.Part("Plate")
    nodes, elements = make_grid(part, 3, 2, spacing=0.1)
    part.Element((nodes[0], nodes[5], nodes[10]), TRI, label=50)
    part.Element((nodes[0], nodes[11]), BEAM)
    part.deleteNode(part.Node((1e300, -5e-324, -0.0)))
    part.deleteElement(elements[2])
    shells = part.Set("shells", nodes=nodes[:2], elements=elements[:2])
    part.SectionAssignment(shells, "Shell")
    part.SectionAssignment(part.elements.sequenceFromLabels([50]), "Shell")
    part.assignBeamSectionOrientation(part.elements.sequenceFromLabels([51]), N1_COSINES,
                                      (0.0, 0.6, 0.8))
    model.Part("Empty")
    fresh_sam.mdb.Model("Second").Material("Alu")
    return part


def _snapshot(mdb: Any) -> Any:
    from sam.storage import mdb_doc

    return mdb_doc(mdb)


def test_round_trip_is_exact(fresh_sam: Any, make_grid: Any, tmp_path: Path) -> None:
    _populate(fresh_sam, make_grid)
    before = _snapshot(fresh_sam.mdb)
    fresh_sam.mdb.saveAs(pathName=str(tmp_path / "work.sam.json"))
    old = fresh_sam.mdb
    opened = fresh_sam.openMdb(str(tmp_path / "work.sam.json"))
    assert opened is fresh_sam.mdb and opened is not old
    assert _snapshot(opened) == before
    part = opened.models["Model-1"].parts["Plate"]
    # the next labels survive: labels are never reused after a reload
    assert part.Node((0.0, 0.0, 0.0)).label == 14
    assert part.Element((part.nodes[0], part.nodes[1]), BEAM).label == 52
    assert part.sectionAssignments[0].region is part.sets["shells"]
    assert opened.models["Model-1"].sections["Shell"].thickness == 0.1 + 0.2
    assert part.nodes.getFromLabel(2).coordinates == (0.1, 0.0, 0.0)


def test_save_appends_the_suffix_and_records_the_path(fresh_sam: Any, tmp_path: Path) -> None:
    fresh_sam.mdb.saveAs(str(tmp_path / "plain"))
    assert (tmp_path / "plain.sam.json").is_file()
    assert fresh_sam.mdb.pathName == str(tmp_path / "plain.sam.json")
    document = json.loads((tmp_path / "plain.sam.json").read_text())
    assert (document["format"], document["version"]) == ("sam-stub-mdb", 1)
    fresh_sam.mdb.models["Model-1"].Part("Later")
    fresh_sam.mdb.save()
    assert json.loads((tmp_path / "plain.sam.json").read_text())["models"][0]["parts"][0][
        "name"] == "Later"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plain.sam.json"]


def test_save_without_a_path(fresh_sam: Any) -> None:
    with pytest.raises(ValueError) as caught:
        fresh_sam.mdb.save()
    assert str(caught.value) == "this database has never been saved; use mdb.saveAs(pathName)"


def _write(path: Path, content: str) -> str:
    path.write_text(content)
    return str(path)


def _valid_document(fresh_sam: Any, make_grid: Any, tmp_path: Path) -> dict[str, Any]:
    _populate(fresh_sam, make_grid)
    fresh_sam.mdb.saveAs(str(tmp_path / "good.sam.json"))
    return json.loads((tmp_path / "good.sam.json").read_text())


def _expect_refusal(fresh_sam: Any, path: str, text: str) -> None:
    current = fresh_sam.mdb
    with pytest.raises(fresh_sam.MdbFileError) as caught:
        fresh_sam.openMdb(path)
    assert str(caught.value) == text
    assert fresh_sam.mdb is current


def test_corrupt_foreign_and_newer_files_are_refused(fresh_sam: Any, tmp_path: Path) -> None:
    broken = _write(tmp_path / "broken.sam.json", '{"format": "sam-stub-mdb", "vers')
    with pytest.raises(fresh_sam.MdbFileError) as caught:
        fresh_sam.openMdb(broken)
    assert str(caught.value).startswith(f"cannot open '{broken}': not a JSON document (")
    foreign = _write(tmp_path / "foreign.sam.json", '{"format": "abaqus-cae", "version": 1}')
    _expect_refusal(fresh_sam, foreign, f"cannot open '{foreign}': not a SAM database (format "
                                        "is 'abaqus-cae', expected 'sam-stub-mdb')")
    listing = _write(tmp_path / "list.sam.json", "[1, 2]")
    _expect_refusal(fresh_sam, listing, f"cannot open '{listing}': not a SAM database (format "
                                        "is 'list', expected 'sam-stub-mdb')")
    newer = _write(tmp_path / "newer.sam.json",
                   '{"format": "sam-stub-mdb", "version": 2, "models": [], "extra": 1}')
    _expect_refusal(fresh_sam, newer, f"cannot open '{newer}': written by a newer SAM (format "
                                      "version 2; this SAM reads versions up to 1)")


def test_structural_errors_name_the_place(fresh_sam: Any, make_grid: Any,
                                          tmp_path: Path) -> None:
    document = _valid_document(fresh_sam, make_grid, tmp_path)
    fresh_sam.mdb = fresh_sam.database.Mdb()
    document["models"][0]["parts"][0]["nodes"]["coordinates"][0] = "zero"
    bad = _write(tmp_path / "bad.sam.json", json.dumps(document))
    _expect_refusal(fresh_sam, bad, f"cannot open '{bad}': invalid database at "
                                    "models.0.parts.0.nodes.coordinates.0: Input should be a "
                                    "valid number (1 problem(s) in all)")


@pytest.mark.parametrize(("edit", "text"), [
    (lambda d: d["parts"][0]["elements"]["connectivity"].__setitem__(0, 99),
     "part 'Plate': element 1 uses node 99, which does not exist"),
    (lambda d: d["parts"][0]["elements"]["connectivity"].pop(),
     "part 'Plate': the element connectivity list is too short"),
    (lambda d: d["parts"][0]["nodes"]["labels"].__setitem__(1, 1),
     "part 'Plate': node labels repeat"),
    (lambda d: d["parts"][0].__setitem__("nextNodeLabel", 3),
     "part 'Plate': the next labels (3, 52) must exceed the largest labels in use (12, 51)"),
    (lambda d: d["parts"][0]["sets"][0]["elements"].append(3),
     "set 'shells' in part 'Plate' lists element 3, which does not exist"),
    (lambda d: d["sections"][0].__setitem__("material", "Gold"),
     "section 'Shell' in model 'Model-1' uses material 'Gold', which does not exist"),
    (lambda d: d["parts"][0]["sectionAssignments"][0].__setitem__("sectionName", "Nope"),
     "section assignment 0 in part 'Plate' uses section 'Nope', which does not exist"),
    (lambda d: d["profiles"][0]["dimensions"].__setitem__("t3", 9.0),
     "IProfile 'I': t3 must be less than b1 and b2; got 9.0 (in model 'Model-1')"),
    (lambda d: d["materials"][0]["elastic"][0].__setitem__(1, 0.7),
     "material 'Steel' in model 'Model-1': Elastic table[0][1] (Poisson's ratio) must lie in "
     "(-1, 0.5); got 0.7"),
    (lambda d: d["parts"].append(dict(d["parts"][0])), "part 'Plate' appears twice in model "
     "'Model-1'"),
])
def test_broken_references_are_refused(fresh_sam: Any, make_grid: Any, tmp_path: Path,
                                       edit: Any, text: str) -> None:
    document = _valid_document(fresh_sam, make_grid, tmp_path)
    edit(document["models"][0])
    bad = _write(tmp_path / "bad.sam.json", json.dumps(document))
    _expect_refusal(fresh_sam, bad, f"cannot open '{bad}': {text}")


def test_a_missing_file_raises_file_not_found(fresh_sam: Any, tmp_path: Path) -> None:
    current = fresh_sam.mdb
    with pytest.raises(FileNotFoundError):
        fresh_sam.openMdb(str(tmp_path / "absent.sam.json"))
    assert fresh_sam.mdb is current


def test_open_resets_the_viewport_and_notifies(fresh_sam: Any, tmp_path: Path) -> None:
    viewport = fresh_sam.session.viewports["Viewport: 1"]
    seen: list[Any] = []
    viewport.addListener(lambda vp: seen.append(vp.displayedObject))
    try:
        viewport.setValues(displayedObject=fresh_sam.mdb.models["Model-1"].Part("P"))
        fresh_sam.mdb.saveAs(str(tmp_path / "w.sam.json"))
        fresh_sam.openMdb(str(tmp_path / "w.sam.json"))
    finally:
        viewport._listeners.clear()
    assert len(seen) == 2 and seen[0].name == "P" and seen[1] is None
    assert viewport.displayedObject is None


def test_part_copy_is_deep(fresh_sam: Any, make_grid: Any) -> None:
    part = _populate(fresh_sam, make_grid)
    model = fresh_sam.mdb.models["Model-1"]
    copy = model.Part(name="Copy", objectToCopy=part)
    from sam.storage import part_doc

    original, copied = part_doc(part), part_doc(copy)
    assert copied["name"] == "Copy" and {**copied, "name": "Plate"} == original
    assert copy.nodes[0] is not part.nodes[0] and copy.sets["shells"] is not part.sets["shells"]
    part.editNode(part.nodes[0], (7.0, 7.0, 7.0))
    part.deleteElement(part.elements.getFromLabel(1))
    assert copy.nodes[0].coordinates == (0.0, 0.0, 0.0)
    assert [e.label for e in copy.sets["shells"].elements] == [1, 2]
    assert copy.sectionAssignments[0].region is copy.sets["shells"]
    with pytest.raises(TypeError) as caught:
        model.Part("Bad", objectToCopy="Plate")
    assert str(caught.value) == "objectToCopy must be a Part; got str"


def test_model_copy_is_deep(fresh_sam: Any, make_grid: Any) -> None:
    _populate(fresh_sam, make_grid)
    source = fresh_sam.mdb.models["Model-1"]
    copy = fresh_sam.mdb.Model("Copy", objectToCopy=source)
    assert copy.name == "Copy" and copy.parts.keys() == ["Plate", "Empty"]
    assert copy.parts["Plate"]._model is copy
    source.materials["Steel"].Elastic(table=((1.0, 0.1),))
    assert copy.materials["Steel"].elastic.table == ((210000.0, 0.3),)
    with pytest.raises(KeyError) as caught:
        copy.parts["Nope"]
    assert str(caught.value) == ("no part named 'Nope' in model 'Copy'; existing parts: "
                                 "'Plate', 'Empty'")
    other = fresh_sam.mdb.models["Second"]
    moved = other.Part("Moved", objectToCopy=source.parts["Plate"])
    assert moved.sectionAssignments[0].sectionName == "Shell"


@pytest.mark.parametrize(("text", "key"), [
    # json.loads and pydantic both let the last "models" win silently: the first is lost
    ('{"format": "sam-stub-mdb", "version": 1, "models": [], "models": []}', "models"),
    ('{"format": "sam-stub-mdb", "version": 1, "models": [{"name": "A", "name": "B", '
     '"materials": [], "profiles": [], "sections": [], "parts": []}]}', "name"),
    # the same key spelled with an escape is the same key
    ('{"format": "sam-stub-mdb", "version": 1, "models": [], "mod\\u0065ls": []}', "models"),
])
def test_a_key_twice_in_one_object_is_refused(fresh_sam: Any, tmp_path: Path, text: str,
                                              key: str) -> None:
    twice = _write(tmp_path / "twice.sam.json", text)
    _expect_refusal(fresh_sam, twice, f"cannot open '{twice}': key {key!r} appears twice in "
                                      "one object; a database names each field once")


def test_equal_keys_in_different_objects_and_key_like_names_are_fine(
        fresh_sam: Any, make_grid: Any, tmp_path: Path) -> None:
    document = _valid_document(fresh_sam, make_grid, tmp_path)
    document["models"][0]["parts"][0]["sets"][0]["name"] = '" : {"name": [x'
    good = _write(tmp_path / "names.sam.json", json.dumps(document))
    opened = fresh_sam.openMdb(good)
    assert '" : {"name": [x' in opened.models["Model-1"].parts["Plate"].sets.keys()
