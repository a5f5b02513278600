"""``sam-agent local serve``: the set-up model on the loopback, prompt cache on, one thread
per usable core; ready once it answers one token."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path

from sam_plugin.errors import LocalModelError
from sam_plugin.local_llm import server
from sam_plugin.local_llm.catalog import MODELS
from sam_plugin.local_llm.cpu import usable_cores
from sam_plugin.local_llm.estimate import CACHE_RAM_MIB, SERVER_CONTEXT
from sam_plugin.local_llm.home import LocalHome
from sam_plugin.local_llm.install import SetupRecord


@dataclass(frozen=True)
class ServeOptions:
    model: str | None = None  # 0.5b, 1.5b or a .gguf file; None: the one set up
    port: int = field(default_factory=lambda: server.DEFAULT_PORT)
    threads: int = field(default_factory=usable_cores)
    context: int = SERVER_CONTEXT
    n_predict: int = 1024
    parallel: int = 1
    gpu_layers: int = 0


def serve(home: LocalHome, options: ServeOptions,
          cancel: threading.Event | None = None) -> server.ServerRecord:
    """Start the server and wait until it answers; a running one on the port is kept."""
    if not home.server_binary.exists():
        raise LocalModelError("the local model is not set up: run sam-agent local setup")
    model_file, alias = _model_file(home, options.model)
    for running in server.recorded_servers(home):
        if running.port == options.port:
            if running.model_file == str(model_file):
                return running
            raise LocalModelError(f"port {options.port} already serves {running.model}: "
                                  f"sam-agent local stop --port {options.port} first")
    # one request at a time on every core; the prompt cache keeps the slot's prefix and,
    # in RAM, the prompts it replaced (the design and collection prefixes alternate)
    extra = ["-n", str(options.n_predict), "--parallel", str(options.parallel),
             "-ngl", str(options.gpu_layers), "--cache-prompt", "--cache-ram", str(CACHE_RAM_MIB)]
    argv = server.server_argv(home.server_binary, model_file, port=options.port,
                              threads=options.threads, context=options.context, alias=alias,
                              extra=extra)
    log = home.server_log(options.port)
    process = server.start(argv, log)
    try:
        server.wait_ready(process, options.port, log=log, cancel=cancel)
    except BaseException:
        server.end(process)
        raise
    running = server.ServerRecord(pid=process.pid, port=options.port, model=alias,
                                  model_file=str(model_file))
    server.record(home, running)
    return running


def _model_file(home: LocalHome, name: str | None) -> tuple[Path, str]:
    if name and name.endswith(".gguf"):
        path = Path(name).expanduser().resolve()
        if not path.is_file():
            raise LocalModelError(f"--model: no file {path}")
        return path, path.stem
    if name:
        spec = MODELS.get(name)
        if spec is None:
            raise LocalModelError(f"--model: {name!r} is not one of "
                                  f"{', '.join(MODELS)} or a .gguf file")
        path = home.models / spec.filename
        if not path.with_name(path.name + ".sha256").exists():
            raise LocalModelError(f"the model {name} is not set up: run sam-agent local setup "
                                  f"--model {name}")
        return path, spec.alias
    try:
        setup = SetupRecord.model_validate_json(home.setup_record.read_text("utf-8"))
    except (OSError, ValueError):
        raise LocalModelError("the local model is not set up: run sam-agent local setup") \
            from None
    return Path(setup.model_file), setup.alias
