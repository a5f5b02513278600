"""Injection: hostile strings never become code; every generated script makes only the
expected calls (checked with ``ast``)."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from sam_plugin.compilers.codegen import call, literal
from sam_plugin.errors import CompileError

HOSTILE = [
    "x'); __import__('os').system('echo pwned'); ('",
    'x"\n__import__("os").system("echo pwned")\n"',
    "A\nimport os",
    "__import__('os')",
    "}'] ; exec('1') #",
]

ALLOWED_CALLS = {
    "RuntimeError", "sorted", "join", "keys", "setValues",
    "_part_ops.require_empty_or_missing", "_part_ops.require_part",
    "_part_ops.require_selection", "_part_ops.require_node_labels",
    "_part_ops.require_new_set_names", "_part_ops.ensure_part", "_part_ops.add_mesh",
    "_part_ops.clear_all", "_part_ops.delete_elements", "_part_ops.delete_nodes",
    "_part_ops.move_nodes", "_part_ops.make_sets", "_part_transform.apply",
    "_part_repair.repair", "_part_audit.write_audit",
    "_snapshot.take", "_snapshot.restore_quietly",
}
ALLOWED_IMPORTS = {"sam", "samConstants", "sam_plugin.samops"}


def _name(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = node.value
        if isinstance(base, ast.Name) and base.id.startswith(("_part_", "_snapshot")):
            return f"{base.id}.{node.attr}"
        return node.attr
    return type(node).__name__


def assert_only_expected_calls(text: str) -> None:
    tree = ast.parse(text)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            assert _name(node.func) in ALLOWED_CALLS, ast.unparse(node)
        if isinstance(node, ast.ImportFrom):
            assert node.module in ALLOWED_IMPORTS, ast.unparse(node)
        assert not isinstance(node, ast.Import), ast.unparse(node)
        if isinstance(node, ast.Name):
            assert node.id not in {"__import__", "eval", "exec", "open", "compile"}


@pytest.mark.parametrize("text", HOSTILE)
def test_literal_of_a_hostile_string_is_one_string_constant(text: str) -> None:
    tree = ast.parse(literal({"name": text, "ids": (text,)}), mode="eval")
    assert isinstance(tree.body, ast.Dict)
    constants = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)]
    assert sorted(constants) == sorted(["name", text, "ids", text])
    assert_only_expected_calls(call("_part_ops.make_sets", ["_part"], literal_args=[(text,)]))


def test_literal_refuses_non_data() -> None:
    with pytest.raises(TypeError, match="object cannot enter a script as a literal"):
        literal(object())
    with pytest.raises(ValueError, match="must be finite"):
        literal(float("nan"))


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_names_and_ids_are_rejected_by_the_schema(harness: Any, text: str) -> None:
    args = {"patches": [{"id": text, "shape": "QUAD", "divisions": [1, 1],
                         "corners": [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]]}],
            "element_sets": [{"name": text, "element_ids": [text]}]}
    with pytest.raises(CompileError) as err:
        harness.compile_all("build it as a set", [("build_part", args)])
    paths = {d.path for d in err.value.diagnostics}
    assert {"patches[0].id", "element_sets[0].name", "element_sets[0].element_ids[0]"} <= paths
    assert all("is not valid" in d.message for d in err.value.diagnostics)


def test_hostile_target_and_request_never_reach_the_script(harness: Any) -> None:
    text = HOSTILE[0]
    result = harness.run(text + " build a plate in a set", [("build_part", {"patches": [
        {"id": "P", "shape": "QUAD", "corners": [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]],
         "divisions": [1, 1]}]})])
    assert "pwned" not in result.script.text
    assert_only_expected_calls(result.script.text)


def test_every_golden_script_makes_only_expected_calls() -> None:
    golden = sorted((Path(__file__).parent / "golden").glob("*.py.golden"))
    assert len(golden) >= 3
    for path in golden:
        assert_only_expected_calls(path.read_text(encoding="utf-8"))


def test_edit_and_transform_scripts_make_only_expected_calls(harness: Any) -> None:
    harness.grid(2, 2)
    result = harness.run("delete everything, replace it, group it", [
        ("edit_part", {"clear_all": True, "add_lines": [
            {"id": "L", "start": [0, 0, 0], "end": [1, 0, 0], "divisions": 2}],
            "element_sets": [{"name": "S", "element_ids": ["L"]}]}),
        ("transform_part", {"operations": [{"op": "linear_array", "vector": [0, 1, 0],
                                            "count": 3}]}),
        ("repair_part", {"delete_free_nodes": True}),
        ("audit_part", {})])
    assert result.receipt.status == "PASS", result.receipt.traceback
    assert_only_expected_calls(result.script.text)


class _EvilStr(str):
    def __repr__(self) -> str:
        return "__import__('os').system('echo pwned')"


class _EvilInt(int):
    def __repr__(self) -> str:
        return "exec('1')"


class _EvilFloat(float):
    def __repr__(self) -> str:
        return "exec('1')"


@pytest.mark.parametrize(("value", "kind"), [
    (_EvilStr("a"), "_EvilStr"),
    (_EvilInt(1), "_EvilInt"),
    (_EvilFloat(1.0), "_EvilFloat"),
    ([1, (2, {"k": _EvilStr("a")})], "_EvilStr"),
])
def test_subclasses_of_plain_types_never_enter_a_script(value: Any, kind: str) -> None:
    from sam_plugin.compilers.codegen import check_plain, plain_literal

    for render in (check_plain, literal, plain_literal):
        with pytest.raises(TypeError, match=f"^{kind} cannot enter a script as a literal$"):
            render(value)


def test_a_str_subclass_key_never_enters_a_script() -> None:
    from sam_plugin.compilers.codegen import plain_literal

    with pytest.raises(TypeError, match="a script literal dict needs str keys"):
        plain_literal({_EvilStr("k"): 1})


def test_plain_literal_is_the_builtin_repr_and_literal_wraps_with_tuples() -> None:
    from sam_plugin.compilers.codegen import plain_literal

    value = {"a": [1, 2.5, True, None], "b": ("x", "y'\n")}
    assert plain_literal(value) == repr(value)
    assert literal(value) == "{'a': (1, 2.5, True, None), 'b': ('x', \"y'\\n\")}"
