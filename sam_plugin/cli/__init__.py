"""``sam-agent``: the command line (docs/architecture.md §6)."""
