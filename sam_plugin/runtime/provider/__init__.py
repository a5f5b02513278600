"""The chat model: an OpenAI-compatible streaming client, its SSE decoder, errors, types,
and who answers."""

import sys

# httpx's package imports its command-line client, and with it click, pygments and rich
# (about 10 ms at every start), whenever those happen to be installed; the plugin never runs
# that client. Importing httpx here with its ``_main`` marked absent takes httpx's own
# fallback for a missing CLI; the mark is removed at once, so ``httpx._main`` stays importable.
if "httpx" not in sys.modules:
    sys.modules["httpx._main"] = None  # type: ignore[assignment]
    try:
        import httpx  # noqa: F401
    finally:
        del sys.modules["httpx._main"]
