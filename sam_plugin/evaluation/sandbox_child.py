"""The child side of the baseline's box (``sandbox.py`` is the language check the parent runs
first): the process that runs one free-Python script.

It imports only what it needs to hand the script its modules (no ``subprocess``, nothing of
the plugin but the allowed names), boxes itself with the kernel's isolation (``confine.py``)
before it imports the host API, runs the script with restricted builtins under resource
limits, saves the copy, and writes its one-line result to a file descriptor the parent gave
it, never to stdout. It then leaves at once (``os._exit``): no finalizer of the script's
(``__del__``, ``atexit``) runs after the result.
"""

from __future__ import annotations

import builtins
import json
import math
import os
import sys
import traceback
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from sam_plugin.evaluation import sandbox_names

# resource limits of the child (the harness sets them before the script runs)
ADDRESS_SPACE_BYTES = 3 * 1024**3
FILE_SIZE_BYTES = 256 * 1024**2
OPEN_FILES = 256


class ModuleView:
    """A module as the script sees it: the values of the names it is allowed, submodules as
    views of their own; nothing else (no module it imported, no file access)."""

    def __init__(self, label: str, names: Mapping[str, Any]):
        object.__setattr__(self, "_names", dict(names))
        object.__setattr__(self, "_label", label)

    @classmethod
    def of(cls, module: ModuleType, allowed: frozenset[str],
           submodules: Mapping[str, frozenset[str]] | None = None) -> ModuleView:
        """The names of ``allowed`` that ``module`` has (a module among them only as one of
        ``submodules``, a view with its own allowed names)."""
        submodules = submodules or {}
        names: dict[str, Any] = {}
        for name in sorted(allowed | set(submodules)):
            if not hasattr(module, name):
                continue  # not in this version of the module
            value = getattr(module, name)
            if isinstance(value, ModuleType):
                if name in submodules:
                    names[name] = cls.of(value, submodules[name])
            elif name in allowed:
                names[name] = value
        return cls(module.__name__, names)

    def __getattr__(self, name: str) -> Any:
        names: dict[str, Any] = object.__getattribute__(self, "_names")
        if name in names:
            return names[name]
        label = object.__getattribute__(self, "_label")
        raise AttributeError(f"{label} has no attribute {name!r} in a baseline script")

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a baseline script may not change a module")

    def __dir__(self) -> list[str]:
        return sorted(object.__getattribute__(self, "_names"))

    @property
    def __all__(self) -> list[str]:  # ``from samConstants import *``
        return sorted(object.__getattribute__(self, "_names"))

    def public(self) -> Mapping[str, Any]:
        return dict(object.__getattribute__(self, "_names"))


def constants_view(module: ModuleType) -> ModuleView:
    """``samConstants`` as a script sees it: the names whose values are constants (instances of
    the module's own classes, numbers, strings), never a class, function or module."""
    names = {}
    for name in dir(module):
        value = getattr(module, name, None)
        if name.startswith("_") or isinstance(value, type | ModuleType):
            continue
        own = type(value).__module__ == module.__name__
        if own or type(value) in (int, float, str, bool):
            names[name] = value
    return ModuleView(module.__name__, names)


def free_builtins(modules: Mapping[str, ModuleView], allowed: frozenset[str]) -> dict[str, Any]:
    """The ``__builtins__`` a baseline script runs with: the ``allowed`` names of builtins
    (``sandbox.builtin_names``); ``__import__`` hands out the module views only."""
    names = {name: getattr(builtins, name) for name in allowed if hasattr(builtins, name)}

    def guarded_import(name: str, globals: Any = None, locals: Any = None,  # noqa: A002
                       fromlist: Any = (), level: int = 0) -> Any:
        root, _, sub = name.partition(".")
        if level or root not in modules:
            raise ImportError(f"a baseline script may not import {name!r}")
        view = modules[root]
        if sub and not fromlist:
            return view  # ``import numpy.linalg`` binds ``numpy``
        return getattr(view, sub) if sub else view

    names["__import__"] = guarded_import
    names["__build_class__"] = builtins.__build_class__  # class statements
    return names


def host_views(sam: ModuleType, constants: ModuleType) -> dict[str, ModuleView]:
    """The allowed modules as views of their allowed names (numpy with linalg, random and
    fft)."""
    import numpy

    return {"sam": ModuleView.of(sam, sandbox_names.SAM),
            "samConstants": constants_view(constants),
            "math": ModuleView.of(math, sandbox_names.MATH),
            "numpy": ModuleView.of(numpy, sandbox_names.NUMPY, sandbox_names.NUMPY_SUBMODULES)}


def limit_resources(cpu_seconds: float) -> None:
    """Limits for the rest of this (child) process; the script cannot raise them again."""
    import resource

    seconds = max(1, math.ceil(cpu_seconds))
    for limit, value in ((resource.RLIMIT_CPU, seconds), (resource.RLIMIT_AS,
                                                          ADDRESS_SPACE_BYTES),
                         (resource.RLIMIT_FSIZE, FILE_SIZE_BYTES),
                         (resource.RLIMIT_NOFILE, OPEN_FILES), (resource.RLIMIT_CORE, 0)):
        resource.setrlimit(limit, (value, value))


def main(argv: list[str]) -> None:
    """The child's program (``baseline.CHILD``): ``argv[0]`` is the job as JSON (the box, the
    stubs, the copy, where to save it, the script, the target, the CPU seconds, the builtin
    names, whether to confine, the result's file descriptor); never returns."""
    job = json.loads(argv[0])
    result = job["result_fd"]
    limit_resources(float(job["seconds"]))  # before the box, which lets no limit be raised
    outcome: dict[str, str | None] | None = _boxed(job)
    if outcome is None:
        try:
            outcome = {"error": _run(job)}
        except BaseException as exc:  # noqa: BLE001 - the harness's own failure: said
            outcome = {"harness": _one_line(exc)}
    os.write(result, (json.dumps(outcome) + "\n").encode("utf-8"))
    os.close(result)
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    os._exit(0)


def _boxed(job: dict[str, Any]) -> dict[str, str | None] | None:
    """None once this process is boxed (or is not to be); else why it could not be."""
    if not job["confine"]:
        return None
    from sam_plugin.errors import Unconfined
    from sam_plugin.evaluation.confine import confine

    try:
        confine(job["box"])
    except Unconfined as error:
        return {"unboxed": str(error)}
    return None


def _one_line(error: BaseException) -> str:
    return "".join(traceback.format_exception_only(type(error), error)).strip()


def _run(job: dict[str, Any]) -> str | None:
    """The script's error (None: it ran to its end); the copy is saved either way."""
    sys.path.insert(0, job["stubs"])
    import sam
    import samConstants

    sam.openMdb(job["source"])
    error = None
    try:
        with open(job["script"], encoding="utf-8") as handle:
            code = compile(handle.read(), "<free_python>", "exec")
        views = host_views(sam, samConstants)
        target = {"model_name": job["model"], "part_name": job["part"]}
        namespace = {"__name__": "__main__",
                     "__builtins__": free_builtins(views, frozenset(job["builtins"])),
                     **views["samConstants"].public(), "mdb": sam.mdb, "session": sam.session,
                     "SAM_AGENT_TARGET": target}
        exec(code, namespace)
    except BaseException as exc:  # noqa: BLE001 - the script's error is its result
        error = _one_line(exc)
    finally:
        sam.mdb.saveAs(job["out"])  # partial changes too: SAM has no undo
    return error
