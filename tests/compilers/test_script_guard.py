"""The generated script's namespace (issue 15): an allowlist checked before execution, and
the restricted builtins the script runs with."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sam_plugin.compilers.composer import compose
from sam_plugin.compilers.evidence import Prediction, Readback
from sam_plugin.compilers.protocol import Fragment, Target
from sam_plugin.compilers.script_guard import (
    ScriptRefused,
    check_script,
    helper_modules,
    script_builtins,
)
from sam_plugin.runtime.host_gateway import HostGateway

TARGET = Target(model_name="Model-1", part_name="Plate")
GOLDEN = Path(__file__).resolve().parents[1] / "part" / "golden"
STATE = Prediction.from_readback(Readback(part_exists=False))
CREATE = "_model.Part(name=_part_name)\n"

FORBIDDEN = {
    "import os\n": "an import statement is not allowed",
    "from os import path as _path\n": "importing from 'os' is not allowed",
    "from sam_plugin.runtime import events as _events\n": "importing from 'sam_plugin.runtime'",
    "from sam_plugin.samops import part_ops as ops\n": "must be imported as _part_ops",
    "from sam_plugin.samops import nothing_here as _nothing_here\n": "is not a helper module",
    "from sam import *\n": "importing '*' is not allowed",
    "open(SAM_AGENT_OUTPUT_DIR + '/x', 'w')\n": "the name 'open' is neither bound",
    "__import__('os')\n": "the name '__import__' is not allowed",
    "exec('1')\n": "the name 'exec' is neither bound",
    "eval('1')\n": "the name 'eval' is neither bound",
    "globals()\n": "the name 'globals' is neither bound",
    "getattr(_model, 'parts')\n": "the name 'getattr' is neither bound",
    "_x = _model.__class__\n": "the attribute '__class__' is not allowed",
    "_x = ().__class__.__bases__[0].__subclasses__()\n": "the attribute '__subclasses__'",
    "_x = '{0.__class__}'.format(_model)\n": "the attribute 'format' is not allowed",
    "_x = lambda: 0\n": "a lambda is not allowed",
    "def _f():\n    pass\n": "a function definition is not allowed",
    "class _C:\n    pass\n": "a class definition is not allowed",
    "with _model:\n    pass\n": "a with statement is not allowed",
    "del _model\n": "a del statement is not allowed",
    "global _model\n": "a global statement is not allowed",
    "__builtins__ = {}\n": "the name '__builtins__' is not allowed",
    "_part_ops.os.system('true')\n": "'os' is not a public function or class of the helper",
    "_x = _part_ops._private\n": "'_private' is not a public function or class",
    "from sam import database as _db\n": "'database' is a module, not a name of sam",
}


@pytest.mark.parametrize("construct", list(FORBIDDEN))
def test_a_forbidden_construct_is_refused_before_anything_runs(
    construct: str, fresh_sam: Any, tmp_path: Path
) -> None:
    creates = Fragment(tool="build_part", mutation=CREATE, normalized={}, evidence=STATE)
    hostile = Fragment(tool="audit_part", postflight=construct, normalized={}, evidence=STATE)
    script = compose([creates, hostile]).text
    gateway = HostGateway(fresh_sam)
    receipt = gateway.execute(script, TARGET, tmp_path)
    assert (receipt.status, receipt.stage, receipt.nothing_changed) == ("FAIL", "refused", True)
    assert FORBIDDEN[construct] in receipt.traceback
    assert receipt.traceback.startswith("the script was refused before it ran, so nothing was "
                                        "changed: line ")
    assert gateway.part(TARGET) is None  # the mutation before it never ran


def test_try_except_around_helper_calls_is_allowed(fresh_sam: Any, tmp_path: Path) -> None:
    """The shape of the snapshot/restore hooks: try, except as, helper calls, raise."""
    guarded = (
        "try:\n"
        "    _model.Part(name=_part_name)\n"
        "    _part_ops.require_part(_model, _part_name)\n"
        "except BaseException as _error:\n"
        "    _part_ops.require_part(_model, _part_name)\n"
        "    raise\n"
        "finally:\n"
        "    pass\n"
    )
    fragment = Fragment(tool="build_part", mutation=guarded, normalized={}, evidence=STATE,
                        helpers=["part_ops"])
    receipt = HostGateway(fresh_sam).execute(compose([fragment]).text, TARGET, tmp_path)
    assert receipt.status == "PASS", receipt.traceback


@pytest.mark.parametrize("golden", sorted(GOLDEN.glob("*.golden")), ids=lambda p: p.name)
def test_every_golden_script_passes_the_guard(golden: Path) -> None:
    check_script(golden.read_text(encoding="utf-8"))


def test_every_samops_module_is_an_allowed_helper() -> None:
    import pkgutil

    import sam_plugin.samops as samops

    assert helper_modules() == {m.name for m in pkgutil.iter_modules(samops.__path__)}
    assert {"part_ops", "part_audit", "property_ops", "mesh_ops"} <= helper_modules()


def test_the_builtins_hold_only_what_scripts_need() -> None:
    names = script_builtins()
    for absent in ("open", "exec", "eval", "compile", "getattr", "globals", "vars", "input",
                   "breakpoint", "type", "object"):
        assert absent not in names
    with pytest.raises(ImportError, match="may not import 'os'"):
        names["__import__"]("os")
    with pytest.raises(ImportError, match="may not import 'sam_plugin.samops'"):
        names["__import__"]("sam_plugin.samops", None, None, ("not_a_module",), 0)
    assert names["__import__"]("samConstants").__name__ == "samConstants"


def test_a_refusal_names_the_line() -> None:
    with pytest.raises(ScriptRefused) as refused:
        check_script("_a = 1\n_b = 2\nimport os\n")
    assert refused.value.line == 3
    assert str(refused.value) == "line 3: an import statement is not allowed in a generated script"


def test_the_controller_says_a_refused_script_changed_nothing(tmp_path: Path) -> None:
    import asyncio
    import hashlib
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "controller"))
    import sam
    from controller_fakes import (
        FakePartModule,
        ScriptedProvider,
        calls,
        design,
        fake_spec,
        policy,
        settings,
    )

    from sam_plugin.runtime.run.controller import RunController
    from sam_plugin.runtime.run.execute import SCRIPT_REFUSED

    saved = sam.mdb
    sam.mdb = sam.database.Mdb()
    try:
        provider = ScriptedProvider(
            design(fake_spec("build", "audit", summary="Build a plate.")),
            calls(("build_part", {}), ("audit_part", {})))
        controller = RunController(
            runs_dir=tmp_path / "runs", settings=settings(), policy=policy(), host=HostGateway(sam),
            provider_factory=provider.factory, module_factory=lambda mode: FakePartModule(),
            composer=lambda fragments, run_id, target: (
                "import os\n", hashlib.sha256(b"import os\n").hexdigest(), "k"))

        async def go():
            await controller.submit("x", "part", TARGET)
            return await controller.confirm("part", TARGET)

        result = asyncio.run(go())
    finally:
        sam.mdb = saved
    assert result.status == "failed" and result.error.layer == "execution"
    assert SCRIPT_REFUSED in result.error.message
    assert "line 1: an import statement is not allowed" in result.error.message
