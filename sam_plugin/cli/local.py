"""``sam-agent local setup|serve|stop|status``: a llama.cpp server and a pinned model on this
computer, from the installed plugin (docs/models.md; the work is ``sam_plugin.local_llm``).

``setup`` states what it will take (download, disk, RAM, minutes on these cores, the tools it
needs) and asks; ``--yes`` answers; with no one at the terminal and no ``--yes`` it stops
there, having downloaded and built nothing. Exit codes: 0 done, 1 failed, 2 usage, 3 not
confirmed, 130 interrupted (what was done is kept; the next setup resumes).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any, TextIO

from sam_plugin.cli.common import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_REVIEW

if TYPE_CHECKING:
    from sam_plugin.local_llm.progress import Progress
    from sam_plugin.local_llm.status import LocalStatus

EXIT_DONE = 0
BAR_WIDTH = 30
PREFIX = "sam-agent local"


def add_parser(commands: Any) -> None:
    local = commands.add_parser(
        "local", help="a local model on this computer: setup, serve, stop, status",
        description="A llama.cpp server built for this CPU and a pinned model, kept in the "
        "per-user cache; what to type in Settings comes with status.")
    local.set_defaults(handler=handle_status)  # each verb sets its own
    verbs = local.add_subparsers(dest="verb", required=True, metavar="{setup,serve,stop,status}")
    setup = verbs.add_parser("setup", help="build llama-server for this CPU and fetch the "
                             "model (says the sizes and asks first)")
    setup.add_argument("--model", default="0.5b", choices=("0.5b", "1.5b"))
    setup.add_argument("--yes", action="store_true", help="go ahead without asking")
    setup.set_defaults(handler=handle_setup, error_prefix=PREFIX)
    serve = verbs.add_parser("serve", help="serve the set-up model on 127.0.0.1")
    serve.add_argument("--model", help="0.5b, 1.5b or a .gguf file (default: the one set up)")
    serve.add_argument("--port", type=int, default=8080)
    serve.add_argument("--threads", type=int, help="default: this machine's usable cores")
    serve.add_argument("--ctx", type=int, help="context tokens (default 36864)")
    serve.add_argument("--n-predict", type=int, default=1024)
    serve.add_argument("--parallel", type=int, default=1)
    serve.add_argument("--ngl", type=int, default=0, help="layers on a GPU (a GPU build)")
    serve.set_defaults(handler=handle_serve, error_prefix=PREFIX)
    stop = verbs.add_parser("stop", help="stop the server serve started")
    stop.add_argument("--port", type=int, default=8080)
    stop.set_defaults(handler=handle_stop, error_prefix=PREFIX)
    status = verbs.add_parser("status", help="not set up | building | ready | serving")
    status.add_argument("--json", action="store_true")
    status.set_defaults(handler=handle_status, error_prefix=PREFIX)


def handle_setup(args: argparse.Namespace) -> int:
    return setup_command(args.model, yes=args.yes, stdin=sys.stdin, out=sys.stdout,
                         err=sys.stderr)


def setup_command(model_name: str, *, yes: bool, stdin: TextIO, out: TextIO, err: TextIO,
                  commands: Any = None, home: Any = None) -> int:
    from sam_plugin.errors import LocalModelError, MissingTools, SetupCancelled
    from sam_plugin.local_llm.catalog import model_spec
    from sam_plugin.local_llm.estimate import estimate_lines
    from sam_plugin.local_llm.install import setup_for_this_machine
    from sam_plugin.local_llm.needs import check_tools, install_hint, missing_tools
    from sam_plugin.local_llm.status import local_status

    spec = model_spec(model_name)
    bar = ProgressBar(err)
    setup = setup_for_this_machine(spec, bar.show, home=home, commands=commands)
    which = setup.commands.which
    now = local_status(setup.home)
    if now.state in ("ready", "serving") and now.model == spec.alias:
        print(f"{PREFIX}: {spec.title} is already set up.", file=out)
        _use_lines(now, out)
        return EXIT_DONE
    for line in estimate_lines(setup.found, spec.title, missing_tools(which), install_hint(which)):
        print(line, file=out)
    try:
        check_tools(which)
    except MissingTools as missing:
        print(f"{PREFIX}: error: {missing}", file=err)
        return EXIT_FAILED
    if not yes and not _confirmed(stdin, out):
        return EXIT_REVIEW
    try:
        setup.run()
    except SetupCancelled as stopped:
        bar.end()
        print(f"{PREFIX}: {stopped}", file=err)
        return EXIT_INTERRUPTED
    except KeyboardInterrupt:
        bar.end()
        print(f"{PREFIX}: interrupted; what was done is kept, and setup resumes from there",
              file=err)
        return EXIT_INTERRUPTED
    except LocalModelError as error:
        bar.end()
        print(f"{PREFIX}: error: {error}", file=err)
        return EXIT_FAILED
    bar.end()
    print(f"{PREFIX}: set up in {bar.elapsed_words()}. Start it with: sam-agent local serve",
          file=out)
    _use_lines(local_status(setup.home), out)
    return EXIT_DONE


def _confirmed(stdin: TextIO, out: TextIO) -> bool:
    if not stdin.isatty():
        print(f"{PREFIX}: no one at this terminal to answer, so nothing was downloaded or "
              "built; run sam-agent local setup --yes to go ahead.", file=out)
        return False
    print("Download and build now? [y/N] ", end="", file=out, flush=True)
    answer = stdin.readline().strip().lower()
    if answer in ("y", "yes"):
        return True
    print(f"{PREFIX}: not confirmed; nothing was downloaded or built.", file=out)
    return False


class ProgressBar:
    """One line redrawn on a terminal; elsewhere a line per stage and per tenth of the whole."""

    def __init__(self, stream: TextIO) -> None:
        import time

        self.stream = stream
        self.redraw = stream.isatty()
        self.started = time.monotonic()
        self.last: tuple[str, int] | None = None

    def show(self, progress: Progress) -> None:
        from sam_plugin.local_llm.estimate import minutes

        filled = int(progress.fraction * BAR_WIDTH)
        left = (f", about {minutes(progress.seconds_left)} left" if progress.seconds_left
                else "")
        line = (f"[{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {progress.fraction:4.0%} "
                f"{progress.words()}{left}")
        if self.redraw:
            print("\r" + line.ljust(100), end="", file=self.stream, flush=True)
            return
        key = (progress.stage, int(progress.fraction * 10))
        if key != self.last:
            self.last = key
            print(line, file=self.stream, flush=True)

    def end(self) -> None:
        if self.redraw:
            print(file=self.stream, flush=True)

    def elapsed_words(self) -> str:
        import time

        seconds = int(time.monotonic() - self.started)
        return f"{seconds // 60} min {seconds % 60} s"


def handle_serve(args: argparse.Namespace) -> int:
    from sam_plugin.errors import LocalModelError
    from sam_plugin.local_llm.home import LocalHome
    from sam_plugin.local_llm.serve import ServeOptions, serve
    from sam_plugin.local_llm.status import local_status

    given = {"model": args.model, "port": args.port, "n_predict": args.n_predict,
             "parallel": args.parallel, "gpu_layers": args.ngl}
    if args.threads:
        given["threads"] = args.threads
    if args.ctx:
        given["context"] = args.ctx
    home = LocalHome.default()
    print(f"{PREFIX}: starting llama-server on 127.0.0.1:{args.port} "
          "(loading the model can take a minute)…", file=sys.stderr)
    try:
        running = serve(home, ServeOptions(**given))
    except LocalModelError as error:
        print(f"{PREFIX}: error: {error}", file=sys.stderr)
        return EXIT_FAILED
    print(f"{PREFIX}: serving (process {running.pid}); stop it with sam-agent local stop"
          + ("" if args.port == 8080 else f" --port {args.port}"), file=sys.stderr)
    _use_lines(local_status(home), sys.stdout)
    return EXIT_DONE


def handle_stop(args: argparse.Namespace) -> int:
    from sam_plugin.local_llm.home import LocalHome
    from sam_plugin.local_llm.server import stop

    if stop(LocalHome.default(), args.port):
        print(f"{PREFIX}: stopped the server on port {args.port}", file=sys.stderr)
    else:
        print(f"{PREFIX}: no server started by sam-agent local serve on port {args.port}",
              file=sys.stderr)
    return EXIT_DONE


def handle_status(args: argparse.Namespace) -> int:
    from sam_plugin.local_llm.status import local_status

    now = local_status()
    if args.json:
        print(now.model_dump_json(indent=1))
        return EXIT_DONE
    print(f"state:    {now.state}")
    _use_lines(now, sys.stdout)
    print(f"home:     {now.home}")
    if now.state == "not set up":
        print("set it up with: sam-agent local setup")
    elif now.state == "ready":
        print("start it with: sam-agent local serve")
    return EXIT_DONE


def _use_lines(now: LocalStatus, out: TextIO) -> None:
    if now.base_url is None or now.model is None:
        return
    print(f"base URL: {now.base_url}", file=out)
    print(f"model:    {now.model}", file=out)
    if now.state in ("ready", "serving"):
        print("In the dock: Settings… → Local model (on this computer) → Use it. "
              f"Headless: sam-agent run … --base-url {now.base_url} --api-model {now.model} "
              "--timeout 1800 --idle-timeout 600", file=out)
