"""The generated script's namespace: an allowlist checked before it runs, and the builtins it
runs with.

Nothing hostile compiles today (values enter scripts as ``repr`` literals only), but the
script runs inside the analyst's SAM session, so this is defence in depth: the composed text
is parsed, and anything outside the allowlist (an ``import os``, ``open``, ``__import__``,
``exec``/``eval``, a dunder attribute, a function or class definition) refuses the whole
script before its first line runs. It then runs with :func:`script_builtins`, which holds only
the builtins the allowlist names and an ``__import__`` that reaches only the modules below.

What a composed script is (docs/architecture.md §5): ``from sam import ...``,
``from samConstants import ...``, ``from sam_plugin.samops import <helper> as _<helper>``, the
target binding, the composer's stage markers and blocks (assignments, helper and host calls
over literals, ``if``, ``for``, ``try``/``except``/``raise``). The sets below are the whole
policy: extend them, not the code, when the composer gains a construct.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import pkgutil
import sys
from collections.abc import Iterator, Mapping
from functools import cache
from types import ModuleType
from typing import Any

from sam_plugin.compilers.protocol import quote
from sam_plugin.errors import ScriptRefused as ScriptRefused

HELPER_PACKAGE = "sam_plugin.samops"
HOST_MODULES = frozenset({"sam", "samConstants"})
INJECTED_NAMES = frozenset({"SAM_AGENT_TARGET", "SAM_AGENT_OUTPUT_DIR"})

ALLOWED_NODES: frozenset[type[ast.AST]] = frozenset({
    # statements
    ast.Module, ast.Expr, ast.Assign, ast.AugAssign, ast.If, ast.For, ast.While, ast.Pass,
    ast.Break, ast.Continue, ast.Try, ast.ExceptHandler, ast.Raise, ast.Assert, ast.ImportFrom,
    ast.alias,
    # expressions
    ast.Call, ast.keyword, ast.Attribute, ast.Name, ast.Constant, ast.Tuple, ast.List,
    ast.Dict, ast.Set, ast.Subscript, ast.Slice, ast.Starred, ast.BinOp, ast.UnaryOp,
    ast.BoolOp, ast.Compare, ast.IfExp, ast.ListComp, ast.SetComp, ast.DictComp,
    ast.GeneratorExp, ast.comprehension, ast.JoinedStr, ast.FormattedValue,
    # contexts and operators
    ast.Load, ast.Store,
    ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.USub, ast.UAdd,
    ast.Not, ast.And, ast.Or, ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.In,
    ast.NotIn, ast.Is, ast.IsNot,
})

ALLOWED_BUILTINS = frozenset({
    "abs", "all", "any", "bool", "dict", "enumerate", "float", "frozenset", "int",
    "isinstance", "len", "list", "max", "min", "range", "reversed", "round", "set", "sorted",
    "str", "sum", "tuple", "zip", "print",
    "Exception", "BaseException", "RuntimeError", "ValueError", "KeyError", "TypeError",
    "IndexError", "LookupError", "ArithmeticError", "AssertionError",
})

# attributes that reach frames, code or globals without a dunder, or evaluate format fields
FORBIDDEN_ATTRIBUTES = frozenset({
    "f_globals", "f_locals", "f_builtins", "f_back", "f_code", "gi_frame", "gi_code",
    "cr_frame", "cr_code", "ag_frame", "ag_code", "tb_frame", "tb_next", "format",
    "format_map", "mro",
})


@cache
def helper_modules() -> frozenset[str]:
    """Every module of the helper package (``_<name>`` in scripts): read from the package, so
    a new samops module needs no edit here."""
    import sam_plugin.samops as package

    return frozenset(info.name for info in pkgutil.iter_modules(package.__path__))


def check_script(text: str) -> ast.Module:
    """The parsed script when every node is allowed; raises :class:`ScriptRefused` (a
    ``SyntaxError`` is refused too). Compile the returned tree: the text is parsed once."""
    try:
        tree = ast.parse(text, mode="exec")
    except SyntaxError as error:
        raise ScriptRefused(error.lineno or 0, f"not valid Python ({error.msg})") from None
    loaded: list[ast.Name] = []
    bound: set[str] = set(INJECTED_NAMES)
    helpers = {f"_{name}": name for name in helper_modules()}
    for node in _walk(tree):
        _check_node(node, bound, loaded)
        if type(node) is ast.Attribute and type(node.value) is ast.Name \
                and node.value.id in helpers:
            _check_helper_attribute(node, helpers[node.value.id])
    for name in loaded:  # after the walk: a name may be bound below its first use (a loop)
        if name.id not in bound and name.id not in ALLOWED_BUILTINS:
            raise ScriptRefused(name.lineno, f"the name {quote(name.id)} is neither bound by "
                                "the script nor an allowed builtin")
    return tree


def script_builtins() -> dict[str, Any]:
    """The ``__builtins__`` a composed script runs with."""
    names = {name: getattr(builtins, name) for name in ALLOWED_BUILTINS}
    names["__import__"] = _guarded_import
    return names


_LITERAL_CONTAINERS = (ast.Tuple, ast.List)


def _walk(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node that needs a look. Literal data (tuples and lists of constants, nested: the
    bulk of a big build) holds only allowed nodes, so it is skipped, not visited node by node."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if type(node) in _LITERAL_CONTAINERS and _is_literal(node):
            continue
        yield node
        stack.extend(ast.iter_child_nodes(node))


def _is_literal(node: ast.AST) -> bool:
    stack = [node]
    while stack:
        current = stack.pop()
        kind = type(current)
        if kind is ast.Constant:
            continue
        if kind in _LITERAL_CONTAINERS:
            stack.extend(current.elts)  # type: ignore[attr-defined]  # kind checked
        elif kind is ast.UnaryOp and type(current.op) is ast.USub:  # type: ignore[attr-defined]  # narrowed
            stack.append(current.operand)  # type: ignore[attr-defined]  # kind checked
        else:
            return False
    return True


def _check_node(node: ast.AST, bound: set[str], loaded: list[ast.Name]) -> None:
    line = getattr(node, "lineno", 0)
    kind = type(node)
    if kind not in ALLOWED_NODES:
        raise ScriptRefused(line, f"{_construct(node)} is not allowed in a generated script")
    if kind is ast.Name:
        name = node.id  # type: ignore[attr-defined]  # kind checked
        if name.startswith("__"):
            raise ScriptRefused(line, f"the name {quote(name)} is not allowed")
        if type(node.ctx) is ast.Store:  # type: ignore[attr-defined]  # kind checked
            bound.add(name)
        else:
            loaded.append(node)  # type: ignore[arg-type]  # kind checked
    elif kind is ast.Attribute:
        attr = node.attr  # type: ignore[attr-defined]  # kind checked
        if attr.startswith("__") or attr in FORBIDDEN_ATTRIBUTES:
            raise ScriptRefused(line, f"the attribute {quote(attr)} is not allowed")
    elif kind is ast.ImportFrom:
        _check_import(node, line)  # type: ignore[arg-type]  # kind checked
        bound.update(a.asname or a.name for a in node.names)  # type: ignore[attr-defined]  # narrowed
    elif kind is ast.ExceptHandler and node.name:  # type: ignore[attr-defined]  # kind checked
        if node.name.startswith("__"):  # type: ignore[attr-defined]  # kind checked
            raise ScriptRefused(line, f"the name {quote(node.name)} is not allowed")  # type: ignore[attr-defined]  # narrowed
        bound.add(node.name)  # type: ignore[attr-defined]  # kind checked


def _check_helper_attribute(node: ast.Attribute, helper: str) -> None:
    """``_part_ops.require_part`` yes, ``_part_ops.os`` (a module the helper imported) no."""
    if node.attr not in helper_api(helper):
        raise ScriptRefused(node.lineno, f"{quote(node.attr)} is not a public function or "
                            f"class of the helper {helper}")


@cache
def helper_api(helper: str) -> frozenset[str]:
    """What a script may use of a helper module: its public names that are not modules."""
    module = importlib.import_module(f"{HELPER_PACKAGE}.{helper}")
    return frozenset(name for name, value in vars(module).items()
                     if not name.startswith("_") and not isinstance(value, ModuleType))


def _check_import(node: ast.ImportFrom, line: int) -> None:
    module = node.module or ""
    if node.level or (module not in HOST_MODULES and module != HELPER_PACKAGE):
        raise ScriptRefused(line, f"importing from {quote(module or '.')} is not allowed "
                            f"(allowed: {', '.join(sorted(HOST_MODULES))}, {HELPER_PACKAGE})")
    for alias in node.names:
        if alias.name == "*" or alias.name.startswith("_"):
            raise ScriptRefused(line, f"importing {quote(alias.name)} is not allowed")
        if module in HOST_MODULES and isinstance(
                getattr(sys.modules.get(module), alias.name, None), ModuleType):
            raise ScriptRefused(line, f"{quote(alias.name)} is a module, not a name of {module}")
        if module == HELPER_PACKAGE:
            if alias.name not in helper_modules():
                raise ScriptRefused(line, f"{quote(alias.name)} is not a helper module of "
                                    f"{HELPER_PACKAGE}")
            if alias.asname != f"_{alias.name}":
                raise ScriptRefused(line, f"helper {alias.name} must be imported as "
                                    f"_{alias.name}")


def _construct(node: ast.AST) -> str:
    words = {
        ast.Import: "an import statement", ast.FunctionDef: "a function definition",
        ast.AsyncFunctionDef: "a function definition", ast.Lambda: "a lambda",
        ast.ClassDef: "a class definition", ast.Global: "a global statement",
        ast.Nonlocal: "a nonlocal statement", ast.With: "a with statement",
        ast.Delete: "a del statement", ast.NamedExpr: "an assignment expression",
        ast.Await: "await", ast.Yield: "yield", ast.YieldFrom: "yield",
    }
    return words.get(type(node), f"a {type(node).__name__} node")


def _guarded_import(name: str, globals: Mapping[str, Any] | None = None,  # noqa: A002
                    locals: Mapping[str, Any] | None = None,  # noqa: A002
                    fromlist: tuple[str, ...] | list[str] | None = (), level: int = 0) -> Any:
    """``__import__`` for the script: the host modules and the helper package only."""
    allowed = name in HOST_MODULES or (
        name == HELPER_PACKAGE and all(n in helper_modules() for n in (fromlist or ())))
    if level or not allowed:
        raise ImportError(f"a generated script may not import {name!r}")
    return builtins.__import__(name, globals, locals, fromlist or (), level)
