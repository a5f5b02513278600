"""Starting, checking and stopping ``llama-server`` on the loopback.

A server is ready when it answers ``/health`` and then one chat token; one that ends first is
named by its signal (SIGILL: an instruction this CPU does not run). ``serve`` leaves it running
in its own session and records it in the home (``server-PORT.json``) for ``stop`` and
``status``.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

import httpx
from pydantic import BaseModel

from sam_plugin.errors import IllegalInstruction, LocalModelError, SetupCancelled
from sam_plugin.local_llm.home import LocalHome

HOST = "127.0.0.1"
DEFAULT_PORT = 8080
ONE_TOKEN = {"messages": [{"role": "user", "content": "Reply with one word: is a "
                           "quadrilateral mesh element a QUAD or a TRI?"}],
             "max_tokens": 1, "temperature": 0}
READY_SECONDS = 600.0  # loading a model from a cold disk on a busy machine


class ServerRecord(BaseModel):
    """A server ``serve`` started: what ``stop`` ends and ``status`` reports."""

    pid: int
    port: int
    model: str  # the name it answers as
    model_file: str

    @property
    def base_url(self) -> str:
        return base_url(self.port)


def base_url(port: int) -> str:
    return f"http://{HOST}:{port}/v1"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def server_argv(binary: Path, model_file: Path, *, port: int, threads: int, context: int,
                alias: str, extra: list[str]) -> list[str]:
    return [str(binary), "-m", str(model_file), "--host", HOST, "--port", str(port), "--jinja",
            "-c", str(context), "-t", str(threads), "--alias", alias, *extra]


def start(argv: list[str], log: Path) -> subprocess.Popen[bytes]:
    """In its own session, so that it outlives the command or the dock that started it."""
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("wb") as sink:
        return subprocess.Popen(argv, stdout=sink, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)


def wait_ready(process: subprocess.Popen[bytes], port: int, *, log: Path,
               cancel: threading.Event | None = None,
               seconds: float = READY_SECONDS) -> None:
    """``/health``, then one token; else one line saying why (:class:`IllegalInstruction` for
    SIGILL)."""
    url = f"http://{HOST}:{port}"
    deadline = time.monotonic() + seconds
    with httpx.Client(timeout=5.0) as client:
        while time.monotonic() < deadline:
            if cancel is not None and cancel.is_set():
                end(process)
                raise SetupCancelled("stopped while the server was starting")
            if process.poll() is not None:
                raise _ended(process, log)
            try:
                healthy = client.get(f"{url}/health").status_code == 200
            except httpx.HTTPError:
                healthy = False
            if healthy:
                _one_token(client, process, url, log)
                return
            time.sleep(0.3)
    end(process)
    raise LocalModelError(f"llama-server did not answer /health within {seconds:.0f} s "
                          f"(see {log})")


def _one_token(client: httpx.Client, process: subprocess.Popen[bytes], url: str,
               log: Path) -> None:
    try:
        answer = client.post(f"{url}/v1/chat/completions", json=ONE_TOKEN, timeout=600.0)
        if answer.status_code == 200 and "choices" in answer.json():
            return
        problem = f"answered {answer.status_code} to a one-token chat request"
    except (httpx.HTTPError, ValueError) as error:
        problem = f"answered no token to a one-token chat request ({error})"
    try:
        process.wait(5)
    except subprocess.TimeoutExpired:
        end(process)
        raise LocalModelError(f"llama-server {problem} (see {log})") from None
    raise _ended(process, log)


def _ended(process: subprocess.Popen[bytes], log: Path) -> LocalModelError:
    status = process.returncode
    if status == -signal.SIGILL:
        return IllegalInstruction("llama-server died with SIGILL (illegal instruction): this "
                                  "CPU does not run the instructions it was built for")
    if status == -signal.SIGKILL:
        return LocalModelError(f"llama-server was killed (out of memory? see dmesg and {log})")
    if status is not None and status < 0:
        return LocalModelError(f"llama-server died with {signal.Signals(-status).name} "
                               f"(see {log})")
    return LocalModelError(f"llama-server exited with status {status} (see {log})")


def end(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM, then SIGKILL: a busy slot can hold SIGTERM for minutes."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def record(home: LocalHome, server: ServerRecord) -> None:
    home.server_record(server.port).write_text(server.model_dump_json(), encoding="utf-8")


def recorded_servers(home: LocalHome) -> list[ServerRecord]:
    """The servers ``serve`` started that still run (a stale record is removed)."""
    found = []
    for path in sorted(home.root.glob("server-*.json")):
        try:
            server = ServerRecord.model_validate(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError):
            continue
        if alive(server.pid):
            found.append(server)
        else:
            path.unlink(missing_ok=True)
    return found


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return _not_zombie(pid)


def _not_zombie(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8")
    except OSError:
        return True
    return stat.rpartition(")")[2].split()[:1] != ["Z"]


def stop(home: LocalHome, port: int) -> bool:
    """End the server ``serve`` started on ``port``; False when there was none."""
    path = home.server_record(port)
    try:
        server = ServerRecord.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return False
    if alive(server.pid):
        _end_pid(server.pid)
    path.unlink(missing_ok=True)
    return True


def _end_pid(pid: int) -> None:
    os.kill(pid, signal.SIGTERM)
    for _ in range(40):
        time.sleep(0.25)
        if not alive(pid):
            return
    os.kill(pid, signal.SIGKILL)
