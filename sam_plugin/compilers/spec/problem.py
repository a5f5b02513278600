"""A problem of a spec as data (docs/architecture.md "Messages as data"): where it is and what
is wrong there, said as the reader's line.

The line is what a design repair round sends the model and what the CLI and MCP say, byte for
byte; the dock places the problem on the field of its ``path`` without reading the line back.
"""

from __future__ import annotations

from typing import Final

WHOLE_SPEC: Final = "(the spec)"  # how the line names the document itself


class SpecProblem(str):
    """The line ``path: words`` (the string), with ``path`` and ``words`` as data.

    ``path``: the JSON path of the field (``steps[0].values.vector``), ``""`` for the whole
    spec (said ``(the spec)``); ``missing``: the required key the object at ``path`` lacks
    (a ``required`` error of the schema), so that a form puts the problem on that key's own
    field. A problem that names no field is a plain ``str``."""

    path: str
    words: str
    missing: str | None

    def __new__(cls, path: str, words: str, missing: str | None = None) -> SpecProblem:
        problem = super().__new__(cls, f"{path or WHOLE_SPEC}: {words}")
        problem.path, problem.words, problem.missing = path, words, missing
        return problem

    def __reduce__(self) -> tuple[type[SpecProblem], tuple[str, str, str | None]]:
        return (SpecProblem, (self.path, self.words, self.missing))
