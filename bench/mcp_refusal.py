"""How soon ``sam-agent mcp`` over stdio answers a call it must refuse: a 46 MB
``plan_change`` (a million padding nodes, over the 4 MiB budget) and a spec nested 200 levels
deep, versus what the SDK's own reader spends parsing the same 46 MB line before any budget
can be looked at, same run.

- The guarded side is end to end: a real ``sam-agent mcp`` child process, the line written to
  its stdin, the clock stopped when its answer (the tool's refusal) is read from stdout.
- The SDK side is ``mcp_types.jsonrpc_message_adapter.validate_json`` of the same line in this
  process: what the stdio transport did first with every line before ``line_guard``. The
  refusal then still had to walk and measure the parsed arguments, so the old answer came
  later than this.
- The 200-deep spec used to get no answer at all (the SDK's parser stops near 200 levels and
  the line was dropped); its answer time is printed.

Last line: ``ratio=<guarded huge answer / SDK parse of it> goal<=0.1``.

    .venv/bin/python bench/mcp_refusal.py
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for entry in (ROOT / "stubs", ROOT):
    if str(entry) not in sys.path:
        sys.path.insert(0, str(entry))

import mcp_types as types  # noqa: E402
import sam  # noqa: E402
from sam.database import Mdb  # noqa: E402
from samConstants import QUAD  # noqa: E402

GOAL = 0.1
SMOKE = os.environ.get("BENCH_SMOKE") == "1"  # CI: the smallest size, fewest repeats
PADDING = 200_000 if SMOKE else 1_000_000  # 9 MB or 46 MB, over the 4 MiB budget


def _workspace(path: Path) -> None:
    sam.mdb = Mdb()
    part = sam.mdb.models["Model-1"].Part(name="Plate")
    nodes = [part.Node(coordinates=c) for c in [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)]]
    part.Element(nodes=nodes, elemShape=QUAD)
    sam.mdb.saveAs(str(path))


def _call(request_id: int, arguments: dict[str, Any]) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
                       "params": {"name": "plan_change", "arguments": arguments}}) + "\n"


def _arguments(**extra: Any) -> dict[str, Any]:
    step = {"capability": "transform", "action": "translate", "scope": {"by": "all"},
            "values": {"vector": [5, 0, 0]}, "text": "Move every node by 5 along X."}
    return {"mode": "part", "model": "Model-1", "part": "Plate", "request": "move it",
            "spec": {"summary": "Move it.", "steps": [step]},
            "calls": [{"name": "transform_part", "arguments": {"operations": []}}], **extra}


def _answer(child: subprocess.Popen[str], line: str) -> tuple[float, str]:
    started = time.perf_counter()
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(line)
    child.stdin.flush()
    ready, _, _ = select.select([child.stdout], [], [], 150)
    if not ready:
        return float("inf"), "no answer"
    return time.perf_counter() - started, child.stdout.readline()


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="mcp-refusal-"))
    _workspace(work / "w.sam.json")
    env = {**os.environ, "SAM_AGENT_SETTINGS_FILE": str(work / "settings.json"),
           "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen(
        [sys.executable, "-m", "sam_plugin.cli", "mcp", "--workspace", str(work / "w.sam.json"),
         "--runs-dir", str(work / "runs")], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, text=True, env=env, cwd=ROOT)
    hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "bench", "version": "1"}}}
    _answer(child, json.dumps(hello) + "\n")
    assert child.stdin is not None
    child.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"})
                      + "\n")
    node = {"id": "N1", "coordinates": [0.5, 0.5, 0.0]}
    huge = _call(2, _arguments(calls=[{"name": "transform_part", "arguments": {
        "operations": [], "padding": [node] * PADDING}}]))
    spec: dict[str, Any] = {"summary": "x", "steps": []}
    for _ in range(200):
        spec = {"a": spec}
    deep = _call(3, _arguments(spec=spec))
    huge_seconds, huge_answer = _answer(child, huge)
    deep_seconds, deep_answer = _answer(child, deep)
    child.stdin.close()
    child.wait(60)
    assert "over the budget" in huge_answer, huge_answer[:300]
    assert "nested deeper than" in deep_answer, deep_answer[:300]
    started = time.perf_counter()
    types.jsonrpc_message_adapter.validate_json(huge, by_name=False)
    parse_seconds = time.perf_counter() - started
    print(f"huge line: {len(huge) / 1e6:.1f} MB")
    print(f"guarded stdio answer to the huge line: {huge_seconds:.2f} s")
    print(f"guarded stdio answer to the 200-deep spec: {deep_seconds:.3f} s "
          "(before: no answer at all)")
    print(f"the SDK's own parse of the huge line: {parse_seconds:.2f} s")
    print(f"ratio={huge_seconds / parse_seconds:.3f} goal<={GOAL}")


if __name__ == "__main__":
    main()
