"""A whole ``sam-agent run`` process of an audit on the 188,356-node workspace, against a plain
Python process that loads and scans the same workspace.

The run is ``sam-agent run --workspace W --mode part --model Model-1 --part Hull --spec
audit.json --yes``: the spec is given and its calls computed (no provider, no network, no
model), so the process is what an analyst's scripted audit costs: the interpreter and the
CLI's imports, opening the workspace, observing, planning, executing once, reading back and
verifying, writing the run directory, exiting. The denominator is ``python -c`` that puts the
offline SAM on ``sys.path``, opens the workspace (``sam.openMdb``) and reads every node's
coordinates and every element's connectivity once. Both are timed from spawn to exit in CPU
time (the process's user and system time: the machine is shared, 2 cores for many; wall time
is printed beside, with the load), alternated, best of ``REPEATS``,
after one untimed run of each that fills a bytecode cache, as an installed package has one.
Once, for information, the run's imports are measured with ``-X importtime`` and the largest
importers printed.

    .venv/bin/python bench/cli_run_scale.py

Last line: ``ratio=<run process / load-and-scan process, CPU> goal<=2``.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
for entry in (ROOT / "stubs", ROOT):
    if str(entry) not in sys.path:
        sys.path.insert(0, str(entry))

from run_scale import SIDES, build  # noqa: E402

SMOKE = os.environ.get("BENCH_SMOKE") == "1"  # CI: run_scale's smallest hull, once
SIZE, SIDE = list(SIDES.items())[-1]  # 188k (1k in CI)
REPEATS = 1 if SMOKE else 5
GOAL = 2.0
AUDIT = {"summary": "Audit the hull: counts and free nodes.", "steps": [
    {"capability": "audit", "action": "audit", "values": {"checks": ["counts", "free_nodes"]},
     "text": "audit counts and free nodes"}]}
SCAN = ("import sys; sys.path.insert(0, {stubs!r}); import sam; sam.openMdb({path!r}); "
        "part = sam.mdb.models['Model-1'].parts['Hull']; "
        "_ = [n.coordinates for n in part.nodes], [e.connectivity for e in part.elements]")


def _run_command(folder: Path, workspace: Path, spec: Path, repeat: int) -> list[str]:
    return [str(Path(sys.executable).parent / "sam-agent"), "run", "--workspace",
            str(workspace), "--mode", "part", "--model", "Model-1", "--part", "Hull",
            "--spec", str(spec), "--yes", "--runs-dir", str(folder / f"runs-{repeat}")]


def _timed(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall, CPU) seconds of the process from spawn to exit (its user and system time)."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as err:
        child = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(child.pid, 0)
        elapsed = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode != 0:
            err.seek(0)
            raise SystemExit(f"{command[0]} exited {child.returncode}:\n"
                             f"{err.read()[-2000:].decode(errors='replace')}")
    return elapsed, usage.ru_utime + usage.ru_stime


def _importers(command: list[str], env: dict[str, str]) -> str:
    """The run's total import time and its five largest importers (self time), once."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "sam_plugin.cli",
                           *command[1:]], env=env, capture_output=True, text=True, check=False)
    rows = [(int(m.group(1)), m.group(2)) for m in re.finditer(
        r"import time:\s+(\d+) \|\s+\d+ \|\s*(\S+)", done.stderr)]
    by_package: dict[str, int] = {}
    for micros, name in rows:
        key = ".".join(name.split(".")[:2]) if name.startswith("sam_plugin") else \
            name.split(".")[0]
        by_package[key] = by_package.get(key, 0) + micros
    top = sorted(by_package.items(), key=lambda kv: -kv[1])[:5]
    return (f"imports: {len(rows)} modules, {sum(m for m, _ in rows) / 1e6:.2f}s; largest: "
            + ", ".join(f"{name} {micros / 1e6:.2f}s" for name, micros in top))


def main() -> None:
    with tempfile.TemporaryDirectory() as work:
        folder = Path(work)
        workspace = folder / f"hull-{SIZE}.sam.json"
        build(workspace, SIDE)
        spec = folder / "audit.json"
        spec.write_text(json.dumps(AUDIT), encoding="utf-8")
        # as installed: bytecode compiled once and cached (here under the temporary folder,
        # not in the tree), whatever this shell's PYTHONDONTWRITEBYTECODE says
        env = {**os.environ, "SAM_AGENT_SETTINGS_FILE": str(folder / "settings.json"),
               "PYTHONPYCACHEPREFIX": str(folder / "pycache")}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env.pop("SAM_AGENT_CALLS", None)  # the calls are computed from the given spec
        scan = [sys.executable, "-c", SCAN.format(stubs=str(ROOT / "stubs"),
                                                  path=str(workspace))]
        print(f"{SIZE}: {SIDE ** 2} nodes; load {os.getloadavg()[0]:.2f}", flush=True)
        _timed(scan, env)  # the bytecode cache filled once, for both
        _timed(_run_command(folder, workspace, spec, REPEATS + 1), env)
        runs, scans = [], []
        for repeat in range(REPEATS):
            scans.append(_timed(scan, env))
            runs.append(_timed(_run_command(folder, workspace, spec, repeat), env))
            print(f"  run process {runs[-1][1]:5.2f}s CPU ({runs[-1][0]:5.2f}s wall), "
                  f"load+scan process {scans[-1][1]:5.2f}s CPU ({scans[-1][0]:5.2f}s wall)",
                  flush=True)
        print(_importers(_run_command(folder, workspace, spec, REPEATS), env))
        (run_wall, run_cpu), (scan_wall, scan_cpu) = best(runs), best(scans)
        print(f"best: run {run_cpu:.2f}s / load+scan {scan_cpu:.2f}s CPU (wall {run_wall:.2f}s "
              f"/ {scan_wall:.2f}s = {run_wall / scan_wall:.2f}); load {os.getloadavg()[0]:.2f}")
        print(f"ratio={run_cpu / scan_cpu:.2f} goal<={GOAL:g}")


def best(timings: list[tuple[float, float]]) -> tuple[float, float]:
    """The best wall and the best CPU seconds of a process's timings."""
    return min(wall for wall, _ in timings), min(cpu for _, cpu in timings)


if __name__ == "__main__":
    main()
