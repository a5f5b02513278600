"""``sam-agent``: one parser, one subcommand per module (docs/architecture.md §6).

A command is a module of this package named in ``COMMANDS`` with ``add_parser(commands)``,
which registers its subparser and sets ``handler`` (``handler(args) -> exit code``). Only
what a parser needs is imported to build it; each handler imports its own work when it runs,
so ``sam-agent demo`` alone imports Qt and ``sam-agent eval`` alone the evaluation harness.
The runtime never imports this package.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from sam_plugin.cli.common import EXIT_INTERRUPTED, EXIT_USAGE, VisibleStream
from sam_plugin.cli.suggesting_parser import SuggestingParser
from sam_plugin.errors import EnvironmentValueError, UsageError
from sam_plugin.samops.gc_pause import collector_paused, keep_long_lived

COMMANDS = ("run", "runs", "undo", "rerun", "demo", "eval", "examples", "mcp", "approve",
            "local")


def build_parser() -> argparse.ArgumentParser:
    parser = SuggestingParser(
        prog="sam-agent", description="SAM Agent: human-gated, verified model changes."
    )
    commands = parser.add_subparsers(dest="command", required=True,
                                     metavar="{" + ",".join(COMMANDS) + "}")
    for name in COMMANDS:
        importlib.import_module(f"sam_plugin.cli.{name}").add_parser(commands)
    return parser


def output_secrets(arguments: Sequence[str]) -> list[str]:
    """What no line the CLI writes may show: the environment's API key and every value of
    the command line shaped like a key (a key pasted into the wrong flag)."""
    from sam_plugin.runtime.config import env as environment
    from sam_plugin.runtime.store.key_shape import key_shaped

    key = environment.provider_variables().overrides.get("api_key", "")
    return [str(key), *(piece for argument in arguments for piece in key_shaped(argument))]


def _subparser(parser: argparse.ArgumentParser, command: str) -> SuggestingParser:
    """The parser of ``command`` (its usage and its flags: the error names them)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found = action.choices.get(command)
            if isinstance(found, SuggestingParser):
                return found
    assert isinstance(parser, SuggestingParser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """The command of ``argv`` (the process's own arguments when None: the console entry)."""
    code = _command(list(sys.argv[1:] if argv is None else argv))
    if argv is None:
        # the process ends with the command: what it holds (a whole part, its reads, every
        # module) is freed by the interpreter's exit without a cycle search walking it first,
        # at every one of the exit's collections (0.1-0.25 s after a run on a 188k-node part;
        # samops.gc_pause). A caller in the same process (tests) keeps its collector as it was.
        keep_long_lived()
    return code


def _command(arguments: list[str]) -> int:
    # the commands' modules live as long as the process: no collection walks them while
    # they are imported, nor afterwards (samops.gc_pause; 16-40 ms of a run's start)
    with collector_paused():
        parser = build_parser()
    try:
        args, rest = parser.parse_known_args(arguments)
        if rest and not getattr(args, "passes_arguments_on", False):
            command = _subparser(parser, args.command)
            command.seen = arguments
            command.error(f"unrecognized arguments: {' '.join(rest)}")
    except SystemExit as exit_:  # argparse: 2 on bad usage, 0 for --help
        return int(exit_.code or 0)
    args.rest = rest  # a command that passes its arguments on (demo) gets them here
    prefix = getattr(args, "error_prefix", "sam-agent")
    # every line the commands write reaches the terminal without control characters
    streams = sys.stdout, sys.stderr
    hidden = output_secrets(arguments)
    sys.stdout, sys.stderr = VisibleStream(sys.stdout, hidden), VisibleStream(sys.stderr, hidden)
    try:
        return int(args.handler(args))
    except (UsageError, EnvironmentValueError) as error:
        print(f"{prefix}: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        # before execution the run is written as cancelled; during it, SAM decides
        print(f"{prefix}: interrupted; see result.json in the run directory", file=sys.stderr)
        return EXIT_INTERRUPTED
    finally:
        sys.stdout, sys.stderr = streams
