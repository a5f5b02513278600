"""Free Python from a baseline answer (a cassette is data) runs only in a box.

The free-Python baseline (``baseline.py``) executes whatever script a model wrote, live or
replayed from a cassette file anyone may have edited. So the script runs:

- in a child Python (``-I``: no user site, no environment paths, no current directory on
  ``sys.path``) with a scrubbed environment, in a temporary working directory holding only
  the copy of the workspace, removed afterwards;
- under resource limits (CPU seconds, address space, file size, open files, no core dumps)
  set by the trusted harness before the script's first line;
- with no network: in a network namespace of its own where ``unshare -n`` works, and always
  without any module that reaches one;
- after an AST check, with restricted builtins (the script guard's, compilers/script_guard.py,
  and a few harmless ones more, never ``open``, ``getattr``, ``eval`` or ``__import__``) and
  an import allowlist: the host API (``sam``, ``samConstants``), ``math`` and ``numpy``. Those
  modules are handed over as views that hold only the names ``sandbox_names.py`` allows
  (numpy's arrays and arithmetic, never its introspection helpers: ``numpy.info`` imports any
  module by name) and, of ``samConstants``, its constants: no submodule but numpy's linalg,
  random and fft, no module at all (``sam.storage`` imports ``os``). No attribute that starts
  with an underscore (``().__class__.__base__.__subclasses__()``, ``f.__globals__``) and none
  that reads or writes files or imports (``mdb.saveAs``, ``ndarray.tofile``,
  ``bit_generator.cffi``, ...) may be named on any object.

The baseline stays "free Python" within the host API: functions, loops, comprehensions,
``math`` and ``numpy`` arrays all work; the harness, not the script, saves the copy.
"""

from __future__ import annotations

import ast
import builtins
import functools
import math
import shutil
import subprocess
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from sam_plugin.compilers.script_guard import ALLOWED_BUILTINS, FORBIDDEN_ATTRIBUTES
from sam_plugin.errors import ScriptRefused
from sam_plugin.evaluation import sandbox_names

ALLOWED_MODULES = frozenset({"sam", "samConstants", "math", "numpy"})
NUMPY_SUBMODULES = frozenset(sandbox_names.NUMPY_SUBMODULES)
EXTRA_BUILTINS = frozenset({
    "map", "filter", "next", "iter", "divmod", "pow", "callable", "repr", "chr", "ord",
    "hash", "slice", "complex", "bytes", "NameError", "AttributeError", "ZeroDivisionError",
    "StopIteration", "NotImplementedError", "OverflowError", "FloatingPointError",
})
# names that read or write files, import a module, or reach modules that do, on any object of
# the host API or numpy (``default_rng().bit_generator.cffi`` imports cffi)
FILE_ATTRIBUTES = frozenset({
    "saveAs", "save", "openMdb", "tofile", "dump", "dumps", "fromfile", "load", "loads",
    "savez", "savez_compressed", "loadtxt", "savetxt", "genfromtxt", "memmap", "open_memmap",
    "fromregex", "DataSource", "ctypeslib", "ctypes", "cffi", "lib", "testing", "f2py",
    "distutils", "os", "sys", "subprocess", "socket", "builtins", "importlib", "char", "rec",
})
ALLOWED_DUNDER_NAMES = frozenset({"__name__"})

# resource limits of the child (the harness sets them before the script runs)
ADDRESS_SPACE_BYTES = 3 * 1024**3
FILE_SIZE_BYTES = 256 * 1024**2
OPEN_FILES = 256


def check_free_script(text: str) -> ast.Module:
    """The parsed script when it stays within the box; raises :class:`ScriptRefused`."""
    try:
        tree = ast.parse(text, mode="exec")
    except SyntaxError as error:
        raise ScriptRefused(error.lineno or 0, f"not valid Python ({error.msg})") from None
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Attribute):
            if node.attr.startswith("_") or node.attr in FORBIDDEN_ATTRIBUTES \
                    or node.attr in FILE_ATTRIBUTES:
                raise ScriptRefused(line, f"the attribute {node.attr!r} is not allowed")
        elif isinstance(node, ast.Name):
            if node.id.startswith("__") and node.id not in ALLOWED_DUNDER_NAMES:
                raise ScriptRefused(line, f"the name {node.id!r} is not allowed")
        elif isinstance(node, ast.Import | ast.ImportFrom):
            _check_import(node, line)
        elif isinstance(node, ast.Global | ast.Nonlocal):
            for name in node.names:
                if name.startswith("__"):
                    raise ScriptRefused(line, f"the name {name!r} is not allowed")
    return tree


def _check_import(node: ast.Import | ast.ImportFrom, line: int) -> None:
    if isinstance(node, ast.ImportFrom):
        if node.level:
            raise ScriptRefused(line, "relative imports are not allowed")
        modules = [node.module or ""]
        names = [alias.name for alias in node.names]
        if any(n == "*" and node.module not in ("samConstants", "math") for n in names):
            raise ScriptRefused(line, f"'from {node.module} import *' is not allowed")
        if any(n.startswith("_") or n in FILE_ATTRIBUTES for n in names):
            raise ScriptRefused(line, f"importing {', '.join(names)} is not allowed")
    else:
        modules = [alias.name for alias in node.names]
    for module in modules:
        root, _, sub = module.partition(".")
        if root not in ALLOWED_MODULES or (sub and not (
                root == "numpy" and sub in NUMPY_SUBMODULES)):
            raise ScriptRefused(line, f"importing {module!r} is not allowed (allowed: "
                                f"{', '.join(sorted(ALLOWED_MODULES))})")


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


def free_builtins(modules: Mapping[str, ModuleView]) -> dict[str, Any]:
    """The ``__builtins__`` a baseline script runs with: no open, getattr, eval, exec,
    compile, type or vars; ``__import__`` hands out the module views only."""
    names = {name: getattr(builtins, name) for name in ALLOWED_BUILTINS | EXTRA_BUILTINS
             if hasattr(builtins, name)}

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


@functools.cache
def network_cut() -> tuple[str, ...]:
    """``unshare -n`` (a network namespace with nothing in it) where this machine allows it;
    else nothing: the import allowlist already keeps every socket out of reach."""
    path = shutil.which("unshare")
    if path is None:
        return ()
    try:
        done = subprocess.run([path, "-n", "true"], capture_output=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return ()
    return (path, "-n") if done.returncode == 0 else ()


HARNESS = r"""
import json, sys, traceback
stubs, source, out, script, model, part, seconds = sys.argv[1:8]
from sam_plugin.evaluation import sandbox
sys.path.insert(0, stubs)
import sam, samConstants
sam.openMdb(source)
error = None
try:
    with open(script, encoding="utf-8") as handle:
        text = handle.read()
    tree = sandbox.check_free_script(text)
    views = sandbox.host_views(sam, samConstants)
    namespace = {"__name__": "__main__", "__builtins__": sandbox.free_builtins(views),
                 **views["samConstants"].public(), "mdb": sam.mdb, "session": sam.session,
                 "SAM_AGENT_TARGET": {"model_name": model, "part_name": part}}
    code = compile(tree, "<free_python>", "exec")
    sandbox.limit_resources(float(seconds))
    exec(code, namespace)
except BaseException as exc:
    error = "".join(traceback.format_exception_only(type(exc), exc)).strip()
finally:
    sam.mdb.saveAs(out)  # partial changes too: SAM has no undo
print(json.dumps({"error": error}))
"""
