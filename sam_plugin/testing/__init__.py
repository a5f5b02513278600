"""Test and demo support that ships with the plugin: the loopback fake provider and streams.

Nothing here is used in a live run; the demo's replay mode and the tests use it.
"""
