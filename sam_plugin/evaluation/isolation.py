"""Which of the kernel's isolation this machine grants a baseline script (the parent's side;
``confine.py`` installs it in the child, ``sandbox.py`` says what the box is).

The floor is Landlock (writes only in the box) and a seccomp filter (no process, no socket):
both are installed by the child on itself, unprivileged, on any Linux that enables Landlock
(most desktop distributions since 2022). Around the child, where this machine makes one, a
namespace of its own: bubblewrap where it is installed (a read-only root with only the box
writable, no network, its own PIDs), else ``unshare`` (a network and mount namespace, as root
or in a user namespace). Each way is tried once per process, with a probe child that must
fail to write outside its box, open a socket and start a process; the first that holds is
used. Where none holds, the baseline refuses to run a script unless the person says
``--trust-cassette``.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sam_plugin.errors import UsageError

Wrapper = Callable[[Path], list[str]]

PROBE = r"""
import json, os, sys
box, result = sys.argv[1], int(sys.argv[2])
def verdict():
    from sam_plugin.errors import Unconfined
    from sam_plugin.evaluation.confine import confine
    try:
        confine(box)
    except Unconfined as error:
        return str(error)
    for what, attempt in (
            ("a write outside the box", lambda: open(os.path.join(box, "..", "outside"), "w")),
            ("a socket", lambda: __import__("socket").socket()),
            ("a new process", os.fork)):
        try:
            if attempt() == 0:
                os._exit(0)
        except OSError:
            continue
        return f"the box let {what} through"
    return "boxed"
os.write(result, json.dumps(verdict()).encode())
os._exit(0)
"""


def _bwrap(box: Path) -> list[str]:
    return ["bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
            "--bind", str(box), str(box), "--unshare-all", "--die-with-parent", "--new-session",
            "--chdir", str(box), "--"]


def _unshare(box: Path) -> list[str]:
    return ["unshare", "--net", "--mount", "--ipc"]


def _unshare_user(box: Path) -> list[str]:
    return ["unshare", "--user", "--map-root-user", "--net", "--mount", "--ipc"]


def _bare(box: Path) -> list[str]:
    return []


# (name, wrapper, the program it needs): most isolation first
WRAPPERS: tuple[tuple[str, Wrapper, str | None], ...] = (
    ("bubblewrap", _bwrap, "bwrap"), ("unshare", _unshare, "unshare"),
    ("unshare --user", _unshare_user, "unshare"), ("Landlock and seccomp", _bare, None))


@dataclass(frozen=True)
class Isolation:
    """The way a baseline script is boxed here (``name``), or why it cannot be (``reason``)."""

    name: str | None
    wrapper: Wrapper
    reason: str

    @property
    def boxed(self) -> bool:
        return self.name is not None

    def command(self, box: Path) -> list[str]:
        """What goes before ``python`` to start the child in its namespaces."""
        return self.wrapper(box)


@functools.cache
def available() -> Isolation:
    """The first way of :data:`WRAPPERS` whose probe holds (probed once per process)."""
    reasons = []
    for name, wrapper, program in WRAPPERS:
        if program is not None and shutil.which(program) is None:
            continue
        reason = _probe(wrapper)
        if reason is None:
            return Isolation(name, wrapper, "")
        reasons.append(reason)
    return Isolation(None, _bare, reasons[-1] if reasons else "no way to box a process here")


def _probe(wrapper: Wrapper) -> str | None:
    """None when a child started by ``wrapper`` and confined holds; else why not."""
    if not sys.platform.startswith("linux"):
        return f"no kernel isolation is known on {sys.platform}"
    with tempfile.TemporaryDirectory(prefix="sam-box-probe-") as top, \
            tempfile.TemporaryFile() as result:
        box = Path(top) / "box"
        box.mkdir()
        command = [*wrapper(box), sys.executable, "-I", "-B", "-c", PROBE, str(box),
                   str(result.fileno())]
        try:
            subprocess.run(command, capture_output=True, timeout=60, cwd=box,
                           stdin=subprocess.DEVNULL, pass_fds=(result.fileno(),),
                           env=child_environment(box))
        except (OSError, subprocess.TimeoutExpired) as error:
            return f"the probe did not start ({error})"
        result.seek(0)
        try:
            verdict = json.loads(result.read().decode("utf-8") or '"the probe said nothing"')
        except ValueError:
            return "the probe's answer was not readable"
        if (Path(top) / "outside").exists():
            return "the box let a write outside it through"
    return None if verdict == "boxed" else str(verdict)


def child_environment(box: Path) -> dict[str, str]:
    """A scrubbed environment: a path to find nothing with, the box as home, one BLAS
    thread."""
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(box),
            "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def require(trust: bool) -> Isolation:
    """The isolation to run a baseline script with; raises :class:`UsageError` (one line)
    when there is none and the person did not say ``--trust-cassette``."""
    isolation = available()
    if not isolation.boxed and not trust:
        raise UsageError(f"--baseline free-python: this machine gives no kernel box for a "
                         f"model's or a cassette's script ({isolation.reason}); run it where "
                         "Linux has Landlock, or pass --trust-cassette to run it with the "
                         "language check alone")
    return isolation
