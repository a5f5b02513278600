"""The console entry hands what the process holds to the interpreter's exit without a cycle
search walking it first; a caller of ``main`` in the same process keeps its collector."""

from __future__ import annotations

import subprocess
import sys

from sam_plugin.cli import main as cli_main


def test_the_console_entry_freezes_what_it_holds_and_an_in_process_call_does_not(monkeypatch):
    frozen: list[str] = []
    monkeypatch.setattr(cli_main, "_command", lambda arguments: 7)
    monkeypatch.setattr(cli_main, "keep_long_lived", lambda: frozen.append("frozen"))
    monkeypatch.setattr(sys, "argv", ["sam-agent", "runs"])
    assert cli_main.main(["runs"]) == 7 and frozen == []
    assert cli_main.main() == 7 and frozen == ["frozen"]


def test_after_the_console_entry_nothing_is_left_for_the_exits_collections():
    code = ("import gc, sys\nfrom sam_plugin.cli.main import main\n"
            "sys.argv = ['sam-agent', 'runs', '--help']\nheld = [[i] for i in range(50000)]\n"
            "main()\nprint(len(gc.get_objects()), gc.get_freeze_count())\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    tracked, frozen = map(int, done.stdout.split()[-2:])
    assert frozen > 50000 and tracked < 1000, (tracked, frozen)
