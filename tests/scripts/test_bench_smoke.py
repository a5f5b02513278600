""".ci/bench_smoke.py as CI runs it: a bench passes when it exits 0 and its last line is
``ratio=X goal<=Y``, whatever X is; a crash, a missing ratio line or one not last fails."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / ".ci" / "bench_smoke.py"

BENCHES = {
    "over_goal.py": "print('side by side'); print('ratio=9.50 goal<=1.5')",
    "crashes.py": "print('ratio=1.00 goal<=2'); raise SystemExit(3)",
    "no_ratio.py": "print('done in 2 s')",
    "ratio_not_last.py": "print('ratio=1.00 goal<=2'); print('bench time 3s')",
    "silent.py": "",
    "smoke_seen.py": "import os; print(f\"ratio={os.environ['BENCH_SMOKE']} goal<=1\")",
}


def smoke(tmp_path: Path, name: str) -> subprocess.CompletedProcess[str]:
    bench = tmp_path / name
    bench.write_text(BENCHES[name], encoding="utf-8")
    return subprocess.run([sys.executable, str(SCRIPT), str(bench)], capture_output=True,
                          text=True, check=False, timeout=60)


@pytest.mark.parametrize("name", ["over_goal.py", "smoke_seen.py"])
def test_a_bench_ending_with_its_ratio_line_passes_whatever_the_value(
        tmp_path: Path, name: str) -> None:
    done = smoke(tmp_path, name)
    assert done.returncode == 0, done.stdout
    assert "all end with their ratio line" in done.stdout


@pytest.mark.parametrize(("name", "said"), [
    ("crashes.py", "exited 3"),
    ("no_ratio.py", "its last line is not 'ratio=X goal<=Y': 'done in 2 s'"),
    ("ratio_not_last.py", "its last line is not 'ratio=X goal<=Y': 'bench time 3s'"),
    ("silent.py", "printed nothing"),
])
def test_a_bench_that_crashes_or_ends_without_its_ratio_line_fails(
        tmp_path: Path, name: str, said: str) -> None:
    done = smoke(tmp_path, name)
    assert done.returncode == 1
    assert said in done.stdout
    assert f"failed: {name}" in done.stdout
