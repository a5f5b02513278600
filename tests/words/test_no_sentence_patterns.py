"""The front ends render the product's words and never parse them (docs/architecture.md
"Messages as data"): a regular expression in ``ui/``, ``cli/`` or ``mcp_server/`` reads what
a person types or lays out text; each one there is listed below with why. A run written
before phrases shows its stored English: no pattern reads it. A new one fails here: make
the words a phrase where they are made.

And a new run's checks and errors never go through the readers kept for old runs."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import sam_plugin
from sam_plugin.compilers.check_phrases import CATALOGUE as _CHECKS  # noqa: F401 (registers)
from sam_plugin.compilers.evidence import Check
from sam_plugin.words.phrase import phrase

PACKAGE = Path(sam_plugin.__file__).parent
FRONT_ENDS = ("ui", "cli", "mcp_server")

# module -> how many regular expressions it holds, and what they read
ALLOWED: dict[str, tuple[int, str]] = {
    "ui/field_text.py": (5, "numbers, ranges and points the analyst types in a field"),
    "ui/fitting.py": (2, "where a long word of any text may break (layout)"),
    "mcp_server/line_guard.py": (7, "a JSON-RPC line an MCP client sends"),
}
# made data, their patterns deleted: each fails above if it comes back (a spec reader's
# problem carries its path as data, compilers/spec/problem.py SpecProblem; a script's
# report is its tool and its report, runtime/script_lines.py, its names by kind; a check and
# a run's message are said from their phrases, a run written before them as stored; a tool
# the provider's own words quote is found as a whole word, not by a pattern)
DATA_NOW = ("ui/spec_draft.py", "ui/output_words.py", "ui/plain_words.py", "ui/check_words.py")


def _patterns(source: str) -> int:
    """Calls of the ``re`` module (``re.compile``, ``re.sub``, ...) in ``source``."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "re":
            raise AssertionError("import the re module itself, so that its uses are counted")
    return sum(1 for node in ast.walk(tree)
               if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
               and isinstance(node.func.value, ast.Name) and node.func.value.id == "re")


def test_no_new_pattern_reads_the_products_words_in_a_front_end():
    found = {}
    for package in FRONT_ENDS:
        for path in sorted((PACKAGE / package).rglob("*.py")):
            count = _patterns(path.read_text(encoding="utf-8"))
            if count:
                found[path.relative_to(PACKAGE).as_posix()] = count
    assert found == {module: count for module, (count, _) in ALLOWED.items()}, (
        "a front end reads words with a regular expression: words the product makes are a "
        "phrase where they are made (sam_plugin/words/phrase.py), rendered here; a pattern "
        "that reads what a person types is listed in ALLOWED with why")


def _imports_re(source: str) -> bool:
    """``source`` imports the ``re`` module (under any name) or a module that wraps it."""
    return any(isinstance(node, ast.Import) and any(alias.name in ("re", "regex")
                                                    for alias in node.names)
               or isinstance(node, ast.ImportFrom) and node.module in ("re", "regex")
               for node in ast.walk(ast.parse(source)))


def test_only_the_listed_front_end_modules_import_re_at_all():
    """An ``import re as x`` would hide its calls from the count above: only the modules
    that read what a person types or lay out text import it."""
    importing = {path.relative_to(PACKAGE).as_posix()
                 for package in FRONT_ENDS for path in (PACKAGE / package).rglob("*.py")
                 if _imports_re(path.read_text(encoding="utf-8"))}
    assert importing == set(ALLOWED)
    assert {module for module in ALLOWED if module.startswith("ui/")} == {
        "ui/field_text.py", "ui/fitting.py"}


def test_the_import_of_re_is_seen_under_any_name():
    assert _imports_re("import re as words\n") and _imports_re("import os, re\n")
    assert _imports_re("from re import sub\n") and not _imports_re("import repr_tools\n")


def test_no_pattern_comes_back_where_the_words_are_data_now():
    for module in DATA_NOW:
        assert module not in ALLOWED
        source = (PACKAGE / module).read_text(encoding="utf-8")
        assert _patterns(source) == 0 and "import re\n" not in source, module


def test_the_count_is_of_calls_of_the_re_module():
    assert _patterns("import re\nA = re.compile('x')\nre.sub('a', 'b', 'c')\n") == 2
    assert _patterns("import re\nA.sub('b', 'c')\n") == 0
    with pytest.raises(AssertionError):
        _patterns("from re import compile\n")


def test_a_new_check_is_said_from_its_phrases(monkeypatch):
    from sam_plugin.ui import check_words

    def never(*args: object, **kwargs: object) -> object:
        raise AssertionError("a new run's check was read back from its English")

    monkeypatch.setattr(check_words, "recorded_check_row", never)
    check = Check.said(phrase("check.node_count"), "40..50", "45", True)
    row = check_words.check_row(Check.model_validate(check.model_dump(mode="json")))
    assert (row.name, row.expected, row.actual) == ("node count", "40..50", "45")


# checks made from English (no phrase), which the dock would show as stored English, as it
# shows a run written before phrases: none is left (Load's value checks are phrases too)
CHECKS_FROM_ENGLISH: dict[str, int] = {}


def _calls_of(name: str) -> dict[str, int]:
    """How many times each product module calls ``name(...)``, by its path in the package."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        count = sum(1 for node in ast.walk(tree) if isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Name) and node.func.id == name)
        if count:
            found[path.relative_to(PACKAGE).as_posix()] = count
    return found


def test_every_check_the_product_makes_has_phrases_but_those_listed():
    found = _calls_of("Check")
    assert found == CHECKS_FROM_ENGLISH, (
        "make a check with Check.said(phrases): one made from English is shown as stored "
        "English in every language (as a run written before phrases is)")


# where a run's error record is made: each is written through ``endings.result``, which gives
# it its phrase (``run.said`` for English with none), but the recovery of a run whose
# outcome is unknown, written before any of its phrases could be: its message is shown as
# stored, the same words ``run.said`` would show
ERRORS_MADE: dict[str, int] = {
    "runtime/run/endings.py": 3,  # failed, returned, rejected
    "runtime/run/execute.py": 1,  # the provisional "unknown", through endings.result
    "runtime/store/run_history.py": 1,  # the recovery
}


def test_every_run_error_is_made_where_it_gets_a_phrase_but_those_listed():
    found = _calls_of("ErrorRecord")
    assert found == ERRORS_MADE, (
        "a run's error is written through runtime/run/endings.py result(), which gives it "
        "its phrase: one written past it is shown as stored English in every language")


def test_an_error_written_without_a_phrase_gets_one_as_said():
    """``internal_error`` and a refusal end a run with English only: it is written with the
    phrase ``run.said`` (the dock shows it as it is, and never reads it)."""
    from types import SimpleNamespace

    from sam_plugin.runtime.run.endings import _scrubbed
    from sam_plugin.runtime.store.run_store import ErrorRecord
    from sam_plugin.runtime.store.scrubber import Scrubber
    from sam_plugin.words.phrase import render

    context = SimpleNamespace(scrubber=Scrubber(""))
    error = _scrubbed(context, ErrorRecord(layer="execution", message="internal error"))  # type: ignore[arg-type]
    assert error.phrase is not None and error.phrase.key == "run.said"
    assert render(error.phrase) == "internal error"
