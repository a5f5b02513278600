"""A suite task: one Python file under the suite directory, loaded by path.

A task file defines ``TASK = Task(...)`` and ``setup(mdb)``, which builds the starting
workspace through the host API (``mdb`` is a fresh database holding the empty ``Model-1``).
Its name is the file's stem.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from sam_plugin.compilers.protocol import ModeName
from sam_plugin.compilers.spec.refusal_category import REFUSAL_CATEGORIES, RefusalCategory
from sam_plugin.errors import UsageError
from sam_plugin.evaluation.checks import Check

Expect = Literal["verified", "nothing_runs"]
# layers at which a run that must not execute may legitimately end
REFUSAL_LAYERS: tuple[str, ...] = ("design", "tool_call", "compile")


@dataclass(frozen=True)
class Task:
    mode: ModeName
    part: str
    request: str
    checks: Sequence[Check] = ()
    expect: Expect = "verified"
    # for expect == "nothing_runs": where the run may end (nothing executed there)
    refuse_at: Sequence[str] = REFUSAL_LAYERS
    # for expect == "nothing_runs": the refusal category the mode should name (reported
    # beside acceptance, which stays "nothing ran")
    category: RefusalCategory | None = None
    model: str = "Model-1"
    tags: Sequence[str] = ()
    name: str = ""
    setup: Callable[[Any], None] | None = field(default=None, compare=False, repr=False)


def load_task(path: Path) -> Task:
    spec = importlib.util.spec_from_file_location(f"sam_eval_task_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise UsageError(f"{path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as error:
        raise UsageError(f"{path}: {type(error).__name__}: {error}") from None
    task = getattr(module, "TASK", None)
    if not isinstance(task, Task):
        raise UsageError(f"{path}: defines no TASK = Task(...)")
    setup = getattr(module, "setup", None)
    if not callable(setup):
        raise UsageError(f"{path}: defines no setup(mdb) function")
    if task.expect == "verified" and not task.checks:
        raise UsageError(f"{path}: a task that must verify needs acceptance checks")
    if task.category is not None:
        if task.category not in REFUSAL_CATEGORIES:
            raise UsageError(f"{path}: category {task.category!r} is not a refusal category; "
                             f"one of {', '.join(REFUSAL_CATEGORIES)}")
        if task.expect != "nothing_runs":
            raise UsageError(f"{path}: category names a refusal: only with "
                             "expect=\"nothing_runs\"")
    return replace(task, name=path.stem, setup=setup)


def load_suite(suite: Path, only: Sequence[str] = ()) -> list[Task]:
    """The suite's tasks in file-name order; ``only`` selects by name, in its order (unknown
    names raise)."""
    if suite.is_file():
        files = [suite]
    elif suite.is_dir():
        files = sorted(p for p in suite.glob("*.py") if not p.name.startswith("_"))
    else:
        raise UsageError(f"{suite}: no such suite directory or task file")
    tasks = [load_task(p) for p in files]
    if only:
        known = {t.name for t in tasks}
        unknown = [n for n in only if n not in known]
        if unknown:
            raise UsageError(
                f"--only: no task {', '.join(unknown)} in {suite}; "
                f"tasks: {', '.join(sorted(known))}"
            )
        by_name = {t.name: t for t in tasks}
        tasks = [by_name[n] for n in dict.fromkeys(only)]
    if not tasks:
        raise UsageError(f"{suite}: no task files (*.py)")
    return tasks
