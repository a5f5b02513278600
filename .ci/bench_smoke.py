"""Every bench once at its smallest size (``BENCH_SMOKE=1``), so that none can rot unseen.

A bench fails here when it exits non-zero, takes longer than ``TIMEOUT_S``, or its last line
of output is not ``ratio=X goal<=Y``. The value is not judged: CI machines are noisy, and a
bench's goal is measured at its full size (docs/architecture.md "Benches").

    python .ci/bench_smoke.py [bench/x.py ...]     # default: every bench/*.py
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT_S = 120
RATIO_LINE = re.compile(r"ratio=[0-9.]+(e[-+]?\d+)? goal<=[0-9.]+(\s|$)")


def last_line_problem(output: str) -> str | None:
    """Why ``output`` does not end with a ratio line (None when it does)."""
    lines = [line for line in output.splitlines() if line.strip()]
    if not lines:
        return "printed nothing"
    if RATIO_LINE.match(lines[-1]) is None:
        return f"its last line is not 'ratio=X goal<=Y': {lines[-1][:200]!r}"
    return None


def smoke(bench: Path) -> tuple[float, str | None]:
    """(wall seconds, the problem or None) of one bench run with ``BENCH_SMOKE=1``."""
    env = {**os.environ, "BENCH_SMOKE": "1", "QT_QPA_PLATFORM": "offscreen"}
    started = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, str(bench)], cwd=ROOT, env=env, text=True,
                              capture_output=True, timeout=TIMEOUT_S, check=False)
    except subprocess.TimeoutExpired:
        return time.perf_counter() - started, f"took longer than {TIMEOUT_S} s"
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        return seconds, f"exited {done.returncode}:\n{(done.stdout + done.stderr)[-3000:]}"
    return seconds, last_line_problem(done.stdout)


def main(argv: list[str]) -> int:
    benches = [Path(a) for a in argv] or sorted((ROOT / "bench").glob("*.py"))
    failed, total = [], 0.0
    for bench in benches:
        seconds, problem = smoke(bench)
        total += seconds
        print(f"{bench.name:<24} {seconds:5.1f} s  {'ok' if problem is None else 'FAILED'}",
              flush=True)
        if problem is not None:
            failed.append(bench.name)
            print(f"  {problem}", flush=True)
    print(f"{len(benches)} benches in {total:.0f} s; "
          f"{'all end with their ratio line' if not failed else 'failed: ' + ', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
