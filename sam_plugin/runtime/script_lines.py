"""What the script printed, as data (docs/architecture.md "Messages as data"): each line as
printed, and an operation's report (``print("<tool>:", report)``, the line every compiler's
fragment ends with) as its tool and its report, so that the dock says it in words without
reading the printed text back.

The host runs the script with :meth:`ScriptLines.print` as its ``print``: the text goes to
standard output byte for byte as before, and the run directory keeps the lines as
``script_lines.json``. A run written before it has only ``script_output.txt``, shown as
printed.
"""

from __future__ import annotations

import builtins
import json
from pathlib import Path
from typing import Any, TextIO

from pydantic import BaseModel, ValidationError

LINES_FILE = "script_lines.json"


class ScriptLine(BaseModel):
    """One printed line: its ``text``, and for an operation's report the ``tool`` and the
    ``report`` (JSON: a tuple is a list, anything else not JSON its ``str``)."""

    text: str
    tool: str | None = None
    report: dict[str, Any] | None = None


class ScriptLines:
    """The lines a script printed, recorded as it prints them."""

    def __init__(self) -> None:
        self.lines: list[ScriptLine] = []

    def print(self, *args: Any, sep: str | None = " ", end: str | None = "\n",
              file: TextIO | None = None, flush: bool = False) -> None:
        builtins.print(*args, sep=sep, end=end, file=file, flush=flush)
        if file is not None:
            return
        text = (" " if sep is None else sep).join(str(arg) for arg in args)
        label = args[0] if len(args) == 2 else None
        if isinstance(label, str) and label.endswith(":") and label[:-1].isidentifier() \
                and isinstance(args[1], dict) and "\n" not in text:
            report = json.loads(json.dumps(args[1], default=str))
            self.lines.append(ScriptLine(text=text, tool=label[:-1], report=report))
            return
        self.lines += [ScriptLine(text=line) for line in text.splitlines()]

    def write(self, run_dir: Path) -> None:
        """``script_lines.json`` in ``run_dir`` (nothing when the script printed nothing); a
        file that cannot be written leaves the output as printed (``script_output.txt``),
        never the execution's own outcome unsaid."""
        if not self.lines:
            return
        try:
            (Path(run_dir) / LINES_FILE).write_text(json.dumps(
                {"lines": [line.model_dump(exclude_none=True) for line in self.lines]},
                ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        except OSError:
            return


def read_lines(run_dir: Path | None) -> list[ScriptLine] | None:
    """The lines a run's script printed, as data; None when the run kept none (a run
    written before them, or a file that does not read)."""
    if run_dir is None:
        return None
    try:
        stored = json.loads((Path(run_dir) / LINES_FILE).read_text(encoding="utf-8"))
        return [ScriptLine.model_validate(line) for line in stored["lines"]]
    except (OSError, ValueError, KeyError, TypeError, ValidationError):
        return None
