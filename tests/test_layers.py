"""The layer rules of docs/architecture.md, read from the source with ``ast`` (nothing imported).

- runtime/, compilers/ and samops/ never import the UI package, nor Qt (PySide6, shiboken6)
  nor qasync: the core runs headless and inside SAM's script.
- samops/ imports only the standard library, numpy, the host modules (``sam``,
  ``samConstants``) and other samops modules: it is the code that runs inside the host.
  The one module above it that it may import is ``sam_plugin.errors``, a leaf that imports
  the standard library only (checked here too), so every layer raises the same classes.
- the product never imports test code (``tests``, pytest and its plugins, hypothesis).
- compilers never import the runtime; the runtime never imports the front ends (``cli``,
  ``ui``, ``demo``, ``evaluation``); nor does ``local_llm`` (the local model), nor Qt.
- the step modules of ``runtime/run/`` reach each other only through the run's state and
  endings: none imports another step module or the controller.
- code cites docs/architecture.md, never an issue number or the design page outside the
  repository.

Every import counts, also one inside a function or under ``TYPE_CHECKING``: a lazy import
is still a dependency.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "sam_plugin"

QT = ("PySide6", "shiboken6", "qasync")
# the test fakes live in tests/ (sam_plugin.testing, where they once were, stays forbidden)
TEST_CODE = ("tests", "pytest", "_pytest", "pytestqt", "hypothesis", "conftest",
             "sam_plugin.testing")
HOST_MODULES = ("sam", "samConstants")



def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(path: Path) -> Iterator[str]:
    """Every module ``path`` imports (relative imports resolved against its package)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                name = ".".join([*base, node.module] if node.module else base)
            else:
                name = node.module or ""
            yield name
            # ``from pkg import sub`` may import a submodule: count ``pkg.sub`` too
            yield from (f"{name}.{alias.name}" for alias in node.names)


def sources(*folders: str) -> list[Path]:
    return sorted(path for folder in folders for path in (PACKAGE / folder).rglob("*.py"))


def within(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes)


def violations(paths: list[Path], forbidden: tuple[str, ...]) -> list[str]:
    found = []
    for path in paths:
        for name in imported_modules(path):
            if within(name, forbidden):
                found.append(f"{path.relative_to(ROOT)} imports {name}")
    return sorted(set(found))


@pytest.mark.parametrize("layer", ["runtime", "compilers", "samops"])
def test_the_core_never_imports_the_ui_nor_qt(layer: str) -> None:
    assert violations(sources(layer), ("sam_plugin.ui", *QT)) == []


STDLIB = (*sys.stdlib_module_names, "__future__")


def test_the_errors_module_is_a_leaf() -> None:
    found = [name for name in imported_modules(PACKAGE / "errors.py")
             if not within(name, STDLIB)]
    assert found == []


def test_the_phrases_are_a_leaf_that_imports_nothing_of_the_product() -> None:
    """``sam_plugin/words`` renders a phrase anywhere: the standard library and pydantic."""
    found = [f"{path.relative_to(ROOT)} imports {name}" for path in sources("words")
             for name in imported_modules(path) if not within(name, (*STDLIB, "pydantic"))]
    assert sources("words") and found == []


def test_samops_imports_only_the_stdlib_numpy_the_host_and_samops() -> None:
    allowed = (*STDLIB, "numpy", *HOST_MODULES, "sam_plugin.samops", "sam_plugin.errors")
    found = []
    for path in sources("samops"):
        for name in imported_modules(path):
            if not within(name, allowed) and name != "sam_plugin":
                found.append(f"{path.relative_to(ROOT)} imports {name}")
    assert sorted(set(found)) == []


def test_the_product_never_imports_test_code() -> None:
    assert violations(sorted(PACKAGE.rglob("*.py")), TEST_CODE) == []


# -- the checker itself, tried on a broken tree -------------------------------------------


def test_the_checker_sees_lazy_relative_and_type_checking_imports(tmp_path: Path,
                                                                  monkeypatch) -> None:
    package = tmp_path / "sam_plugin" / "samops"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "bad.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from ..compilers import evidence\n"
        "def f():\n    import PySide6.QtCore\n    from pydantic import BaseModel\n"
    )
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    names = set(imported_modules(package / "bad.py"))
    assert {"sam_plugin.compilers", "sam_plugin.compilers.evidence", "PySide6.QtCore",
            "pydantic"} <= names
    assert violations([package / "bad.py"], QT) == [
        "sam_plugin/samops/bad.py imports PySide6.QtCore"]


def test_every_public_exception_lives_in_the_errors_module_under_one_base() -> None:
    import sam_plugin.errors as errors

    public = {name for name, value in vars(errors).items()
              if isinstance(value, type) and issubclass(value, BaseException)}
    assert all(issubclass(getattr(errors, name), errors.SamAgentError) for name in public)
    elsewhere = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == PACKAGE / "errors.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ClassDef) or node.name.startswith("_"):
                continue
            bases = {getattr(base, "id", getattr(base, "attr", "")) for base in node.bases}
            if bases & public or any(b.endswith(("Error", "Exception")) for b in bases):
                elsewhere.append(f"{path.relative_to(ROOT)}: {node.name}")
    assert elsewhere == []


# -- the shape of the tree (docs/architecture.md §2) ----------------------------------------

FRONT_ENDS = ("sam_plugin.cli", "sam_plugin.ui", "sam_plugin.demo", "sam_plugin.evaluation",
              "sam_plugin.mcp_server", "mcp", "mcp_types")
# the step modules of one run (docs/architecture.md §2 "Where things are decided once")
RUN = "sam_plugin.runtime.run"
STEPS = tuple(f"{RUN}.{name}" for name in ("observing", "design", "collect", "compile",
                                            "execute", "provider_call"))


def test_the_compilers_never_import_the_runtime() -> None:
    assert violations(sources("compilers"), ("sam_plugin.runtime",)) == []


def test_the_runtime_never_imports_a_front_end() -> None:
    assert violations(sources("runtime"), FRONT_ENDS) == []


def test_the_local_model_package_imports_no_qt_and_no_front_end() -> None:
    front_ends = ("sam_plugin.ui", "sam_plugin.cli", "sam_plugin.demo", "sam_plugin.evaluation",
                  "sam_plugin.mcp_server")
    assert violations(sources("local_llm"), (*QT, *front_ends)) == []


def test_the_mcp_server_never_imports_the_ui_and_its_approval_needs_no_sdk() -> None:
    """The server is a front end beside the CLI (the dock may start it, never the reverse);
    ``sam-agent approve`` and the decision files work without the ``[mcp]`` extra."""
    assert violations(sources("mcp_server"), ("sam_plugin.ui", "sam_plugin.cli", *QT)) == []
    light = [PACKAGE / "mcp_server" / name for name in ("__init__.py", "approval.py",
                                                        "waiting.py", "bearer.py",
                                                        "kept_plan.py", "outcome.py")]
    light.append(PACKAGE / "cli" / "approve.py")
    assert violations(light, ("mcp", "mcp_types", "anyio")) == []


def test_run_steps_reach_each_other_only_through_the_state_and_the_endings() -> None:
    found = []
    for path in sources("runtime/run"):
        name = module_name(path)
        if name == f"{RUN}.controller":
            continue  # the controller orders the steps
        others = tuple(s for s in (*STEPS, f"{RUN}.controller") if s != name)
        found += [f"{path.relative_to(ROOT)} imports {imported}"
                  for imported in imported_modules(path) if within(imported, others)]
    assert sorted(set(found)) == []


COMMENT_REFERENCES = re.compile(r"\b[Ii]ssues? #?\d+|DESIGN\.md|DESIGN §")


def test_code_cites_the_architecture_page_never_an_issue_or_the_design_page() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if COMMENT_REFERENCES.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []


def test_the_step_rule_sees_a_step_importing_another(tmp_path: Path, monkeypatch) -> None:
    run = tmp_path / "sam_plugin" / "runtime" / "run"
    run.mkdir(parents=True)
    (run / "design.py").write_text("from sam_plugin.runtime.run import collect\n")
    (run / "state.py").write_text("from sam_plugin.runtime.run.phases import Phase\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", tmp_path / "sam_plugin")
    with pytest.raises(AssertionError, match="design.py imports sam_plugin.runtime.run.collect"):
        test_run_steps_reach_each_other_only_through_the_state_and_the_endings()


def _domain_packages() -> tuple[str, ...]:
    from sam_plugin.compilers.registry import MODES, module_path

    return tuple(module_path(mode) for mode in MODES)


def test_only_a_domain_and_the_registry_name_a_domain_package() -> None:
    """A domain is a package: the front ends, the runtime and the generic compilers reach it
    through the registry and its contribution points, never by importing it."""
    domains = _domain_packages()
    outside = [path for path in sorted(PACKAGE.rglob("*.py"))
               if not within(module_name(path), (*domains, "sam_plugin.compilers.registry"))]
    assert violations(outside, domains) == []


def test_the_domain_rule_sees_a_front_end_importing_a_domain(tmp_path: Path,
                                                            monkeypatch) -> None:
    package = tmp_path / "sam_plugin" / "ui"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sneaky.py").write_text(
        "def f():\n    from ..compilers.property import value_checks\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert violations([package / "sneaky.py"], _domain_packages()) == [
        "sam_plugin/ui/sneaky.py imports sam_plugin.compilers.property",
        "sam_plugin/ui/sneaky.py imports sam_plugin.compilers.property.value_checks"]


def test_the_mode_names_are_the_registry_s() -> None:
    """One Literal of mode names, kept equal to the registry's modes (every other mode type
    in the product is that one)."""
    from typing import get_args

    from sam_plugin.compilers.protocol import ModeName
    from sam_plugin.compilers.registry import MODES

    assert get_args(ModeName) == MODES
    written = [path for path in sorted(PACKAGE.rglob("*.py"))
               if re.search(r"Literal\[\s*\"part\",\s*\"property\"", path.read_text("utf-8"))]
    assert written == [PACKAGE / "compilers" / "registry.py"]


# -- a domain's names stay in its package (docs/architecture.md "Adding a domain") ----------

# domains built as a package from the start: nothing outside their package and samops/ (and
# the registry) names their tools, their own actions or their host operations. Part,
# Property and Mesh predate the contribution points: the dock's tool words still name them.
PACKAGED_DOMAINS = ("load",)
# a domain's own name that is also an ordinary word elsewhere, and where
HOMONYMS = {"fix": "an English verb (Part's repair words) and numpy's fix (the sandbox's names)",
            "force": "a quantity every unit system has (compilers/units.py, a request's units)"}


def _own_names(mode: str, package: Path) -> set[str]:
    """``mode``'s tool names, the actions no other mode has, and its samops modules."""
    from sam_plugin.compilers.registry import MODES, get_module

    module = get_module(mode)
    others: set[str] = set()
    for other in (m for m in MODES if m != mode):
        found = get_module(other)
        others |= {a.name for a in found.vocabulary.actions} | set(found.tool_names.values())
    actions = {a.name for a in module.vocabulary.actions} - others
    samops = {path.stem for path in (package / "samops").glob(f"{mode}_*.py")}
    return (set(module.tool_names.values()) | actions | samops) - set(HOMONYMS)


def _naming(path: Path, names: set[str]) -> set[str]:
    """The ``names`` a product file says: a string of a module, a JSON file or a .ts, or an
    import."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        found = set()
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                found.add(node.value)
            elif isinstance(node, ast.ImportFrom | ast.Import):
                found |= {part for alias in node.names for part in alias.name.split(".")}
                found |= set(getattr(node, "module", None) and node.module.split(".") or ())
        return found & names
    return {name for name in names if re.search(rf"[\"'>]{re.escape(name)}[\"'<]", text)}


def domain_names_outside(mode: str, package: Path) -> list[str]:
    names = _own_names(mode, package)
    inside = (f"compilers/{mode}/", "samops/")
    found = []
    for path in sorted(p for suffix in ("*.py", "*.json", "*.ts") for p in package.rglob(suffix)):
        relative = path.relative_to(package).as_posix()
        if relative.startswith(inside) or relative == "compilers/registry.py":
            continue
        found += [f"sam_plugin/{relative} names {name}"
                  for name in sorted(_naming(path, names))]
    return found


@pytest.mark.parametrize("mode", PACKAGED_DOMAINS)
def test_nothing_outside_a_packaged_domain_names_its_tools_actions_or_host_operations(
        mode: str) -> None:
    assert domain_names_outside(mode, PACKAGE) == []


def test_the_names_rule_sees_a_front_end_and_a_data_file_naming_a_load_tool(
        tmp_path: Path) -> None:
    package = tmp_path / "sam_plugin"
    (package / "ui").mkdir(parents=True)
    (package / "samops").mkdir()
    (package / "samops" / "load_ops.py").write_text("")
    (package / "ui" / "words.py").write_text('WORDS = {"apply_load": "apply loads"}\n')
    (package / "ui" / "more.py").write_text("from sam_plugin.samops import load_ops\n")
    (package / "demo.json").write_text('[{"tool": "define_step"}]\n')
    (package / "ui" / "fine.py").write_text('SAID = "fix the duplicate nodes"\n')
    assert domain_names_outside("load", package) == [
        "sam_plugin/demo.json names define_step", "sam_plugin/ui/more.py names load_ops",
        "sam_plugin/ui/words.py names apply_load"]
