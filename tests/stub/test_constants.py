"""samConstants: named singletons, unquoted repr, equality by name, nothing injected."""

from __future__ import annotations

import builtins
import copy
import pickle
import subprocess
import sys
from pathlib import Path

import samConstants
from samConstants import BEAM, N1_COSINES, OFF, ON, QUAD, TRI, SymbolicConstant

STUBS = Path(__file__).resolve().parents[2] / "stubs"


def test_constants_have_name_str_and_unquoted_repr() -> None:
    assert QUAD.name == "QUAD"
    assert str(TRI) == "TRI"
    assert repr(BEAM) == "BEAM"
    assert repr((QUAD, N1_COSINES)) == "(QUAD, N1_COSINES)"


def test_constants_compare_by_name_and_survive_pickle_and_copy() -> None:
    assert pickle.loads(pickle.dumps(QUAD)) is QUAD
    assert copy.copy(TRI) is TRI
    assert copy.deepcopy({"shape": BEAM})["shape"] is BEAM
    assert SymbolicConstant("QUAD") is QUAD
    assert QUAD == SymbolicConstant("QUAD") and QUAD != TRI
    assert QUAD != "QUAD"
    assert len({QUAD, SymbolicConstant("QUAD"), TRI}) == 2


def test_on_off_are_booleans_and_constants_are_read_only() -> None:
    assert bool(ON) is True and bool(OFF) is False
    assert pickle.loads(pickle.dumps(OFF)) is OFF
    try:
        QUAD.name = "TRI"  # type: ignore[misc]
    except AttributeError as error:
        assert str(error) == "symbolic constant QUAD is read-only"
    else:
        raise AssertionError("a constant could be renamed")


def test_star_import_exports_the_documented_constants() -> None:
    names: dict[str, object] = {}
    exec("from samConstants import *", names)
    for name in ("QUAD", "TRI", "BEAM", "ON", "OFF", "N1_COSINES"):
        assert names[name] is getattr(samConstants, name)


def test_importing_sam_defines_nothing_in_builtins() -> None:
    import sam  # noqa: F401

    for name in ("QUAD", "TRI", "BEAM", "ON", "OFF", "N1_COSINES", "mdb", "session"):
        assert not hasattr(builtins, name)


def test_a_script_sees_no_constant_until_it_imports_samconstants() -> None:
    script = (
        "import sam\n"
        "from sam import mdb, session\n"
        "try:\n    QUAD\nexcept NameError as error:\n    print('missing:', error)\n"
        "from samConstants import QUAD\nprint(repr(QUAD))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env={"PYTHONPATH": str(STUBS)}, check=True)
    assert done.stdout == "missing: name 'QUAD' is not defined\nQUAD\n"
