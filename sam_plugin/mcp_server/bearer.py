"""The bearer token of the dock's MCP server: a random secret shown to the analyst once; only
its SHA-256 is kept, where the API key is kept (docs/mcp.md "Inside SAM"). No SDK needed."""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_token() -> str:
    """A fresh bearer token (shown once)."""
    return secrets.token_urlsafe(32)


def token_digest(token: str) -> str:
    """What is kept of a token: its SHA-256."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(token: str, digest: str) -> bool:
    """Whether ``token`` is the one ``digest`` was made from (constant time)."""
    return bool(digest) and hmac.compare_digest(token_digest(token), digest)
