"""``sam-agent``, the one console entry: ``demo`` opens the UI (Qt is imported only then);
``run`` and every other command go to the headless CLI in ``sam_plugin.cli.run``, which
never imports the UI package (docs/architecture.md §6)."""

from __future__ import annotations

import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == ["demo"]:
        from sam_plugin.ui import demo

        return int(demo.main(arguments[1:]) or 0)
    from sam_plugin.cli import run as cli

    return cli.main(arguments)


if __name__ == "__main__":
    raise SystemExit(main())
