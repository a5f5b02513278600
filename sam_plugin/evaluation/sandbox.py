"""Free Python from a baseline answer (a cassette is data) runs only in a box; this module is
its first layer, the language check the parent runs before any child starts.

The free-Python baseline (``baseline.py``) executes whatever script a model wrote, live or
replayed from a cassette file anyone may have edited. So the script runs:

- under the kernel's isolation (``isolation.py`` picks it, ``confine.py`` installs it in the
  child): Landlock lets it write only in its box, a seccomp filter lets it start no process
  and open no socket, and a network and mount namespace (bubblewrap, or ``unshare``) holds it
  where this machine makes one. Where no such isolation is available, nothing runs unless
  the person says ``--trust-cassette``;
- in a child Python (``-I``: no user site, no environment paths, no current directory on
  ``sys.path``; ``sandbox_child.py``, which imports no ``subprocess``) with a scrubbed
  environment, in a temporary working directory holding only the copy of the workspace,
  removed afterwards; its result comes back on a file descriptor of its own, not stdout;
- under resource limits (CPU seconds, address space, file size, open files, no core dumps)
  set by the trusted harness before the script's first line;
- after the AST check here, with restricted builtins (the script guard's,
  compilers/script_guard.py, and a few harmless ones more, never ``open``, ``getattr``,
  ``eval`` or ``__import__``) and an import allowlist: the host API (``sam``,
  ``samConstants``), ``math`` and ``numpy``. Those modules are handed over as views that hold
  only the names ``sandbox_names.py`` allows (numpy's arrays and arithmetic, never its
  introspection helpers: ``numpy.info`` imports any module by name) and, of ``samConstants``,
  its constants: no submodule but numpy's linalg, random and fft, no module at all
  (``sam.storage`` imports ``os``). No attribute that starts with an underscore
  (``().__class__.__base__.__subclasses__()``, ``f.__globals__``, ``case C(__reduce_ex__=r)``)
  and none that reads or writes files or imports (``mdb.saveAs``, ``ndarray.tofile``,
  ``bit_generator.cffi``, ...) may be named on any object, in an expression or a ``match``
  pattern.

The baseline stays "free Python" within the host API: functions, loops, comprehensions,
``math`` and ``numpy`` arrays all work; the harness, not the script, saves the copy.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import Any

from sam_plugin.compilers.script_guard import ALLOWED_BUILTINS, FORBIDDEN_ATTRIBUTES
from sam_plugin.errors import ScriptRefused
from sam_plugin.evaluation import sandbox_child, sandbox_names
from sam_plugin.evaluation.sandbox_child import ModuleView as ModuleView
from sam_plugin.evaluation.sandbox_child import constants_view as constants_view
from sam_plugin.evaluation.sandbox_child import host_views as host_views

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


def check_free_script(text: str) -> ast.Module:
    """The parsed script when it stays within the box; raises :class:`ScriptRefused`.

    Every place where the script names an attribute is looked at: ``x.name`` and the keyword
    attributes of a ``match`` class pattern (``case C(__reduce_ex__=r)`` reads ``r =
    subject.__reduce_ex__``; they are strings, not ``ast.Attribute``)."""
    try:
        tree = ast.parse(text, mode="exec")
    except SyntaxError as error:
        raise ScriptRefused(error.lineno or 0, f"not valid Python ({error.msg})") from None
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        for attr in _attributes_named(node):
            if attr.startswith("_") or attr in FORBIDDEN_ATTRIBUTES or attr in FILE_ATTRIBUTES:
                raise ScriptRefused(line, f"the attribute {attr!r} is not allowed")
        for name in _names_bound_or_read(node):
            if name.startswith("__") and name not in ALLOWED_DUNDER_NAMES:
                raise ScriptRefused(line, f"the name {name!r} is not allowed")
        if isinstance(node, ast.Import | ast.ImportFrom):
            _check_import(node, line)
    return tree


def _attributes_named(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Attribute):
        return [node.attr]
    if isinstance(node, ast.MatchClass):
        return list(node.kwd_attrs)
    return []


def _names_bound_or_read(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Global | ast.Nonlocal):
        return list(node.names)
    if isinstance(node, ast.MatchAs | ast.MatchStar) and node.name:
        return [node.name]
    if isinstance(node, ast.MatchMapping) and node.rest:
        return [node.rest]
    return []


def builtin_names() -> frozenset[str]:
    """The builtins a baseline script may name (the script guard's, compilers/script_guard.py,
    and a few harmless ones more); the child gets them as a list (``sandbox_child.py``)."""
    return frozenset(ALLOWED_BUILTINS | EXTRA_BUILTINS)


def free_builtins(modules: Mapping[str, ModuleView]) -> dict[str, Any]:
    """The ``__builtins__`` a baseline script runs with: no open, getattr, eval, exec,
    compile, type or vars; ``__import__`` hands out the module views only."""
    return sandbox_child.free_builtins(modules, builtin_names())


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


