"""The real process seam: each output line as it is written (a build's [n/N] count moves while
it compiles, though the program buffers a pipe), and Cancel ends the process."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

import pytest

from sam_plugin.errors import SetupCancelled
from sam_plugin.local_llm.commands import SubprocessCommands

# stdout is not told to flush: into a pipe, Python would hold the lines to the end
COUNTING = ("import time, sys\nfor step in range(1, 4):\n    print(f'[{step}/3] step')\n"
            "    time.sleep(0.4)\nsys.stdout.write('end\\r')\n")


def test_each_line_arrives_while_the_process_runs(tmp_path: Path) -> None:
    started = time.monotonic()
    seen: list[tuple[float, str]] = []
    status = SubprocessCommands().run(
        [sys.executable, "-c", COUNTING], log=tmp_path / "log", cancel=threading.Event(),
        on_line=lambda line: seen.append((time.monotonic() - started, line)))
    assert status == 0
    assert [line for _, line in seen] == ["[1/3] step", "[2/3] step", "[3/3] step", "end"]
    assert seen[0][0] < seen[2][0] - 0.5  # the first came before the last was written
    assert "[2/3] step" in (tmp_path / "log").read_text()


def test_cancel_ends_the_process(tmp_path: Path) -> None:
    cancel = threading.Event()
    threading.Timer(0.3, cancel.set).start()
    started = time.monotonic()
    with pytest.raises(SetupCancelled, match="resumes"):
        SubprocessCommands().run([sys.executable, "-c", "import time; time.sleep(30)"],
                                 log=tmp_path / "log", on_line=lambda line: None, cancel=cancel)
    assert time.monotonic() - started < 10
