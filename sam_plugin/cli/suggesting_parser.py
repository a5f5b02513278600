"""An argparse parser that names the flag a misspelt one was meant to be: ``the following
arguments are required: --workspace (you wrote --worksapce: did you mean --workspace?)``."""

from __future__ import annotations

import argparse
import difflib
from collections.abc import Sequence
from typing import Any, NoReturn


class SuggestingParser(argparse.ArgumentParser):
    """Keeps the arguments it was given; a usage error names each unknown ``--flag`` with the
    closest flag of this (sub)command."""

    seen: list[str]

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: Any = None) -> tuple[argparse.Namespace, list[str]]:
        import sys

        self.seen = list(sys.argv[1:] if args is None else args)
        return super().parse_known_args(args, namespace)

    def error(self, message: str) -> NoReturn:
        hints = self.suggestions()
        super().error(f"{message} ({'; '.join(hints)})" if hints else message)

    def suggestions(self) -> list[str]:
        known = [flag for action in self._actions for flag in action.option_strings
                 if flag.startswith("--")]
        out = []
        for token in getattr(self, "seen", []):
            flag = token.split("=", 1)[0]
            if not flag.startswith("--") or flag in known:
                continue
            close = difflib.get_close_matches(flag, known, n=1, cutoff=0.75)
            if close:
                out.append(f"you wrote {flag}: did you mean {close[0]}?")
        return out
