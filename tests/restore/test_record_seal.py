"""A record's seal holds only for that record, of that kind, under that key."""

from __future__ import annotations

from sam_plugin.runtime.store.record_seal import record_holds, seal_record

KEY = b"k" * 32
RECORD = {"run_id": "20261202-1", "sha256": "ab" * 32, "decision": "approved"}


def test_a_seal_holds_for_its_own_record() -> None:
    assert record_holds("decision", RECORD, seal_record("decision", RECORD, KEY), KEY)


def test_a_changed_field_a_changed_kind_or_another_key_breaks_it() -> None:
    sealed = seal_record("decision", RECORD, KEY)
    assert not record_holds("decision", {**RECORD, "decision": "declined"}, sealed, KEY)
    assert not record_holds("plan", RECORD, sealed, KEY)
    assert not record_holds("decision", RECORD, sealed, b"x" * 32)
    assert not record_holds("decision", RECORD, None, KEY)
    assert not record_holds("decision", {"n": float("nan")}, sealed, KEY)


def test_the_default_key_is_the_users_secret() -> None:
    assert record_holds("plan", RECORD, seal_record("plan", RECORD))
