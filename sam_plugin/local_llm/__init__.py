"""A llama.cpp server on this computer, set up from the installed plugin (docs/models.md).

``sam-agent local`` and the dock's Settings both use this package: it builds ``llama-server``
for the one CPU variant this machine runs, fetches and checks a pinned model, serves it on
the loopback and says its state. It imports no Qt and none of the front ends; every process
it runs goes through :class:`~sam_plugin.local_llm.commands.Commands`, so tests use a fake
build. Everything it writes lives in the per-user cache (:mod:`.home`).
"""
