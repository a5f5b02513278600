"""Seals of run records under the per-user secret (docs/architecture.md §7).

A record (a plan kept for a later server, an approval decision, the source files of a run a
rerun starts from) is a flat JSON object of strings and numbers. Its seal is an HMAC-SHA256,
under the same per-user secret as undo snapshots (``snapshot_seal.secret``), over the record's
``kind`` and its canonical JSON. Whoever can write the runs directory but cannot read the
secret cannot make a record that holds; a record of one kind never holds as another.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Mapping

from sam_plugin.runtime.store.snapshot_seal import secret

_VERSION = b"sam-agent-record-seal/1\x00"


def seal_record(kind: str, fields: Mapping[str, object], key: bytes | None = None) -> str:
    """The seal (hex) of one record of ``kind``; ``key`` defaults to the user's secret."""
    message = _VERSION + kind.encode("utf-8") + b"\x00" + json.dumps(
        dict(fields), sort_keys=True, separators=(",", ":"), ensure_ascii=True,
        allow_nan=False).encode("ascii")
    return hmac.new(key if key is not None else secret(), message, hashlib.sha256).hexdigest()


def record_holds(kind: str, fields: Mapping[str, object], expected: object,
                 key: bytes | None = None) -> bool:
    """Whether ``expected`` is the seal of this record (constant-time; a non-string or a
    record that cannot be written as JSON never holds)."""
    if not isinstance(expected, str):
        return False
    try:
        made = seal_record(kind, fields, key)
    except (TypeError, ValueError):
        return False
    return hmac.compare_digest(made, expected)
