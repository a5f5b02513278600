"""``sam-agent mcp --workspace W.sam.json [--save OUT.sam.json] [--runs-dir DIR]``: the gated
pipeline served over MCP on stdio, a person approving every change (docs/mcp.md,
docs/architecture.md §6).

The workspace opens exactly as for ``sam-agent run`` (the offline stub outside SAM, said on
stderr); ``--save`` writes the database after each verified run or undo, refusing when
another process saved the file meanwhile. Needs the ``[mcp]`` extra (the official SDK).
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from typing import Any, TextIO

from sam_plugin.cli.common import (
    EXIT_VERIFIED,
    check_save_path,
    import_sam,
    open_workspace,
    runs_dir_of,
    save_database,
)
from sam_plugin.errors import UsageError

MISSING_SDK = ("the MCP server needs the official MCP SDK (the [mcp] extra, mcp==2.3.0): "
               "pip install \"$(ls dist/sam_agent_plugin-*.whl)[mcp]\" with the wheel you "
               "installed, or from a checkout pip install -e '.[mcp]'")


def add_parser(commands: Any) -> None:
    mcp = commands.add_parser(
        "mcp", help="serve the gated pipeline to an MCP client (stdio); a person approves",
        description="Offer list_targets, observe, capabilities, plan_change, execute_plan, "
        "undo_run, run_status and list_runs to an MCP client (Claude Desktop, Cursor, ...) "
        "over stdio. Nothing runs until a person approves the plan: on the client's form, "
        "or with `sam-agent approve RUN_ID` in another terminal.")
    mcp.add_argument("--workspace", required=True, type=Path, metavar="W.sam.json")
    mcp.add_argument("--save", type=Path, metavar="OUT.sam.json",
                     help="write the database here after each verified run or undo")
    mcp.add_argument("--runs-dir", type=Path, metavar="DIR")
    mcp.add_argument("--approval", metavar="CHANNELS",
                     help="where a person may approve: any of dock, elicitation (the "
                     "client's form), command (sam-agent approve at a terminal), "
                     "comma-separated; default the saved setting, else all (docs/mcp.md "
                     "\"Trust boundary\")")
    mcp.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    if importlib.util.find_spec("mcp") is None:
        raise UsageError(MISSING_SDK)
    import anyio

    from sam_plugin.mcp_server.stdio import serve_stdio

    gate = make_gate(args, sys.stderr)
    print(f"sam-agent mcp: serving {args.workspace} over stdio; runs in {gate.runs_dir}. "
          f"{gate.how_to_approve('RUN_ID')}", file=sys.stderr)
    anyio.run(serve_stdio, gate)
    return EXIT_VERIFIED


def make_gate(args: argparse.Namespace, err: TextIO) -> Any:
    """The gate on the opened workspace, with the saved settings' policy and key (so that
    the key is scrubbed from whatever an agent sends, as from a model's calls)."""
    from pydantic import ValidationError

    from sam_plugin.mcp_server.approval import channels_of
    from sam_plugin.mcp_server.gate import Gate
    from sam_plugin.runtime.config.settings import ProviderSettings
    from sam_plugin.runtime.config.store import SettingsStore
    from sam_plugin.runtime.host_gateway import HostGateway
    from sam_plugin.runtime.store.run_store import RunDir
    from sam_plugin.runtime.store.scrubber import Scrubber

    store = SettingsStore()
    try:
        saved = "" if args.approval else ",".join(store.approval_channels())
    except ValueError as error:  # the saved setting, named with its file
        raise UsageError(str(error)) from None
    try:
        channels = channels_of(args.approval or saved)
    except ValueError as error:
        raise UsageError(f"--approval: {error}") from None
    if channels == ("dock",):
        raise UsageError("--approval: outside SAM there is no dock to approve in; add "
                         "elicitation or command")
    save_path = check_save_path(args.save) if args.save else None
    sam = import_sam(err)
    opened = open_workspace(sam, args.workspace, save_path)
    host = HostGateway(sam)
    try:
        settings, policy = store.effective(), store.policy()
    except ValidationError:
        settings, policy = ProviderSettings(), None
    runs_dir = runs_dir_of(args)

    def save(result: Any) -> Any:
        if save_path is None:
            return result
        # as the run command's --save: the outcome recorded in the run's result.json
        result = result.model_copy(update={"save": save_database(host, save_path, opened, err)})
        scrubber = Scrubber(settings.api_key.get_secret_value())
        RunDir(runs_dir, result.run_id, scrubber).write_result(result)
        return result

    return Gate(host=host, runs_dir=runs_dir, settings=settings, policy=policy, save=save,
                channels=channels)
