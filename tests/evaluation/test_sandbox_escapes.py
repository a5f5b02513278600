"""The baseline's box against a table of escapes (sam_plugin/evaluation/sandbox.py,
isolation.py, confine.py).

On main a free-Python script escaped through ``match`` class patterns, whose keyword
attributes are strings the AST check never saw: ``case numpy.ndarray(dump=d)`` wrote a file
anywhere, and ``case C(__class__=...)``, ``__subclasses__`` and ``__traceback__`` reached
``subprocess.Popen`` (imported by the harness itself) or ``ctypes``, and so a shell command
ran as the user. A ``__del__`` could print the harness's result line after it. Each escape
below is tried twice: as a script through the whole box (the language check refuses it),
and as its payload in plain Python in a child boxed by the kernel alone (it must fail to
write outside the box, start a process, open a socket or signal a process)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from sam_plugin.cli import main as cli
from sam_plugin.evaluation import isolation

TASK_FILE = '''
from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(mode="part", part="Plate", request="translate the plate by 1 in x",
            expect="verified", checks=[c.node_count(6)])


def setup(mdb):
    w.plate(mdb, "Plate", 2, 1, 2.0, 1.0)
'''

# a class pattern's keyword attributes read any attribute of the subject; an instance of a
# class of the script's reduces to (copyreg._reconstructor, (C, object, None))
TO_OBJECT = """
class C:
    pass
match C():
    case C(__reduce_ex__=r):
        pass
o = r(0)[1][1]
"""
TO_CLASS = TO_OBJECT + """
match o:
    case o(__subclasses__=subs):
        pass
found = None
for k in subs():
    match k:
        case o(__name__={name!r}):
            found = k
"""
TO_MODULES = TO_OBJECT + """
try:
    1 / 0
except ZeroDivisionError as e:
    match e:
        case BaseException(__traceback__=tb):
            pass
match tb:
    case o(tb_frame=f):
        pass
while True:
    match f:
        case o(f_back=back):
            pass
    if back is None:
        break
    f = back
match f:
    case o(f_globals=g):
        pass
match g["sys"]:
    case o(modules=m):
        pass
"""
TO_HARNESS_GLOBALS = TO_MODULES + """
m["os"].system("touch {path}")
"""

SCRIPTS = {
    "ndarray.dump in a class pattern": """
import numpy
match numpy.zeros(3):
    case numpy.ndarray(dump=d):
        d({path!r})
""",
    "__reduce_ex__ in a class pattern reaches object": TO_OBJECT + """
match o:
    case o(__init_subclass__=i):
        print(i)
""",
    "__subclasses__ in a class pattern reaches subprocess.Popen": TO_CLASS.format(name="Popen")
    + "found(['touch', {path!r}]).wait()\n",
    "__subclasses__ reaches ctypes.CDLL": TO_CLASS.format(name="CDLL")
    + "found(None).system(b'touch {path}')\n",
    "__traceback__ in a class pattern reaches the harness's globals": TO_HARNESS_GLOBALS,
    "str.format reads attributes by name": """
match "{{0.__class__.__base__}}":
    case str(format=f):
        print(f(()))
""",
    "str.format_map reads attributes by name": """
match "{{x.__class__.__base__}}":
    case str(format_map=f):
        print(f({{"x": ()}}))
""",
    "mro in a class pattern": "match 1:\n    case int(mro=m):\n        print(m)",
    "a dunder name bound by a capture pattern": "match 1:\n    case __builtins__:\n        pass",
}

# the same escapes as plain Python: what a script that got past the language check would run
PAYLOADS = {
    "a file written outside the box": "open({path!r}, 'w').write('x')",
    "ndarray.dump outside the box": "import numpy\nnumpy.zeros(3).dump({path!r})",
    "a shell command (os.system)": "import os\nos.system('touch {path}')",
    "subprocess.Popen": "import subprocess\nsubprocess.run(['touch', {path!r}])",
    "ctypes calling libc system": "import ctypes\nctypes.CDLL(None).system(b'touch {path}')",
    "a forked child": "import os\npid = os.fork()\nif pid == 0:\n    open({path!r}, 'w')\n"
                      "    os._exit(0)\nos.waitpid(pid, 0)",
    "a file removed outside the box": "import os\nos.remove({victim!r})",
    "a socket": "import socket\nsocket.create_connection(('127.0.0.1', {port}))",
    "a signal to another process": "import os, signal\nos.kill({pid}, signal.SIGKILL)",
    "a file's mode changed outside the box": "import os\nos.chmod({victim!r}, 0o777)",
    "a file's times changed outside the box": "import os\nos.utime({victim!r}, (0, 0))",
    "a resource limit raised": "import resource\nresource.setrlimit(resource.RLIMIT_NOFILE, "
                               "resource.getrlimit(resource.RLIMIT_NOFILE))",
}


@pytest.fixture(scope="module")
def boxed() -> isolation.Isolation:
    found = isolation.available()
    if not found.boxed:
        pytest.skip(f"no kernel box on this machine: {found.reason}")
    return found


@pytest.fixture
def workspace(tmp_path) -> Path:
    from sam_plugin.evaluation.runner import prepare_workspace
    from sam_plugin.evaluation.task import load_suite

    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "t.py").write_text(TASK_FILE)
    return prepare_workspace(load_suite(suite)[0], tmp_path / "w")


def run(workspace: Path, script: str, **kwargs):
    from sam_plugin.evaluation.baseline import run_script
    from sam_plugin.evaluation.runner import stubs_path

    return run_script(script, workspace, workspace.parent / "work", stubs_path(), "Model-1",
                      "Plate", 60, **kwargs)


def run_unchecked(workspace: Path, script: str, boxing: isolation.Isolation):
    from sam_plugin.evaluation.baseline import run_in_box
    from sam_plugin.evaluation.runner import stubs_path

    return run_in_box(script, workspace, workspace.parent / "work", stubs_path(), "Model-1",
                      "Plate", 60, boxing)


@pytest.mark.parametrize("name", list(SCRIPTS))
def test_an_escape_through_the_language_is_refused_and_changes_nothing(tmp_path, workspace,
                                                                      boxed, name):
    marker = tmp_path / "ESCAPED"
    ran = run(workspace, SCRIPTS[name].format(path=str(marker)))
    assert not marker.exists()
    assert ran.error is not None and "ScriptRefused" in ran.error and "is not allowed" in ran.error


@pytest.mark.parametrize("name", list(SCRIPTS))
def test_an_escape_that_got_past_the_language_check_is_held_by_the_kernel(tmp_path, workspace,
                                                                          boxed, name):
    """The same scripts in the same child (restricted builtins, module views), without the
    parent's language check: what is left of each escape meets the kernel's box."""
    marker = tmp_path / "ESCAPED"
    ran = run_unchecked(workspace, SCRIPTS[name].format(path=str(marker)), boxed)
    assert not marker.exists(), ran
    assert ran.saved is not None  # the harness still saved the copy and said how it went


@pytest.mark.parametrize("name", ["ndarray.dump in a class pattern",
                                  "__subclasses__ reaches ctypes.CDLL",
                                  "__traceback__ in a class pattern reaches the harness's globals"])
def test_without_the_kernel_box_those_escapes_are_real(tmp_path, workspace, name):
    """The control: in the same child unboxed and unchecked, these escapes do what they say,
    so it is the kernel that holds them above."""
    marker = tmp_path / "ESCAPED"
    unboxed = isolation.Isolation(None, isolation.WRAPPERS[-1][1], "a control")
    run_unchecked(workspace, SCRIPTS[name].format(path=str(marker)), unboxed)
    assert marker.exists()


ROUTES = ["__subclasses__", "__traceback__", "__reduce_ex__", "__globals__", "__class__",
          "tb_frame", "f_back", "f_globals", "f_builtins", "gi_frame", "format", "format_map",
          "mro", "dump", "tofile", "saveAs", "ctypes", "subprocess"]


@pytest.mark.parametrize("attr", ROUTES)
def test_every_attribute_route_is_refused_in_a_class_pattern_too(attr):
    from sam_plugin.errors import ScriptRefused
    from sam_plugin.evaluation.sandbox import check_free_script

    check_free_script("match 1:\n    case int(real=r):\n        pass")  # a harmless one runs
    for script in (f"x = (1).{attr}", f"match 1:\n    case int({attr}=r):\n        pass",
                   f"match [1]:\n    case [int({attr}=r)] | {{'k': int({attr}=r)}}:\n"
                   "        pass"):
        with pytest.raises(ScriptRefused, match=f"the attribute '{attr}' is not allowed"):
            check_free_script(script)


@pytest.fixture
def targets(tmp_path):
    """What a payload would reach: a marker path, a file to remove, a listening port and a
    process to kill."""
    import socket

    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    victim.chmod(0o644)
    os.utime(victim, (1_000_000_000, 1_000_000_000))
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    yield {"path": str(tmp_path / "ESCAPED"), "victim": str(victim),
           "port": listener.getsockname()[1], "pid": sleeper.pid}
    listener.close()
    sleeper.kill()
    sleeper.wait()


def confined_child(box: Path, payload: str, found: isolation.Isolation | None):
    runner = ("import sys\nfrom sam_plugin.evaluation.confine import confine\n"
              "if sys.argv[2] == 'confine':\n    confine(sys.argv[1])\nexec(sys.argv[3])")
    prefix = found.command(box) if found else []
    return subprocess.run([*prefix, sys.executable, "-I", "-B", "-c", runner, str(box),
                           "confine" if found else "open", payload], capture_output=True,
                          text=True, timeout=60, cwd=box, env=isolation.child_environment(box),
                          stdin=subprocess.DEVNULL, start_new_session=True)


def escaped(targets) -> bool:
    victim = Path(targets["victim"])
    return Path(targets["path"]).exists() or not victim.exists() \
        or (victim.stat().st_mode & 0o777, victim.stat().st_mtime) != (0o644, 1_000_000_000) \
        or os.waitpid(targets["pid"], os.WNOHANG) != (0, 0)


@pytest.mark.parametrize("name", list(PAYLOADS))
def test_the_kernel_box_holds_a_payload_that_got_past_the_language(tmp_path, boxed, targets,
                                                                     name):
    box = tmp_path / "box"
    box.mkdir()
    done = confined_child(box, PAYLOADS[name].format(**targets), boxed)
    assert not escaped(targets), done.stderr
    if name not in ("a shell command (os.system)", "ctypes calling libc system"):
        # Landlock and seccomp say EPERM/EACCES; bubblewrap's read-only root says EROFS first
        refusals = ("PermissionError", "Read-only file system", "not allowed to raise")
        assert done.returncode != 0 and any(r in done.stderr for r in refusals), done.stderr


@pytest.mark.parametrize("name", ["a file written outside the box", "a shell command (os.system)",
                                  "a file removed outside the box", "a forked child",
                                  "a file's mode changed outside the box",
                                  "a file's times changed outside the box"])
def test_each_payload_escapes_without_the_box(tmp_path, targets, name):
    """The control: the payloads are real escapes, held only by the box."""
    box = tmp_path / "box"
    box.mkdir()
    done = confined_child(box, PAYLOADS[name].format(**targets), None)
    assert escaped(targets), done.stderr


def test_threads_and_numpy_still_run_in_the_box(tmp_path, boxed):
    box = tmp_path / "box"
    box.mkdir()
    payload = ("import threading, numpy\nt = threading.Thread(target=print)\nt.start()\n"
               "t.join()\nprint(float(numpy.linalg.norm(numpy.ones((64, 64)) @ numpy.ones(64))))"
               "\nopen('inside.txt', 'w').write('in the box')")
    done = confined_child(box, payload, boxed)
    assert done.returncode == 0, done.stderr
    assert (box / "inside.txt").read_text() == "in the box"


def test_a_finalizer_cannot_fake_the_harness_result(workspace, boxed):
    script = """
class Liar:
    def __del__(self):
        print('{"error": null}')
keep = Liar()
raise ValueError("the script failed")
"""
    ran = run(workspace, script)
    assert ran.error == "ValueError: the script failed"


def test_a_result_written_past_the_language_check_is_not_taken(workspace, boxed):
    """A script that reached ``os`` could write a line on the harness's descriptor too: the
    channel holds one line or the run is a harness failure, never the script's word."""
    script = TO_MODULES + """
for fd in range(3, 64):
    try:
        m["os"].write(fd, b'{"error": null}\\n')
    except Exception:
        pass
raise ValueError("the script failed")
"""
    ran = run_unchecked(workspace, script, boxed)
    assert ran.error == "the harness failed: its result channel held 2 lines, not one"


def test_a_box_that_cannot_be_set_up_is_one_line(boxed, tmp_path):
    """In a child: confining the test process itself could not be undone."""
    program = ("from sam_plugin.errors import Unconfined\n"
               "from sam_plugin.evaluation.confine import confine\ntry:\n"
               f"    confine({str(tmp_path / 'gone')!r})\nexcept Unconfined as error:\n"
               "    print(error)")
    done = subprocess.run([sys.executable, "-I", "-c", program], capture_output=True,
                          text=True, timeout=60)
    assert done.stdout == f"the box {tmp_path / 'gone'}: No such file or directory\n"


def test_the_child_imports_no_subprocess_before_the_script(workspace, boxed):
    """What the script would find in ``sys.modules`` (reached past the language check):
    no module that starts a process."""
    script = TO_MODULES + "print(sorted({'subprocess', 'multiprocessing', 'pty'} & set(m)))"
    ran = run_unchecked(workspace, script, boxed)
    assert ran.error is None
    assert (workspace.parent / "work" / "stdout.txt").read_text() == "[]\n"


def test_without_a_kernel_box_eval_refuses_unless_trust_cassette(tmp_path, workspace,
                                                                 monkeypatch, capsys):
    monkeypatch.setattr(isolation, "available", lambda: isolation.Isolation(
        None, isolation.WRAPPERS[-1][1], "Landlock is not enabled in this kernel"))
    code = cli.main(["eval", str(tmp_path / "suite"), "--replay", str(tmp_path / "none"),
                     "--baseline", "free-python", "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1
    assert err == ("sam-agent eval: error: --baseline free-python: this machine gives no "
                   "kernel box for a model's or a cassette's script (Landlock is not enabled "
                   "in this kernel); run it where Linux has Landlock, or pass --trust-cassette "
                   "to run it with the language check alone")
    marker = tmp_path / "ESCAPED"
    with pytest.raises(Exception, match="no kernel box"):
        run(workspace, "x = 1")
    trusted = run(workspace, SCRIPTS["ndarray.dump in a class pattern"].format(path=str(marker)),
                  trust=True)
    assert not marker.exists() and "is not allowed" in (trusted.error or "")
    assert run(workspace, "x = 1", trust=True).error is None


def test_trust_cassette_needs_the_baseline(tmp_path, capsys):
    code = cli.main(["eval", str(tmp_path), "--replay", str(tmp_path), "--trust-cassette"])
    assert code == 2
    assert "--trust-cassette: needs --baseline free-python" in capsys.readouterr().err
