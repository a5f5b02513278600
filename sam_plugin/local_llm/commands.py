"""The seam between the set-up and the outside: processes it runs and files it downloads.

:class:`SubprocessCommands` runs cmake, the compiler and pip for real and downloads with
httpx; tests give the set-up a fake with the same three methods, so no build or download
happens in them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol

import httpx

from sam_plugin.errors import LocalModelError, SetupCancelled

LineSink = Callable[[str], None]
ByteSink = Callable[[int], None]
CHUNK = 1 << 20


class Commands(Protocol):
    def run(self, argv: Sequence[str], *, log: Path, on_line: LineSink,
            cancel: threading.Event, cwd: Path | None = None) -> int:
        """Run to the end, each output line to ``on_line`` and ``log``; the exit status.
        ``cancel`` set: the process is ended and :class:`SetupCancelled` raised."""

    def download(self, url: str, destination: Path, *, on_bytes: ByteSink,
                 cancel: threading.Event) -> None:
        """``url`` to ``destination`` (whole, or not at all)."""

    def fetch_json(self, url: str) -> Any:
        """A small JSON document (a package index's answer)."""

    def which(self, name: str) -> str | None:
        """The program ``name`` on PATH, else None."""


class SubprocessCommands:
    """The real processes and downloads."""

    def run(self, argv: Sequence[str], *, log: Path, on_line: LineSink,
            cancel: threading.Event, cwd: Path | None = None) -> int:
        log.parent.mkdir(parents=True, exist_ok=True)
        with log.open("a", encoding="utf-8") as sink:
            sink.write("$ " + " ".join(argv) + "\n")
            sink.flush()
            process, output = _start(argv, cwd)
            ended = threading.Event()
            watcher = threading.Thread(target=_end_on_cancel, args=(process, cancel, ended),
                                       daemon=True)
            watcher.start()
            try:
                for line in output:
                    sink.write(line + "\n")
                    sink.flush()  # the log says how far it got, even if the set-up is killed
                    on_line(line)
                status = process.wait()
            finally:
                ended.set()
        if cancel.is_set():
            raise SetupCancelled("stopped; what was done is kept, and setup resumes from there")
        return status

    def download(self, url: str, destination: Path, *, on_bytes: ByteSink,
                 cancel: threading.Event) -> None:
        destination.parent.mkdir(parents=True, exist_ok=True)
        partial = destination.with_name(destination.name + ".part")
        try:
            with httpx.stream("GET", url, follow_redirects=True, timeout=60.0) as response, \
                    partial.open("wb") as sink:
                response.raise_for_status()
                for chunk in response.iter_bytes(CHUNK):
                    if cancel.is_set():
                        raise SetupCancelled("stopped; the next setup downloads it again")
                    sink.write(chunk)
                    on_bytes(len(chunk))
        except httpx.HTTPError as error:
            raise LocalModelError(f"could not download {url}: {error}") from error
        partial.replace(destination)

    def fetch_json(self, url: str) -> Any:
        try:
            response = httpx.get(url, follow_redirects=True, timeout=60.0)
            response.raise_for_status()
            return response.json()
        except (httpx.HTTPError, ValueError) as error:
            raise LocalModelError(f"could not read {url}: {error}") from error

    def which(self, name: str) -> str | None:
        return shutil.which(name)


def _start(argv: Sequence[str], cwd: Path | None) -> tuple[subprocess.Popen[bytes],
                                                             Iterator[str]]:
    """The process and its output lines. On POSIX its output is a pseudo-terminal with
    TERM=dumb: ninja then prints a plain "[n/N]" line per step, and its stdio flushes each
    line (into a pipe it flushed in 4 KB bursts, so the count stood still for minutes)."""
    if os.name != "posix":
        process = subprocess.Popen(list(argv), cwd=cwd, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        assert process.stdout is not None
        descriptor = process.stdout.fileno()
        return process, _lines(iter(lambda: os.read(descriptor, CHUNK), b""))
    import pty

    main, child = pty.openpty()
    try:
        process = subprocess.Popen(list(argv), cwd=cwd, stdout=child, stderr=child,
                                   stdin=subprocess.DEVNULL, env={**os.environ, "TERM": "dumb"})
    except BaseException:
        os.close(main)
        raise
    finally:
        os.close(child)
    return process, _lines(_read_until_closed(main))


def _read_until_closed(descriptor: int) -> Iterator[bytes]:
    try:
        while True:
            try:
                chunk = os.read(descriptor, CHUNK)
            except OSError:  # EIO: every writer closed the terminal
                return
            if not chunk:
                return
            yield chunk
    finally:
        os.close(descriptor)


def _lines(chunks: Iterator[bytes]) -> Iterator[str]:
    """Lines ended by \\n or \\r (a terminal's line end is \\r\\n)."""
    pending = b""
    for chunk in chunks:
        pending += chunk
        *complete, pending = pending.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")
        for line in complete:
            if line:
                yield line.decode("utf-8", "replace")
    if pending:
        yield pending.decode("utf-8", "replace")


def _end_on_cancel(process: subprocess.Popen[bytes], cancel: threading.Event,
                   ended: threading.Event) -> None:
    while not ended.is_set():
        if cancel.wait(0.2):
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
            return
