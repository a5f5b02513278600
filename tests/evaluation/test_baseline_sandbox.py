"""A baseline cassette is data: the Python in its answer runs only in a child process with a
temporary working directory, resource limits, restricted builtins and an import allowlist
(the host API, math, numpy); no network, and open/os/subprocess unreachable
(sam_plugin/evaluation/sandbox.py). The tampered cassettes below wrote outside the eval's
copy of the workspace before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sam_plugin.cli import main as cli
from sam_plugin.evaluation.cassette import Cassette

TASK_FILE = '''
from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(mode="part", part="Plate", request="translate the plate by 1 in x",
            expect="verified", checks=[c.node_count(6)])


def setup(mdb):
    w.plate(mdb, "Plate", 2, 1, 2.0, 1.0)
'''


def hostile(tmp_path: Path, fake, script: str) -> tuple[dict, Path]:
    """Record a suite of one task whose baseline answer (and repair answer) is ``script``,
    then replay the cassette offline as CI does; the replayed result is returned."""
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "t.py").write_text(TASK_FILE)
    fake.enqueue_reply("")  # the pipeline: an empty spec stops at design
    for _ in range(3):
        fake.enqueue_reply(f"```python\n{script}\n```")
    cassettes, out = tmp_path / "cassettes", tmp_path / "out"
    cli.main(["eval", str(suite), "--base-url", fake.base_url, "--api-model", "m",
              "--record", str(cassettes), "--baseline", "free-python", "--out", str(out)])
    assert Cassette.load(cassettes, "t", "baseline") is not None
    cli.main(["eval", str(suite), "--replay", str(cassettes), "--baseline", "free-python",
              "--out", str(out), "--fail-on-mismatch"])
    return json.loads((out / "report.json").read_text())["tasks"][0]["baseline"], out


OUTSIDE = "OUTSIDE_MARKER"


@pytest.mark.parametrize("attack", [
    "open({path!r}, 'w').write('x')",
    "import os\nos.system('touch {path}')",
    "import subprocess\nsubprocess.run(['touch', {path!r}])",
    "from sam import mdb\nmdb.saveAs({path!r})",
    "import numpy as np\nnp.save({path!r}, np.zeros(3))",
    "import numpy as np\nnp.zeros(3).tofile({path!r})",
    "b = ().__class__.__base__.__subclasses__()",
    "import sam\nsam.storage.os.system('touch {path}')",
    "import socket\nsocket.create_connection(('127.0.0.1', 9))",
    "__builtins__['open']({path!r}, 'w')",
    "getattr(__import__('os'), 'system')('touch {path}')",
])
def test_a_tampered_baseline_cassette_writes_nothing_outside_the_copy(tmp_path, fake_provider,
                                                                      attack):
    target = tmp_path / OUTSIDE
    result, out = hostile(tmp_path, fake_provider, attack.format(path=str(target)))
    assert not target.exists()
    assert not result["accepted"] and result["layer"] == "execution"
    assert not list(out.rglob(OUTSIDE))


def test_free_python_within_the_host_api_math_and_numpy_still_runs(tmp_path, fake_provider):
    script = """
import math
import numpy as np
from sam import mdb
from samConstants import QUAD
part = mdb.models[SAM_AGENT_TARGET["model_name"]].parts[SAM_AGENT_TARGET["part_name"]]
def shifted(xyz, dx):
    return (xyz[0] + dx, xyz[1], xyz[2])
for node in part.nodes:
    part.editNode(nodes=(node,), coordinates=(shifted(node.coordinates, math.cos(0.0)),))
print(float(np.sum(np.array([1.0, 2.0]))))
"""
    result, _ = hostile(tmp_path, fake_provider, script)
    assert result["status"] == "ran" and result["layer"] is None, result["message"]
    assert result["accepted"]


@pytest.mark.parametrize(("script", "words"), [
    ("import os", "importing 'os' is not allowed"),
    ("from numpy import lib", "importing lib is not allowed"),
    ("import numpy.distutils", "importing 'numpy.distutils' is not allowed"),
    ("x = 1 .__class__", "the attribute '__class__' is not allowed"),
    ("mdb.saveAs('x')", "the attribute 'saveAs' is not allowed"),
    ("a._storage", "the attribute '_storage' is not allowed"),
    ("'{}'.format(1)", "the attribute 'format' is not allowed"),
    ("__builtins__", "the name '__builtins__' is not allowed"),
    ("from . import x", "relative imports are not allowed"),
])
def test_the_check_names_what_leaves_the_box(script, words):
    from sam_plugin.errors import ScriptRefused
    from sam_plugin.evaluation.sandbox import check_free_script

    with pytest.raises(ScriptRefused, match=words.replace("(", r"\(").replace(".", r"\.")):
        check_free_script(script)


def test_module_views_show_public_values_and_no_modules_or_file_access():
    import numpy
    import sam
    import samConstants

    from sam_plugin.evaluation.sandbox import free_builtins, host_views

    views = host_views(sam, samConstants)
    assert views["numpy"].zeros is numpy.zeros and views["numpy"].linalg.norm is numpy.linalg.norm
    for hidden in ("save", "load", "lib", "ctypeslib", "fromfile", "os"):
        with pytest.raises(AttributeError):
            getattr(views["numpy"], hidden)
    with pytest.raises(AttributeError):
        views["sam"].storage  # noqa: B018 - a submodule of the stub, which imports os
    with pytest.raises(AttributeError):
        views["sam"].openMdb  # noqa: B018
    assert views["samConstants"].QUAD is samConstants.QUAD
    names = free_builtins(views)
    assert not {"open", "getattr", "eval", "exec", "compile", "type", "vars"} & set(names)
    namespace: dict = {"__builtins__": names}
    exec("from samConstants import *\nimport numpy as np\nx = np.linalg.norm([3, 4])",
         namespace)
    assert namespace["QUAD"] is samConstants.QUAD and namespace["x"] == 5.0


def test_resource_limits_stop_a_memory_bomb_and_an_endless_loop(tmp_path):
    from sam_plugin.evaluation.baseline import run_script
    from sam_plugin.evaluation.runner import prepare_workspace, stubs_path
    from sam_plugin.evaluation.task import load_suite

    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "t.py").write_text(TASK_FILE)
    workspace = prepare_workspace(load_suite(suite)[0], tmp_path / "w")
    bomb = run_script("x = bytes(8 * 1024 ** 3)", workspace, tmp_path / "a", stubs_path(),
                      "Model-1", "Plate", 60)
    assert bomb.error is not None and "MemoryError" in bomb.error
    assert bomb.saved is not None  # the harness still saved the (unchanged) copy
    loop = run_script("while True:\n    pass", workspace, tmp_path / "b", stubs_path(),
                      "Model-1", "Plate", 2)
    assert loop.error is not None and ("timed out" in loop.error or "CPU" in loop.error
                                       or "harness" in loop.error)
