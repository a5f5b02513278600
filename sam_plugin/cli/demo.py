"""``sam-agent demo [...]``: the offline SAM host window with the dock.

Its options belong to the demo (``sam_plugin.ui.demo``, which alone imports Qt): they are
passed on as given, so ``sam-agent demo --help`` is the demo's own help.
"""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(commands: Any) -> None:
    demo = commands.add_parser(
        "demo", help="open the offline SAM host with the SAM Agent dock "
        "(sam-agent demo --help)", add_help=False,
    )
    demo.set_defaults(handler=handle, passes_arguments_on=True)


def handle(args: argparse.Namespace) -> int:
    from sam_plugin.ui import demo

    return int(demo.main(list(args.rest)) or 0)
