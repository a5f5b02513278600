"""``sam-agent``: the headless gated pipeline (DESIGN.md §6) and the offline demo.

``sam-agent run`` opens a workspace (through the offline SAM stub outside SAM, saying so),
streams the spec, asks y/N unless ``--yes``, prints progress with true status words, and exits
0 verified, 1 failed, 2 usage, 3 returned to review / nothing executed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import importlib.util
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from pydantic import ValidationError

import sam_plugin
from sam_plugin.compilers.protocol import Target
from sam_plugin.compilers.registry import MODES
from sam_plugin.runtime.events import ControllerEvent

EXIT_VERIFIED = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_REVIEW = 3
EXIT_INTERRUPTED = 130

ENV_RUNS_DIR = "SAM_AGENT_RUNS_DIR"


class UsageError(Exception):
    """Bad input: printed as ``sam-agent: error: ...`` with exit code 2."""


def stubs_dir() -> Path:
    return Path(sam_plugin.__file__).resolve().parents[1] / "stubs"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sam-agent", description="SAM Agent: human-gated, verified model changes."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="{run,demo}")
    run = commands.add_parser(
        "run",
        help="observe, design, confirm, execute once and verify one request",
        description="Provider from flags or SAM_AGENT_BASE_URL, SAM_AGENT_API_KEY, "
        "SAM_AGENT_MODEL (the key only from the environment).",
    )
    run.add_argument("--workspace", required=True, type=Path, metavar="W.sam.json")
    run.add_argument("--mode", required=True, choices=MODES)
    run.add_argument("--model", required=True, help="target model name")
    run.add_argument("--part", required=True, help="target part name (may not exist yet)")
    source = run.add_mutually_exclusive_group(required=True)
    source.add_argument("--request", metavar="TEXT")
    source.add_argument("--request-file", type=Path, metavar="F")
    run.add_argument(
        "--save",
        type=Path,
        metavar="OUT.sam.json",
        help="write the database here, only after a verified run",
    )
    run.add_argument("--runs-dir", type=Path, metavar="DIR")
    run.add_argument("--yes", action="store_true", help="confirm the spec without asking")
    run.add_argument("--base-url", metavar="URL")
    run.add_argument("--api-model", metavar="NAME")
    run.add_argument("--explore", action="store_true", help="read-only exploration phase")
    run.add_argument("--json", action="store_true", help="print result.json on stdout")
    commands.add_parser(
        "demo", help="open the offline SAM host with the SAM Agent dock", add_help=False
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["demo"]:
        from sam_plugin.ui import demo  # Qt only when the demo is asked for

        return int(demo.main(argv[1:]) or 0)
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # argparse: 2 on bad usage, 0 for --help
        return int(exit_.code or 0)
    try:
        return asyncio.run(run_command(args))
    except UsageError as error:
        print(f"sam-agent: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        # before execution the run is written as cancelled; during it, SAM decides
        print("sam-agent: interrupted; see result.json in the run directory", file=sys.stderr)
        return EXIT_INTERRUPTED


async def run_command(
    args: argparse.Namespace,
    *,
    stdin: TextIO | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    from sam_plugin.runtime.controller import RunController, SubmitRefused
    from sam_plugin.runtime.host_gateway import HostGateway
    from sam_plugin.runtime.phases import Phase

    stdin, out, err = stdin or sys.stdin, out or sys.stdout, err or sys.stderr
    request = _read_request(args)
    settings = _settings(args)
    sam = _import_sam(err)
    _open_workspace(sam, args.workspace)
    host = HostGateway(sam)
    target = Target(model_name=args.model, part_name=args.part)
    controller = RunController(runs_dir=_runs_dir(args), settings=settings, host=host)
    for run_id in controller.recovered_runs:
        print(
            f"warning: run {run_id} was submitted but its outcome was never recorded; the part "
            "may or may not have been modified. Re-observe it; the run is never resubmitted.",
            file=err,
        )
    progress = _Progress(err)
    controller.subscribe(progress)
    try:
        phase = await controller.submit(request, args.mode, target, explore=args.explore)
    except SubmitRefused as refused:
        raise UsageError(str(refused)) from None
    progress.end_stream()
    if phase == Phase.REVIEW and not args.yes and not _ask(controller.spec_text, stdin, err):
        await controller.cancel()
    elif phase == Phase.REVIEW:
        # whatever the script prints goes to stderr: stdout carries only the result
        with contextlib.redirect_stdout(err):
            await controller.confirm(args.mode, target)
    result = controller.result
    assert result is not None
    saved = None
    if result.status == "verified" and args.save:
        saved = _save(host, args.save, err)
    _print_result(result, controller.runs_dir / result.run_id, args.json, out)
    if saved is False:
        return EXIT_FAILED
    return {"verified": EXIT_VERIFIED, "rejected": EXIT_REVIEW, "cancelled": EXIT_REVIEW}.get(
        result.status, EXIT_FAILED
    )


# -- inputs -----------------------------------------------------------------------------------


def _read_request(args: argparse.Namespace) -> str:
    if args.request is not None:
        text = args.request
    else:
        try:
            text = args.request_file.read_text(encoding="utf-8")
        except OSError as error:
            raise UsageError(f"--request-file: cannot read {args.request_file} ({error})") from None
    if not text.strip():
        raise UsageError("--request: empty; describe the change you want")
    return text


def _settings(args: argparse.Namespace) -> Any:
    from sam_plugin.runtime.settings import ENV_BASE_URL, ENV_MODEL, ProviderSettings

    env = dict(os.environ)
    if args.base_url:
        env[ENV_BASE_URL] = args.base_url
    if args.api_model:
        env[ENV_MODEL] = args.api_model
    try:
        settings = ProviderSettings.from_env(env)
    except ValidationError as error:
        first = error.errors()[0]
        field = ".".join(str(p) for p in first["loc"])
        raise UsageError(f"provider setting {field}: {first['msg']}") from None
    missing = settings.missing_fields()
    if missing:
        raise UsageError(
            "provider settings incomplete: missing "
            + ", ".join(missing)
            + " (use --base-url, --api-model, or SAM_AGENT_BASE_URL, SAM_AGENT_API_KEY, "
            "SAM_AGENT_MODEL)"
        )
    return settings


def _import_sam(err: TextIO) -> Any:
    """The host's ``sam`` when one is importable; else the offline stub, said out loud."""
    stubs = stubs_dir()
    spec = importlib.util.find_spec("sam")
    if spec is None:
        if not (stubs / "sam").is_dir():
            raise UsageError(f"no SAM module: not inside SAM and no offline stub at {stubs}")
        sys.path.insert(0, str(stubs))
        importlib.invalidate_caches()
        spec = importlib.util.find_spec("sam")
    origin = Path(spec.origin).resolve() if spec and spec.origin else None
    if origin is not None and stubs in origin.parents:
        print(f"sam-agent: using the offline SAM stub from {stubs}", file=err)
    return importlib.import_module("sam")


def _open_workspace(sam: Any, path: Path) -> None:
    if not path.is_file():
        raise UsageError(f"--workspace: no such file {path}")
    try:
        sam.openMdb(str(path))
    except Exception as error:  # the host's own message says what is wrong with the file
        raise UsageError(f"--workspace: cannot open {path} ({error})") from None


def _runs_dir(args: argparse.Namespace) -> Path:
    if args.runs_dir:
        return Path(args.runs_dir)
    if os.environ.get(ENV_RUNS_DIR, "").strip():
        return Path(os.environ[ENV_RUNS_DIR])
    from platformdirs import user_data_dir

    return Path(user_data_dir("sam-agent", appauthor=False)) / "runs"


def _ask(spec: str, stdin: TextIO, err: TextIO) -> bool:
    print("\n--- proposed spec (nothing has been collected or executed) ---", file=err)
    print(spec, file=err)
    print("---", file=err)
    print("Confirm this spec and let the model fill in the tool calls? [y/N] ", end="", file=err)
    err.flush()
    answer = stdin.readline()
    return answer.strip().lower() in ("y", "yes")


def _save(host: Any, path: Path, err: TextIO) -> bool:
    try:
        host.mdb.saveAs(str(path))
    except Exception as error:
        print(f"sam-agent: the run is verified, but saving {path} failed: {error}", file=err)
        return False
    print(f"saved: {path}", file=err)
    return True


# -- output -----------------------------------------------------------------------------------


class _Progress:
    """Progress lines on stderr; the streamed spec as it arrives."""

    def __init__(self, err: TextIO):
        self.err = err
        self.streaming = False

    def __call__(self, event: ControllerEvent) -> None:
        data = event.data
        if event.event == "design_delta":
            if data.get("reset"):
                print("\n[the stream restarted; the spec so far is discarded]", file=self.err)
            self.streaming = True
            self.err.write(data.get("text", ""))
            self.err.flush()
            return
        line = self._line(event.event, data)
        if line:
            self.end_stream()
            print(line, file=self.err)

    def end_stream(self) -> None:
        if self.streaming:
            self.err.write("\n")
            self.streaming = False

    @staticmethod
    def _line(event: str, data: dict[str, Any]) -> str | None:
        if event == "phase_changed":
            return f"[{data['phase']}] {data['label']}"
        if event == "tool_call_collected":
            return f"  collected, not executed: {data['tool']} (round {data['round']})"
        if event == "tool_call_rejected":
            return f"  rejected: {data['reason']}"
        if event == "tool_call_compiled":
            return f"  compiled: {data['tool']}"
        if event == "script_composed":
            return f"  script composed: sha256 {data['script_sha256'][:16]}…"
        if event == "execution_completed":
            return f"  executed: {data['status']}"
        return None


def _print_result(result: Any, run_dir: Path, as_json: bool, out: TextIO) -> None:
    if as_json:
        out.write((run_dir / "result.json").read_text(encoding="utf-8"))
        return
    words = {
        "verified": "Verified: the change was executed once and confirmed by readback.",
        "failed": "Failed",
        "rejected": "Returned to review: nothing was executed.",
        "cancelled": "Cancelled: nothing was executed.",
        "unknown": "Unknown outcome: re-observe the part.",
    }
    headline = words.get(result.status, result.status)
    if result.error is not None and result.status == "failed":
        headline = f"Failed at {result.error.layer}"
    print(headline, file=out)
    if result.error is not None:
        print(f"  {result.error.layer}: {result.error.message}", file=out)
    for check in result.checks:
        mark = "ok " if check.ok else "FAIL"
        print(
            f"  [{mark}] {check.name}: expected {check.expected}, actual {check.actual}", file=out
        )
    if result.after is not None:
        after = result.after
        print(f"  after: {after.node_count} nodes, {after.element_count} elements", file=out)
    print(f"  run directory: {run_dir}", file=out)


if __name__ == "__main__":
    raise SystemExit(main())
