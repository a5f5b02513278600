"""Host-side helpers: pure functions over the SAM API (never Qt, never the network).

Generated scripts import these modules inside SAM (the plugin package is importable there),
and the runtime uses them for readback. They only use the public host API
(docs/architecture.md §3).
"""
