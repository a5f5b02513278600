"""``sam-agent``: the command line (docs/architecture.md §6). ``main.py`` holds the one
parser; each command is one module beside it (``run``, ``runs``, ``undo``, ``demo``,
``eval``)."""
