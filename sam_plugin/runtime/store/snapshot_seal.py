"""The seal that binds an undo snapshot to its run (docs/architecture.md §7 ``undo_snapshot``).

An undo writes whatever the snapshot holds into the analyst's part, so a snapshot must be the
one this plugin kept for that very run. The seal is an HMAC-SHA256, under a per-user secret,
over the run id, the target, the run's before-counts and its before and after fingerprints,
the archive's member sizes and the SHA-256 of the file. The secret is 32 random bytes kept in
the system keyring when a usable backend exists (and the settings are in their per-user
place), else in ``snapshot.key`` beside the settings file, created 0600. Whoever can replace
a run directory's files cannot forge a seal without that secret; a snapshot kept before seals
existed cannot be undone.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from pathlib import Path

from sam_plugin.compilers.protocol import Target
from sam_plugin.runtime.config import env as environment
from sam_plugin.runtime.config.store import KEYRING_SERVICE, default_settings_path, usable_keyring

KEYRING_USER = "snapshot_seal"
KEY_FILE = "snapshot.key"
_VERSION = b"sam-agent-snapshot-seal/1\x00"
_READ = 1 << 20


def secret() -> bytes:
    """The user's sealing secret, made on first use."""
    keyring = usable_keyring() if environment.settings_file() is None else None
    if keyring is not None:
        stored = keyring.get_password(KEYRING_SERVICE, KEYRING_USER)
        if stored:
            return bytes.fromhex(stored)
        made = secrets.token_bytes(32)
        keyring.set_password(KEYRING_SERVICE, KEYRING_USER, made.hex())
        return made
    return _file_secret(default_settings_path().parent / KEY_FILE)


def _file_secret(path: Path) -> bytes:
    try:
        return bytes.fromhex(path.read_text(encoding="ascii").strip())
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    made = secrets.token_bytes(32)
    try:
        handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process made it meanwhile
        return bytes.fromhex(path.read_text(encoding="ascii").strip())
    with os.fdopen(handle, "w", encoding="ascii") as stream:
        stream.write(made.hex() + "\n")
    return made


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        while chunk := stream.read(_READ):
            digest.update(chunk)
    return digest.hexdigest()


def seal(key: bytes, *, run_id: str, target: Target, nodes: int, elements: int, before: str,
         after: str, members: dict[str, int], sha256: str) -> str:
    """The HMAC of one kept snapshot (hex): ``before``/``after`` are the run's fingerprints,
    ``nodes``/``elements`` its before-counts."""
    message = _VERSION + json.dumps(
        {"run": run_id, "model": target.model_name, "part": target.part_name, "nodes": nodes,
         "elements": elements, "before": before, "after": after,
         "members": dict(sorted(members.items())), "sha256": sha256},
        sort_keys=True, separators=(",", ":")).encode("utf-8")
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def holds(key: bytes, expected: str, **fields: object) -> bool:
    """Whether ``expected`` is the seal of these fields (compared in constant time)."""
    return hmac.compare_digest(seal(key, **fields), expected)  # type: ignore[arg-type]  # the seal's keywords
