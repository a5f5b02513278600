"""What the registry reads of a domain without importing it agrees with the domain's own
declaration, so the data file and the module cannot drift apart."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from sam_plugin.compilers import registry


@pytest.mark.parametrize("mode", registry.MODES)
def test_each_domains_covers_file_is_its_modules_declaration(mode):
    assert registry.domain_file(mode, registry.COVERS_FILE) is not None, mode
    assert registry.domain_covers(mode) == tuple(registry.get_module(mode).snapshot_covers)


def test_the_covers_of_every_domain_are_known_without_importing_one():
    code = ("import json, sys; from sam_plugin.compilers import registry; "
            "print(registry.snapshot_covers()); "
            "print(json.dumps(sorted(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    covers, imported = done.stdout.splitlines()
    assert covers == "('load_cover',)"
    domains = {f"sam_plugin.compilers.{mode}" for mode in registry.MODES}
    assert not [name for name in json.loads(imported) if ".".join(name.split(".")[:3]) in domains]
