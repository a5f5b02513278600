"""No class in sam_plugin is over 500 lines (docs/architecture.md §9: the dock is split along
its sections): a class that grows past it is split where its own sections are."""

import ast
from pathlib import Path

import sam_plugin

LIMIT = 500


def _too_long(root: Path) -> list[str]:
    """``path:Class has N lines`` for every class under ``root`` over the limit."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > LIMIT:
                    found.append(f"{path.relative_to(root.parent).as_posix()}:{node.name} "
                                 f"has {lines} lines")
    return found


def test_no_class_in_sam_plugin_is_over_500_lines():
    assert _too_long(Path(sam_plugin.__file__).parent) == []


def test_a_class_over_the_limit_is_named(tmp_path):
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    (tmp_path / "pkg" / "sub" / "long.py").write_text(
        "class Short:\n    x = 1\n\n\nclass Long:\n" + "    x = 1\n" * LIMIT, encoding="utf-8")
    assert _too_long(tmp_path / "pkg") == [f"pkg/sub/long.py:Long has {LIMIT + 1} lines"]
