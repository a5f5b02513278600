"""``sam-agent examples [--json]``: the requests the bundled Replay answers, and where.

The Replay (``--replay``, or Replay in the dock) answers these requests word for word, in
English or in Chinese, on the demo's sample workspace (``sam-agent demo --save-sample``); any
other request fails at the provider layer (docs/architecture.md §6).
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from typing import Any, TextIO

HEADER = ("The requests the bundled Replay answers, word for word (run --replay; the dock),\n"
          "each on a fresh copy of the sample workspace (sam-agent demo --save-sample W.sam.json):")
COLUMNS = ("id", "mode", "model / part", "request")


def add_parser(commands: Any) -> None:
    examples = commands.add_parser(
        "examples", help="list the requests the bundled Replay answers",
        description=HEADER.replace("\n", " "),
    )
    examples.add_argument("--json", action="store_true",
                          help="print them as JSON (id, mode, model, part, new_part: the "
                          "run builds the part, request, request_zh)")
    examples.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    return examples_command(args, out=sys.stdout)


def examples_command(args: argparse.Namespace, *, out: TextIO) -> int:
    from sam_plugin.demo.examples import builds_new_part, load_examples

    examples = load_examples()
    if args.json:
        rows = [{"id": e.id, "mode": e.mode, "model": e.model, "part": e.part,
                 "new_part": builds_new_part(e), "request": e.request,
                 "request_zh": e.request_zh} for e in examples]
        out.write(json.dumps(rows, indent=2, ensure_ascii=False) + "\n")
        return 0
    table = [COLUMNS, *((e.id, e.mode, _where(e, builds_new_part(e)), e.request)
                        for e in examples)]
    widths = [max(len(row[i]) for row in table) for i in range(3)]
    print(HEADER, file=out)
    print(file=out)
    for index, row in enumerate(table):
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=False))
              + "  " + row[3], file=out)
        zh = examples[index - 1].request_zh if index else ""
        if zh:
            print(" " * (sum(widths) + 6) + f"zh: {zh}", file=out)
    first = examples[0]
    new_part = "--new-part " if builds_new_part(first) else ""
    print(file=out)
    print("For example:", file=out)
    print(f"  sam-agent run --replay --workspace W.sam.json --mode {first.mode} "
          f"--model {shlex.quote(first.model)} --part {shlex.quote(first.part)} "
          f"{new_part}--request {shlex.quote(first.request)}", file=out)
    return 0


def _where(example: Any, new_part: bool) -> str:
    """``Model-1 / Plate (new)``: a part the sample workspace lacks is built by the run."""
    return f"{example.model} / {example.part}" + (" (new)" if new_part else "")
