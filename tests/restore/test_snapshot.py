"""samops.snapshot on the stub: whatever a run did, ``restore`` puts back everything the API
can read, in the host's order; the snapshot file round-trips; nothing shows in the tree."""

from __future__ import annotations

from restore_support import TARGET, FaultyGateway, plate, run, saved, without_counters
from scenarios import CHAIN

from sam_plugin.runtime.observe.observation import target_fingerprint
from sam_plugin.samops import snapshot, snapshot_file
from sam_plugin.samops.readback import read_part


def _fingerprint(sam):
    return target_fingerprint(read_part(sam.mdb.models["Model-1"], "Plate"))


def _vandalize(sam) -> None:
    """Everything a run could do to a part and the model's definitions."""
    from samConstants import QUAD, TRI

    model = sam.mdb.models["Model-1"]
    part = model.parts["Plate"]
    part.editNode(nodes=part.nodes.getFromLabel(1), coordinates=(-0.0, 0.0, 0.0))  # a sign bit
    part.editNode(nodes=part.nodes.getFromLabel(5), coordinates=(9.0, 9.0, 9.0))
    part.deleteNode(nodes=part.nodes.getFromLabel(3))  # in the middle: its elements go too
    extra = [part.Node(coordinates=(float(i), 7.0, 0.0)) for i in range(4)]
    part.Element(nodes=extra, elemShape=QUAD)
    part.Element(nodes=extra[:3], elemShape=TRI)
    part.mergeNodes(nodes=part.nodes, tolerance=1e-6)
    part.Set(name="Corner", nodes=part.nodes[-1:])  # refilled
    part.Set(name="New", elements=part.elements[:1])
    del part.sets["Edge"]
    model.Material(name="Steel").Elastic(table=((1.0, 0.1),))  # redefined in place
    model.Material(name="Alu").Elastic(table=((70000.0, 0.33),))
    model.RectangularProfile(name="Bar", a=1.0, b=1.0)
    del part.sectionAssignments[0]
    part.SectionAssignment(region=part.sets["New"], sectionName="Skin")
    part.assignBeamSectionOrientation(region=part.elements[:0], n1=(1.0, 0.0, 0.0))


def _plate_with_everything(sam) -> None:
    plate(sam, 3, beams=True, properties=True)
    part = sam.mdb.models["Model-1"].parts["Plate"]
    part.SectionAssignment(region=part.elements[:4], sectionName="Skin")
    part.SectionAssignment(region=part.sets["Edge"], sectionName="Rail")
    part.assignBeamSectionOrientation(region=part.sets["Edge"], n1=(0.0, 0.0, 1.0))


def test_restore_undoes_everything_exactly(fresh_sam_database, tmp_path):
    sam = fresh_sam_database
    _plate_with_everything(sam)
    before, fingerprint = saved(sam, tmp_path / "b.sam.json"), _fingerprint(sam)
    model = sam.mdb.models["Model-1"]
    taken = snapshot.take(model, "Plate")
    assert taken.usable and taken.memory_bytes() > 0
    _vandalize(sam)
    assert _fingerprint(sam) != fingerprint
    assert snapshot.differences(taken, model)
    snapshot.restore(model, taken)
    assert snapshot.differences(taken, model) == []
    assert _fingerprint(sam) == fingerprint
    assert without_counters(saved(sam, tmp_path / "a.sam.json")) == without_counters(before)


def test_a_snapshot_file_restores_the_same(fresh_sam_database, tmp_path):
    sam = fresh_sam_database
    _plate_with_everything(sam)
    before, fingerprint = saved(sam, tmp_path / "b.sam.json"), _fingerprint(sam)
    model = sam.mdb.models["Model-1"]
    size = snapshot_file.save(snapshot.take(model, "Plate"), tmp_path / "s.npz")
    assert size > 0 and not (tmp_path / "s.npz.tmp").exists()
    _vandalize(sam)
    loaded = snapshot_file.load(tmp_path / "s.npz")
    snapshot.restore(model, loaded)
    assert _fingerprint(sam) == fingerprint
    assert without_counters(saved(sam, tmp_path / "a.sam.json")) == without_counters(before)


def test_a_snapshot_kept_after_the_run_still_has_the_labels_before(fresh_sam_database, tmp_path):
    """As the gateway keeps it: written after the run changed (and deleted) the entities the
    snapshot holds; labels and shapes are read from those objects then, as they were."""
    sam = fresh_sam_database
    _plate_with_everything(sam)
    before, fingerprint = saved(sam, tmp_path / "b.sam.json"), _fingerprint(sam)
    model = sam.mdb.models["Model-1"]
    taken = snapshot.take(model, "Plate")
    _vandalize(sam)
    snapshot_file.save(taken, tmp_path / "s.npz")
    snapshot.restore(model, snapshot_file.load(tmp_path / "s.npz"))
    assert _fingerprint(sam) == fingerprint
    assert without_counters(saved(sam, tmp_path / "a.sam.json")) == without_counters(before)


def test_label_order_the_host_kept_comes_back(fresh_sam_database, tmp_path):
    from samConstants import QUAD

    sam = fresh_sam_database
    part = sam.mdb.models["Model-1"].Part(name="Plate")
    nodes = [part.Node(coordinates=(float(i % 2), float(i // 2), 0.0), label=label)
             for i, label in enumerate((40, 7, 19, 3))]
    part.Element(nodes=nodes, elemShape=QUAD, label=11)
    fingerprint = _fingerprint(sam)
    taken = snapshot.take(sam.mdb.models["Model-1"], "Plate")
    part.deleteNode(nodes=part.nodes.getFromLabel(7))
    snapshot.restore(sam.mdb.models["Model-1"], taken)
    assert [n.label for n in part.nodes] == [40, 7, 19, 3]
    assert [e.label for e in part.elements] == [11]
    assert _fingerprint(sam) == fingerprint


def test_a_missing_part_is_removed_again(fresh_sam_database):
    sam = fresh_sam_database
    model = sam.mdb.models["Model-1"]
    taken = snapshot.take(model, "Plate")
    assert taken.part is None
    plate(sam)
    snapshot.restore(model, taken)
    assert model.parts.keys() == []


def test_a_damaged_snapshot_file_is_refused(tmp_path):
    import pytest

    path = tmp_path / "s.npz"
    path.write_bytes(b"not a snapshot")
    with pytest.raises(ValueError, match="cannot be read"):
        snapshot_file.load(path)


def test_nothing_of_the_snapshot_ever_shows_in_the_tree(fresh_sam_database, tmp_path):
    """At every mutating host call of a run, of its restore and of an undo (I14)."""
    sam = fresh_sam_database
    CHAIN.setup(sam)
    seen: set[tuple[tuple[str, ...], tuple[str, ...]]] = set()

    class Watching(FaultyGateway):
        def _counting(self, original):
            inner = super()._counting(original)

            def call(*args, **kwargs):
                seen.add((tuple(sam.mdb.models.keys()),
                          tuple(sam.mdb.models["Model-1"].parts.keys())))
                return inner(*args, **kwargs)

            return call

        def undo(self, target, path, limits=None):
            with self._armed():
                return super().undo(target, path, limits)

    failed, _, _ = run(sam, tmp_path / "a", CHAIN, gateway=Watching(sam, fault_at=9))
    assert failed.restored
    verified, controller, _ = run(sam, tmp_path / "b", CHAIN, gateway=Watching(sam))
    assert verified.status == "verified"
    calls_before_undo = len(seen), controller.host.calls
    controller.undo(verified.run_id)
    assert controller.host.calls > calls_before_undo[1]  # the undo's calls were watched too
    assert seen == {(("Model-1",), ("Plate",))}
    assert TARGET.part_name == "Plate"


def test_the_viewport_shows_the_restored_part(fresh_sam_database):
    sam = fresh_sam_database
    model = sam.mdb.models["Model-1"]
    viewport = sam.session.viewports["Viewport: 1"]
    taken = snapshot.take(model, "Plate")
    plate(sam)
    viewport.setValues(displayedObject=model.parts["Plate"])
    snapshot.restore(model, taken)  # the part did not exist: it goes, and leaves the view
    assert viewport.displayedObject is None
    plate(sam)
    part = model.parts["Plate"]
    viewport.setValues(displayedObject=part)
    redraws = []
    viewport.addListener(redraws.append)
    taken = snapshot.take(model, "Plate")
    part.editNode(nodes=part.nodes.getFromLabel(1), coordinates=(5.0, 5.0, 5.0))
    snapshot.restore(model, taken)
    assert viewport.displayedObject is part and redraws == [viewport]
    viewport.removeListener(redraws.append)


def test_a_host_that_never_reuses_a_label_gets_a_fresh_rebuild(fresh_sam_database,
                                                              monkeypatch, tmp_path):
    """Strict reading of "labels are never reused within a part": an explicit label the part
    ever had is refused; the restore then rebuilds the part fresh and swaps it in."""
    from sam.part import Part

    sam = fresh_sam_database
    _plate_with_everything(sam)
    before, fingerprint = saved(sam, tmp_path / "b.sam.json"), _fingerprint(sam)
    used: dict[int, set[int]] = {}
    original = Part.Node

    def strict(self, coordinates, label=None, **extra):
        ever = used.setdefault(id(self), set())
        if label is not None and label in ever:
            raise ValueError(f"node label {label} was used before in part '{self.name}'")
        node = original(self, coordinates, label, **extra)
        ever.add(node.label)
        return node

    monkeypatch.setattr(Part, "Node", strict)
    for node in sam.mdb.models["Model-1"].parts["Plate"].nodes:
        used.setdefault(id(node._part), set()).add(node.label)
    model = sam.mdb.models["Model-1"]
    taken = snapshot.take(model, "Plate")
    vandalized = model.parts["Plate"]
    _vandalize(sam)
    snapshot.restore(model, taken)
    assert model.parts["Plate"] is not vandalized  # the in-place repair was refused
    assert model.parts.keys() == ["Plate"]  # no helper part left behind (I14)
    assert _fingerprint(sam) == fingerprint
    assert without_counters(saved(sam, tmp_path / "a.sam.json")) == without_counters(before)


def _offered_snapshot(model):
    """A snapshot taken from the read just made, as the run's script takes it."""
    from sam_plugin.samops.mesh_read import last_read, offer_read, read_mesh

    part = model.parts["Plate"]
    read_mesh(part)
    read, mesh = last_read(part)
    offer_read(part, read, mesh)
    taken = snapshot.take(model, "Plate")
    assert taken.part.mesh is mesh  # the arrays of that read
    return taken


def _delta_rows(delta):
    return (delta.node_prefix, delta.moved.rows(), delta.repointed, delta.element_prefix)


def test_the_undo_delta_from_the_arrays_is_the_delta_from_the_lists(fresh_sam_database):
    """The moved nodes and re-pointed elements found by comparing the readback's arrays with
    the snapshot's read are the ones the lists give: a sign bit, a move, a re-pointed element."""
    from sam_plugin.samops.mesh_read import last_read, read_mesh
    from sam_plugin.samops.snapshot_delta import delta_of

    sam = fresh_sam_database
    _plate_with_everything(sam)
    model = sam.mdb.models["Model-1"]
    part = model.parts["Plate"]
    taken = _offered_snapshot(model)
    part.editNode(nodes=part.nodes.getFromLabel(1), coordinates=(-0.0, 0.0, 0.0))  # a sign bit
    part.editNode(nodes=part.nodes.getFromLabel(5), coordinates=(9.0, 9.0, 9.0))
    same = part.nodes.getFromLabel(6)
    part.editNode(nodes=same, coordinates=tuple(same.coordinates))  # a new, equal tuple
    read_mesh(part)
    live, mesh = last_read(part)
    from_arrays = delta_of(taken, model, live, mesh)
    assert from_arrays.moved.labels.tolist() == [1, 5]
    assert _delta_rows(from_arrays) == _delta_rows(delta_of(taken, model, live))
    assert _delta_rows(from_arrays) == _delta_rows(delta_of(taken, model))

    taken = _offered_snapshot(model)
    _vandalize(sam)  # elements re-created and re-pointed, nodes merged and added
    read_mesh(part)
    live, mesh = last_read(part)
    assert _delta_rows(delta_of(taken, model, live, mesh)) == _delta_rows(
        delta_of(taken, model, live)) == _delta_rows(delta_of(taken, model))
