"""A whole ``sam-agent run`` of the 188,356-node audit answered by a provider over loopback
HTTP, against a plain Python process that loads and scans the same workspace.

This is the path an analyst takes: ``sam-agent run --workspace W --mode part --model Model-1
--part Hull --request "audit the hull: counts and free nodes" --yes``, with the provider a
real HTTP server on 127.0.0.1 in this process (``demo/loopback.py``) that answers the design
request with the audit spec as an OpenAI-style SSE stream (the one ``audit_part`` call is
computed from the spec: no tool request is made, and the bench checks that). So the process
is: the interpreter and the CLI's imports (the
provider stack among them), opening the workspace, observing, the observation rendered into
the prompt, the design request and its stream decoded, the spec read and reviewed (with its
numbers' provenance), the call computed, planning, executing once, reading back, verifying,
writing the run directory, exiting. The denominator is ``bench/cli_run_scale.py``'s: ``python
-c`` that opens the workspace and reads every coordinate and connectivity once. The same run
with the spec given (``--spec``, no provider) is timed beside it, for where the difference
goes. CPU time of each process from spawn to exit (user and system: the machine is shared,
2 cores for many; wall time is printed beside, with the load), alternated, best of
``REPEATS``, after one untimed run of each that fills a bytecode cache (as an installed
package has one). The server's own work is not the run's: it answers a canned stream.
Once, for information, the provider run's imports are measured with ``-X importtime``.

    .venv/bin/python bench/provider_run_scale.py

Where the difference from ``--spec`` goes (CPU, 188k, a machine with a load of 8-10): the
provider run cost 0.10-0.18 s more than the ``--spec`` run, of a run of about 1.5 s. Rendering
the observation, the design request, decoding its stream and reviewing the spec (provenance
included) are a few milliseconds each; what was left is the provider stack: importing httpx,
httpcore, h11 and anyio (about 30 ms), and the HTTP clients. The CLI built two, the server
probe's and the chat's, each loading the CA bundle (20-40 ms) and paying the transports'
first-use setup (17 ms); it now asks the server and sends its chat requests through one client,
and a plain-HTTP server on this machine gets no CA bundle (``runtime/provider/client.py``).
Common to both runs: the workspace is opened with the collector paused (0.1 s of 1.9 before).
Measured before these changes: 2.24 (the ``--spec`` run 2.12); after: 1.93-2.06.

Then (2.05-2.10 on a quiet machine), with ``-X importtime``, cProfile and the CPU clock read
when ``main`` returns: of a 1.5 s run, 0.3 s came after the command was done, at the
interpreter's exit, where its collections walked everything the run held (the whole part,
its reads, every module) before freeing it; the scan process pays 0.15 s there. The console
entry now freezes what is alive when its command returns (``cli/main.py``): the exit frees
it as before, without the cycle search (0.05 s left). The imports themselves ran 43 ms of
collections over the modules being imported: the commands' modules and the run's are
imported with the collector paused, then frozen (8 ms left). A part run imported every
domain to learn their snapshot covers (26 ms): each domain's are data beside it
(``snapshot_covers.json``, held to its declaration by a test), read without importing it.
httpx imported its command-line client (click, pygments, 10 ms): ``runtime/provider``
imports httpx without it. The key's forms were built for each of the run's six scrubbers
(3-5 ms each): once a process now. Measured side by side on a shared machine (load 1.4-2):
2.10 before, 1.53 after (the ``--spec`` run 1.92 before, 1.53 after).

Last line: ``ratio=<provider run process / load-and-scan process, CPU> goal<=2``.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
for entry in (ROOT / "stubs", ROOT):
    if str(entry) not in sys.path:
        sys.path.insert(0, str(entry))

from cli_run_scale import (  # noqa: E402
    AUDIT,
    SCAN,
    SIDE,
    SIZE,
    _importers,
    _run_command,
    _timed,
    best,
)
from run_scale import build  # noqa: E402

from sam_plugin.demo.loopback import FakeProvider, StreamResponse  # noqa: E402
from sam_plugin.demo.streams import openai_stream  # noqa: E402

SMOKE = os.environ.get("BENCH_SMOKE") == "1"  # CI: run_scale's smallest hull, once
REPEATS = 1 if SMOKE else 5
GOAL = 2.0
REQUEST = "audit the hull: counts and free nodes"


def responder(asked: list[str]) -> Any:
    """The design request answered with the audit spec; any other request is recorded and
    refused (the fake's 500), so the run fails and the bench with it."""
    design = [p.encode() for p in openai_stream(content=json.dumps(AUDIT))]

    def respond(request: Any) -> StreamResponse | None:
        asked.append("tools" if request.get("tools") else "design")
        return None if request.get("tools") else StreamResponse(design)

    return respond


def provider_command(folder: Path, workspace: Path, repeat: int) -> list[str]:
    return [str(Path(sys.executable).parent / "sam-agent"), "run", "--workspace",
            str(workspace), "--mode", "part", "--model", "Model-1", "--part", "Hull",
            "--request", REQUEST, "--yes", "--runs-dir", str(folder / f"provider-{repeat}")]


def main() -> None:
    asked: list[str] = []
    provider = FakeProvider(responder=responder(asked))
    try:
        with tempfile.TemporaryDirectory() as work:
            folder = Path(work)
            workspace = folder / f"hull-{SIZE}.sam.json"
            build(workspace, SIDE)
            spec = folder / "audit.json"
            spec.write_text(json.dumps(AUDIT), encoding="utf-8")
            env = {**os.environ, "SAM_AGENT_SETTINGS_FILE": str(folder / "settings.json"),
                   "PYTHONPYCACHEPREFIX": str(folder / "pycache"),
                   "SAM_AGENT_BASE_URL": provider.base_url, "SAM_AGENT_MODEL": "bench",
                   "SAM_AGENT_PROFILE": "vllm", "SAM_AGENT_API_KEY": "sk-bench-loopback"}
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env.pop("SAM_AGENT_CALLS", None)
            scan = [sys.executable, "-c", SCAN.format(stubs=str(ROOT / "stubs"),
                                                      path=str(workspace))]
            print(f"{SIZE}: {SIDE ** 2} nodes; load {os.getloadavg()[0]:.2f}", flush=True)
            _timed(scan, env)  # the bytecode cache filled once, for all three
            _timed(provider_command(folder, workspace, REPEATS + 1), env)
            _timed(_run_command(folder, workspace, spec, REPEATS + 1), env)
            asked.clear()
            scans, runs, given = [], [], []
            for repeat in range(REPEATS):
                scans.append(_timed(scan, env))
                runs.append(_timed(provider_command(folder, workspace, repeat), env))
                given.append(_timed(_run_command(folder, workspace, spec, repeat), env))
                print(f"  CPU (wall): provider run {runs[-1][1]:5.2f}s ({runs[-1][0]:5.2f}s), "
                      f"--spec run {given[-1][1]:5.2f}s ({given[-1][0]:5.2f}s), load+scan "
                      f"{scans[-1][1]:5.2f}s ({scans[-1][0]:5.2f}s)", flush=True)
            assert asked == ["design"] * REPEATS, asked
            print("provider run " + _importers(provider_command(folder, workspace, REPEATS),
                                               env))
    finally:
        provider.close()
    (scan_wall, scan), (run_wall, run), (given_wall, given_cpu) = \
        best(scans), best(runs), best(given)
    print(f"best, CPU: provider run {run:.2f}s, --spec run {given_cpu:.2f}s (ratio "
          f"{given_cpu / scan:.2f}), load+scan {scan:.2f}s; wall: {run_wall:.2f}s, "
          f"{given_wall:.2f}s, {scan_wall:.2f}s (ratio {run_wall / scan_wall:.2f}); load "
          f"{os.getloadavg()[0]:.2f}")
    print(f"ratio={run / scan:.2f} goal<={GOAL:g}")


if __name__ == "__main__":
    main()
