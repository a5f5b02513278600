"""The screenshot commands of the README and docs/install.md give the picture the README
shows (1400×900, docs/demo.png), not the offscreen screen's cramped default."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _demo_commands(page: Path) -> list[str]:
    return [line for line in page.read_text(encoding="utf-8").splitlines()
            if "sam-agent demo" in line and "--screenshot demo.png" in line]


def test_every_demo_screenshot_command_gives_the_readme_picture():
    shown = re.search(r"!\[[^\]]*?(\d+)×(\d+)\]\(docs/demo\.png\)",
                      (ROOT / "README.md").read_text(encoding="utf-8"))
    assert shown is not None
    size = f"--size {shown.group(1)}x{shown.group(2)}"
    commands = _demo_commands(ROOT / "README.md") + _demo_commands(ROOT / "docs" / "install.md")
    assert len(commands) >= 3
    assert all(size in command for command in commands), commands
