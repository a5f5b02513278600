"""``python -m sam_plugin.cli``: the same as the ``sam-agent`` console entry."""

from sam_plugin.cli.main import main

raise SystemExit(main())
