"""Repositories and the database: mapping behaviour, KeyError texts, changeKey, Model-1."""

from __future__ import annotations

from typing import Any

import pytest


def test_new_database_holds_one_empty_model(fresh_sam: Any) -> None:
    mdb = fresh_sam.mdb
    assert mdb.models.keys() == ["Model-1"]
    model = mdb.models["Model-1"]
    assert model.name == "Model-1"
    for repository in (model.parts, model.materials, model.sections, model.profiles):
        assert len(repository) == 0 and repository.keys() == []


def test_repository_is_a_mapping(model: Any) -> None:
    first = model.Part("A")
    second = model.Part("B")
    parts = model.parts
    assert parts.keys() == ["A", "B"]
    assert parts.values() == [first, second]
    assert parts.items() == [("A", first), ("B", second)]
    assert list(parts) == ["A", "B"]
    assert "A" in parts and "C" not in parts and 3 not in parts
    assert len(parts) == 2
    assert parts["B"] is second


def test_missing_key_names_the_key_and_the_existing_ones(model: Any) -> None:
    model.Part("A")
    model.Part("B")
    with pytest.raises(KeyError) as caught:
        model.parts["Plate"]
    assert str(caught.value) == "no part named 'Plate' in model 'Model-1'; existing parts: 'A', 'B'"
    with pytest.raises(KeyError) as caught:
        model.materials["Steel"]
    assert str(caught.value) == ("no material named 'Steel' in model 'Model-1'; existing "
                                 "materials: none")


def test_change_key_renames_in_place(fresh_sam: Any) -> None:
    mdb = fresh_sam.mdb
    other = mdb.Model("Other")
    mdb.models.changeKey("Model-1", "Main")
    assert mdb.models.keys() == ["Main", "Other"]
    main = mdb.models["Main"]
    assert main.name == "Main"
    part = main.Part("P")
    main.parts.changeKey("P", "Q")
    assert part.name == "Q" and main.parts["Q"] is part
    with pytest.raises(KeyError) as caught:
        main.parts["P"]
    assert str(caught.value) == "no part named 'P' in model 'Main'; existing parts: 'Q'"
    with pytest.raises(ValueError) as clash:
        mdb.models.changeKey("Main", "Other")
    assert str(clash.value) == ("cannot rename model 'Main' to 'Other': a model named 'Other' "
                                "already exists in the model database")
    with pytest.raises(KeyError) as missing:
        mdb.models.changeKey("Nope", "X")
    assert str(missing.value) == ("no model named 'Nope' in the model database; existing "
                                  "models: 'Main', 'Other'")
    assert other.name == "Other"


def test_delete_from_a_repository(model: Any) -> None:
    model.Part("A")
    del model.parts["A"]
    assert model.parts.keys() == []
    with pytest.raises(KeyError):
        del model.parts["A"]


def test_model_and_part_reject_unknown_keywords(fresh_sam: Any, model: Any) -> None:
    from samConstants import DEFORMABLE_BODY, THREE_D

    with pytest.raises(TypeError) as caught:
        model.Part(name="Plate", dimensionality=THREE_D, type=DEFORMABLE_BODY)
    assert str(caught.value) == "keyword error on dimensionality"
    with pytest.raises(TypeError) as caught:
        fresh_sam.mdb.Model(name="M", modelType="STANDARD")
    assert str(caught.value) == "keyword error on modelType"
    assert "Plate" not in model.parts


def test_names_are_checked(model: Any) -> None:
    with pytest.raises(TypeError) as caught:
        model.Part(3)
    assert str(caught.value) == "name must be a string; got int"
    with pytest.raises(ValueError) as blank:
        model.Part(" P")
    assert str(blank.value) == ("name must be a non-empty name without surrounding blanks; "
                                "got ' P'")


def test_creating_again_under_the_same_name_replaces(model: Any) -> None:
    first = model.Part("P")
    second = model.Part("P")
    assert first is not second and model.parts["P"] is second and len(model.parts) == 1
