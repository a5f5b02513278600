"""plugin.json is read by SAM without importing the code: it must be valid on its own."""

from __future__ import annotations

import ast
import copy
import importlib
import json
from pathlib import Path

import jsonschema
import pytest

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((Path(__file__).parent / "plugin_manifest.schema.json").read_text())
MANIFEST = json.loads((ROOT / "sam_plugin" / "plugin.json").read_text(encoding="utf-8"))


def _errors(manifest: dict) -> list[str]:
    validator = jsonschema.Draft202012Validator(SCHEMA)
    return [error.message for error in validator.iter_errors(manifest)]


def test_manifest_matches_its_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert _errors(MANIFEST) == []


def test_manifest_version_matches_the_package_without_importing_it() -> None:
    tree = ast.parse((ROOT / "sam_plugin" / "__init__.py").read_text(encoding="utf-8"))
    versions = [
        node.value.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        and any(getattr(t, "id", None) == "__version__" for t in node.targets)
    ]
    assert versions == [MANIFEST["version"]]


def test_manifest_names_the_host_modules_and_the_dock() -> None:
    assert MANIFEST["host_modules"] == ["sam", "samConstants"]
    assert MANIFEST["dock"]["object_name"] == "samAgentDock"


@pytest.mark.parametrize("key", ["entry_point", "unload"])
def test_entry_points_resolve_to_callables(key: str) -> None:
    module_name, attribute = MANIFEST[key].split(":")
    assert callable(getattr(importlib.import_module(module_name), attribute))


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [
        (lambda m: m.pop("entry_point"), "'entry_point' is a required property"),
        (lambda m: m.update(extra=1), "('extra' was unexpected)"),
        (lambda m: m["dock"].update(area="middle"), "'middle' is not one of"),
        (lambda m: m.update(entry_point="sam_plugin.load"), "does not match"),
    ],
)
def test_schema_rejects_broken_manifests(mutate, expected: str) -> None:
    broken = copy.deepcopy(MANIFEST)
    mutate(broken)
    assert any(expected in message for message in _errors(broken))


def test_the_host_finds_the_shipped_manifest_without_importing_the_plugin() -> None:
    import subprocess
    import sys

    probe = (
        "import sys; sys.path.insert(0, 'stubs')\n"
        "import sam_host_plugins as host\n"
        "print(host.find_manifest())\n"
        "print(*host.installed_manifests(), sep=',')\n"
        "print('sam_plugin' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, check=True)
    found, installed, imported = done.stdout.splitlines()
    shipped = ROOT / "sam_plugin" / "plugin.json"
    assert Path(found) == shipped
    assert str(shipped) in installed.split(",")  # the distribution's "sam.plugins" entry point
    assert imported == "False"
    assert not (ROOT / "plugin.json").exists()  # one manifest, inside the package
