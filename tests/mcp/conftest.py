"""MCP test set-up: ``mcp_support`` importable; ``in_memory`` (a gate, served in memory) and
``stdio`` (``sam-agent mcp`` as a child process) on one plate workspace."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from mcp_support import Connect, memory_connect, plate_workspace, stdio_connect  # noqa: E402


@dataclass
class Served:
    connect: Connect
    transport: str
    workspace: Path
    runs: Path
    save: Path
    gate: Any = None  # in memory only


@pytest.fixture(autouse=True)
def restore_sam_database() -> Iterator[None]:
    import sam

    saved = sam.mdb
    yield
    sam.mdb = saved


def serve(transport: str, tmp_path: Path, quads: int = 2) -> Served:
    workspace = plate_workspace(tmp_path / "w.sam.json", quads)
    runs, save = tmp_path / "runs", tmp_path / "out.sam.json"
    if transport == "stdio":
        return Served(stdio_connect(workspace, runs, save), transport, workspace, runs, save)
    import sam

    from sam_plugin.mcp_server.gate import Gate
    from sam_plugin.runtime.host_gateway import HostGateway

    sam.openMdb(str(workspace))
    gate = Gate(host=HostGateway(sam), runs_dir=runs)
    return Served(memory_connect(gate), transport, workspace, runs, save, gate)


@pytest.fixture
def stdio(tmp_path: Path) -> Served:
    """``sam-agent mcp --workspace W --runs-dir R --save OUT`` as a child process."""
    return serve("stdio", tmp_path)


@pytest.fixture
def in_memory(tmp_path: Path) -> Iterator[Served]:
    found = serve("memory", tmp_path)
    yield found
    found.gate.close()
