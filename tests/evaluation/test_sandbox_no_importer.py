"""The baseline's box hands out no importer (sam_plugin/evaluation/sandbox.py): each module
view holds the names ``sandbox_names.py`` allows and nothing else. On main the numpy view was
numpy minus a list of forbidden names, so ``numpy.info(NAME, toplevel=MODULE)`` imported any
installed module by name (its import-time code ran in the box), and numpy's other
introspection helpers, ``test`` (which imports pytest) among them, were in reach."""

from __future__ import annotations

import builtins
import collections
import functools
import importlib
import importlib.abc
import sys
import types
from collections.abc import Iterator
from typing import Any

import numpy
import pytest

from sam_plugin.errors import ScriptRefused
from sam_plugin.evaluation import sandbox_names
from sam_plugin.evaluation.sandbox import check_free_script, host_views

INTROSPECTION = ["info", "lookfor", "source", "who", "test", "show_config", "show_runtime",
                 "get_include", "deprecate", "deprecate_with_doc", "safe_eval", "byte_bounds",
                 "set_printoptions", "seterrcall"]


@pytest.fixture
def views() -> dict[str, Any]:
    import sam
    import samConstants

    return host_views(sam, samConstants)


@pytest.mark.parametrize("name", INTROSPECTION)
def test_no_introspection_helper_of_numpy_is_in_the_view(views, name):
    with pytest.raises(AttributeError, match=f"numpy has no attribute '{name}' in a baseline "
                                             "script"):
        getattr(views["numpy"], name)


def test_a_view_is_what_is_allowed_so_a_name_numpy_adds_is_not_in_it(views, monkeypatch):
    monkeypatch.setattr(numpy, "brand_new_helper", lambda: None, raising=False)
    fresh = host_views(*_host_modules())
    assert not hasattr(fresh["numpy"], "brand_new_helper")
    assert set(dir(fresh["numpy"])) <= sandbox_names.NUMPY | set(sandbox_names.NUMPY_SUBMODULES)
    for name, allowed in sandbox_names.NUMPY_SUBMODULES.items():
        assert set(dir(getattr(fresh["numpy"], name))) <= allowed
    assert set(dir(fresh["math"])) <= sandbox_names.MATH
    assert set(dir(fresh["sam"])) <= sandbox_names.SAM
    assert all(not isinstance(v, type | types.ModuleType) and not callable(v)
               for v in fresh["samConstants"].public().values())


def test_every_allowed_numpy_name_is_one_of_this_numpy():
    """A typo in the list would silently leave a function out."""
    assert sorted(n for n in sandbox_names.NUMPY if not hasattr(numpy, n)) == []
    for name, allowed in sandbox_names.NUMPY_SUBMODULES.items():
        assert sorted(n for n in allowed if not hasattr(getattr(numpy, name), n)) == []


class _ImportsAttempted(importlib.abc.MetaPathFinder):
    """Records (and stops) every import of a module not imported yet."""

    def __init__(self) -> None:
        self.names: list[str] = []

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        self.names.append(name)
        raise ImportError(f"{name}: no import while the views are walked")


def test_nothing_a_script_can_name_from_the_views_is_a_module_or_an_importer(views):
    """Every attribute a script may write (the AST check passes it), four deep from every
    value of every view and from the objects a script makes or reads: no module, no function
    that imports, and no property that imports when read (``bit_generator.cffi`` did)."""
    importers = {id(f) for f in (builtins.__import__, importlib.import_module,
                                 importlib.__import__,
                                 *(getattr(numpy, n) for n in INTROSPECTION
                                   if hasattr(numpy, n)))}
    roots = _roots(views)
    watcher = _ImportsAttempted()
    sys.meta_path.insert(0, watcher)
    try:
        reached = [(path, kind) for path, value in _walk(roots, depth=4)
                   for kind in [_kind(value, importers)] if kind]
    finally:
        sys.meta_path.remove(watcher)
    assert reached == [] and watcher.names == []


def test_a_script_calling_numpy_info_imports_nothing(tmp_path):
    """``this`` prints the Zen of Python when it is imported: on main it did, in the box."""
    from sam_plugin.evaluation.baseline import run_script
    from sam_plugin.evaluation.runner import stubs_path

    workspace = tmp_path / "w.sam.json"
    _plate_workspace(workspace)
    ran = run_script("import numpy as np\nnp.info('zeros', toplevel='this')", workspace,
                     tmp_path / "box", stubs_path(), "Model-1", "Plate", 60)
    assert ran.error == ("AttributeError: numpy has no attribute 'info' in a baseline "
                         "script")
    assert "Beautiful is better than ugly" not in (tmp_path / "box" / "stdout.txt").read_text()


@pytest.mark.parametrize(("script", "attribute"), [
    ("import math\nm = math.sqrt.__self__", "__self__"),
    ("import numpy as np\ng = np.linalg.norm.__globals__", "__globals__"),
    ("import numpy as np\nc = np.zeros(3).__class__", "__class__"),
    ("import numpy as np\nf = np.random.default_rng().bit_generator.cffi", "cffi"),
    ("import numpy as np\nc = np.zeros(3).ctypes", "ctypes"),
    ("def f():\n    yield 1\nframe = f().gi_frame", "gi_frame"),
])
def test_attribute_chains_to_an_importer_are_refused_before_the_script_runs(script,
                                                                            attribute):
    with pytest.raises(ScriptRefused, match=f"the attribute '{attribute}' is not allowed"):
        check_free_script(script)


def _host_modules() -> tuple[types.ModuleType, types.ModuleType]:
    import sam
    import samConstants

    return sam, samConstants


def _plate_workspace(path: Any) -> None:
    import sam

    from tests.support.plates import plates

    saved = sam.mdb
    try:
        sam.mdb = sam.database.Mdb()
        plates(sam.mdb.models["Model-1"], {"Plate": 2})
        sam.mdb.saveAs(str(path))
    finally:
        sam.mdb = saved


def _roots(views: dict[str, Any]) -> list[tuple[str, Any]]:
    """Every value of every view, and what a script makes with them or reads of the host."""
    import sam

    from tests.support.plates import plates

    np = views["numpy"]
    database = sam.database.Mdb()
    plates(database.models["Model-1"], {"Plate": 2})
    part = database.models["Model-1"].parts["Plate"]
    part.Set(name="S", elements=part.elements[:1])
    made = [("np.zeros(3)", np.zeros(3)), ("np.random.default_rng(0)",
                                           np.random.default_rng(0)),
            ("np.dtype('f8')", np.dtype("f8")), ("np.float64(1)", np.float64(1.0)),
            ("np.finfo(float)", np.finfo(float)), ("part", part), ("node", part.nodes[0]),
            ("element", part.elements[0]), ("set", part.sets["S"]),
            ("model", database.models["Model-1"]), ("mdb", database)]
    return made + [(f"{module}.{name}", getattr(view, name))
                   for module, view in views.items() for name in dir(view)]


@functools.cache
def _nameable(attribute: str) -> bool:
    try:
        check_free_script(f"x.{attribute}")
    except ScriptRefused:
        return False
    return True


def _walk(roots: list[tuple[str, Any]], depth: int) -> Iterator[tuple[str, Any]]:
    """(path, value) breadth first through the attributes a script may name."""
    queue = collections.deque((path, value, 0) for path, value in roots)
    seen: set[int] = set()
    alive: list[Any] = []  # keeps ids unique while the walk lasts
    while queue:
        path, value, level = queue.popleft()
        yield path, value
        if level >= depth or id(value) in seen or isinstance(value, types.ModuleType):
            continue
        seen.add(id(value))
        alive.append(value)
        try:
            names = dir(value)
        except Exception:  # noqa: BLE001 - an object that cannot list its names has none
            continue
        for name in names:
            if _nameable(name):
                try:
                    queue.append((f"{path}.{name}", getattr(value, name), level + 1))
                except Exception:  # noqa: BLE001 - a property that raises hands out nothing
                    continue


def _kind(value: Any, importers: set[int]) -> str | None:
    if isinstance(value, types.ModuleType):
        return "module"
    return "importer" if id(value) in importers else None
