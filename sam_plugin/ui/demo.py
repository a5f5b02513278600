"""``sam-agent demo``: the offline SAM host window with a sample workspace and the dock.

Who answers follows one rule (``runtime/provider/choice.py``): ``--replay`` forces the replay
(recorded responses for the bundled example requests, served over the real HTTP/SSE path by a
loopback server); else the provider variables the user set; else the choice saved in the
dock's Settings; else, with nothing configured, the replay. The dock's ``providerLabel`` says
which. The demo writes nothing into the process environment: ``--replay``, ``--delay`` and a
screenshot's temporary runs folder reach the plugin as its launch configuration
(``sam_plugin/launch.py``), so the dock's Settings can still switch to a live provider, and a
screenshot without a display asks Qt for the offscreen platform on its command line.
``--screenshot PNG`` renders the window (offscreen works) and exits; with ``--auto-run`` a
bundled example is run to Verified first (with ``--edit-spec``, to Review with the spec
editor open).

The offline SAM is ``stubs/`` in a checkout and ``sam_plugin/_offline_sam/`` in the wheel; the
demo puts that folder on ``sys.path`` itself (``sam_plugin/offline_sam.py``), and refuses in a
Python where SAM's own ``sam`` is importable, which the offline one would shadow.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from sam_plugin.launch import Launch
from sam_plugin.runtime.config import env as environment

LIVE_PROVIDER_HELP = """\
The dock replays recorded responses (not a live model) for the bundled example requests.
To use a live model, set the environment (or open Settings in the dock):
  DeepSeek : SAM_AGENT_BASE_URL=https://api.deepseek.com/v1  SAM_AGENT_MODEL=deepseek-chat \
SAM_AGENT_API_KEY=sk-...
  OpenAI   : SAM_AGENT_BASE_URL=https://api.openai.com/v1    SAM_AGENT_MODEL=gpt-4o-mini \
SAM_AGENT_API_KEY=sk-...
  Ollama   : SAM_AGENT_BASE_URL=http://localhost:11434/v1    SAM_AGENT_MODEL=qwen2.5:14b
  vLLM     : SAM_AGENT_BASE_URL=http://localhost:8000/v1     SAM_AGENT_MODEL=<served model>"""


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="sam-agent demo", description=__doc__.split("\n")[0])
    parser.add_argument("--workspace", type=Path,
                        help="a *.sam.json to open (default: a copy of the bundled sample)")
    parser.add_argument("--screenshot", type=Path, metavar="PNG",
                        help="render the window to PNG and exit (works offscreen)")
    parser.add_argument("--replay", action="store_true",
                        help="replay recorded responses even if a provider is configured")
    parser.add_argument("--auto-run", nargs="?", const="plate", metavar="EXAMPLE",
                        help="with --screenshot: run a bundled example (default: plate) first")
    parser.add_argument("--edit-spec", action="store_true",
                        help="with --auto-run: stop in Review with the spec editor open")
    parser.add_argument("--delay", type=float, default=0.02,
                        help="replay: seconds between streamed pieces (default 0.02)")
    parser.add_argument("--size", type=_size, metavar="WxH",
                        help="window size in pixels, e.g. 1024x640 (default: the screen's "
                             "available size)")
    parser.add_argument("--save-sample", type=Path, metavar="W.sam.json",
                        help="write the demo's sample workspace to this file and exit "
                        "(for sam-agent run; no window)")
    return parser.parse_args(argv)


def _size(text: str) -> tuple[int, int]:
    """``1024x640`` -> (1024, 640); anything else is a usage error naming the form."""
    width, sep, height = text.lower().partition("x")
    if not sep or not width.strip().isdigit() or not height.strip().isdigit() \
            or int(width) < 320 or int(height) < 240:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a window size WIDTHxHEIGHT of at least 320x240 (e.g. 1024x640)")
    return int(width), int(height)


def fit_window(window: Any, size: tuple[int, int] | None) -> None:
    """Open at ``size``, else at the screen's available size (a fixed size would cut the
    dock off on a smaller screen, docs/ui.md)."""
    if size is not None:
        window.resize(*size)
        return
    screen = window.screen()
    if screen is None:
        return
    available = screen.availableGeometry()
    frame = window.frameGeometry().size() - window.geometry().size()  # title bar, borders
    window.resize(available.width() - frame.width(), available.height() - frame.height())
    window.move(available.topLeft())


SAMPLE_NEXT = """\
It holds Model-1 with parts Panel (4 x 4 QUAD) and Frame (9 BEAM); "Plate" does not exist
yet. The requests the Replay answers on it: sam-agent examples. For example:
  sam-agent run --replay --workspace {path} --mode part --model Model-1 --part Plate \\
    --new-part --request "build a 60 x 100 plate meshed 6 x 10 with QUAD elements"
"""


def save_sample(target: Path) -> int:
    """Write the bundled sample workspace to ``target`` (never over an existing file)."""
    from sam_plugin.demo.examples import WORKSPACE_FILE

    if target.exists():
        print(f"sam-agent demo: --save-sample: {target} exists; give a new file name",
              file=sys.stderr)
        return 2
    if not target.parent.is_dir():
        print(f"sam-agent demo: --save-sample: no folder {target.parent}", file=sys.stderr)
        return 2
    shutil.copyfile(WORKSPACE_FILE, target)
    print(f"wrote {target}, the demo's sample workspace.")
    print(SAMPLE_NEXT.format(path=target), end="")
    return 0


def _offline_sam_problem() -> str | None:
    """Put the offline SAM on the path, or one line saying why the demo cannot."""
    from sam_plugin.errors import OfflineSamMissing
    from sam_plugin.offline_sam import host_sam_origin, use_offline_sam

    host = host_sam_origin()
    if host is not None:
        return (f"sam-agent demo: this Python has SAM's own sam module ({host}); the demo is "
                "the offline host and would shadow it: open the SAM Agent dock in SAM instead")
    try:
        use_offline_sam()
    except OfflineSamMissing as error:
        return f"sam-agent demo: {error}"
    return None


TEMPORARY_PREFIX = "sam-agent-demo-"


def _workspace_copy(explicit: Path | None, temporary: list[Path]) -> Path:
    """The workspace to open; the bundled sample is copied so Save never edits the package
    (the copy's folder is appended to ``temporary``: removed when the demo exits)."""
    if explicit is not None:
        if not explicit.is_file():
            raise FileNotFoundError(f"--workspace: no such file {explicit}")
        return explicit
    from sam_plugin.demo.examples import WORKSPACE_FILE

    folder = _temporary_folder(temporary, TEMPORARY_PREFIX)
    target = folder / "sample.sam.json"
    shutil.copyfile(WORKSPACE_FILE, target)
    print(f"sam-agent demo: the sample workspace is a temporary copy, {target}; it is removed "
          "when the demo exits (File > Save As... keeps your changes elsewhere)",
          file=sys.stderr)
    return target


def _temporary_folder(temporary: list[Path], prefix: str) -> Path:
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    temporary.append(folder)
    return folder


def _remove(temporary: list[Path]) -> None:
    """The demo's temporary folders go when it exits (each start used to leave its own)."""
    for folder in temporary:
        shutil.rmtree(folder, ignore_errors=True)


def _window_problem(offscreen: bool) -> str | None:
    """One line when Qt could not open a window here (before Qt would abort)."""
    from PySide6.QtWidgets import QApplication

    if QApplication.instance() is not None:
        return None
    from sam_plugin.ui.qt_platform import platform_problem

    return platform_problem({**os.environ, OFFSCREEN_VARIABLE: "offscreen"} if offscreen
                            else None)


OFFSCREEN_VARIABLE = "QT_QPA_PLATFORM"


def _wants_offscreen(args: argparse.Namespace) -> bool:
    """A screenshot renders offscreen unless a platform was chosen."""
    return bool(args.screenshot) and not os.environ.get(OFFSCREEN_VARIABLE)


def _initial_choice_is_replay(args: argparse.Namespace) -> bool:
    from sam_plugin.runtime.config.store import SettingsStore
    from sam_plugin.runtime.provider.choice import ProviderChooser

    if args.replay:
        return True
    try:
        return ProviderChooser(SettingsStore()).current().is_replay
    except ValueError:
        return False


def main(argv: list[str] | None = None) -> int:
    """Run the demo, leaving the process environment untouched (callable from tests)."""
    temporary: list[Path] = []
    try:
        return _main(argv, temporary)
    finally:
        _remove(temporary)


def _main(argv: list[str] | None, temporary: list[Path]) -> int:
    args = parse_args(list(sys.argv[1:] if argv is None else argv))
    if args.save_sample is not None:
        return save_sample(args.save_sample)
    if args.auto_run and not args.screenshot:
        print("sam-agent demo: --auto-run needs --screenshot", file=sys.stderr)
        return 2
    if args.edit_spec and not args.auto_run:
        print("sam-agent demo: --edit-spec needs --auto-run", file=sys.stderr)
        return 2
    if args.auto_run:
        from sam_plugin.demo.examples import example_by_id

        try:  # before any window or file: a typo must not leave a picture of nothing
            example_by_id(args.auto_run)
        except KeyError as error:
            print(f"sam-agent demo: --auto-run: {error.args[0]}", file=sys.stderr)
            return 2
    offscreen = _wants_offscreen(args)
    problem = _offline_sam_problem() or _window_problem(offscreen)
    if problem:  # the one line said, before any folder is made
        print(problem, file=sys.stderr)
        return 1
    runs: Path | None = None
    if args.screenshot and environment.runs_dir() is None:
        runs = _temporary_folder(temporary, TEMPORARY_PREFIX + "runs-")
        print(f"sam-agent demo: this screenshot's runs go to {runs}, removed when it exits "
              "(SAM_AGENT_RUNS_DIR keeps them)", file=sys.stderr)
    try:
        workspace = _workspace_copy(args.workspace, temporary)
    except FileNotFoundError as error:
        print(f"sam-agent demo: {error}", file=sys.stderr)
        return 2
    from sam_plugin.demo.replay_service import close_replay

    launch = Launch(replay=args.replay, replay_delay=args.delay, runs_dir=runs,
                    replay_by_default=True)
    if _initial_choice_is_replay(args):
        print(LIVE_PROVIDER_HELP, file=sys.stderr)
    try:
        return _run_window(args, workspace, launch, temporary=args.workspace is None,
                           offscreen=offscreen)
    finally:
        close_replay()


def _run_window(args: argparse.Namespace, workspace: Path, launch: Launch, *, temporary: bool,
                offscreen: bool = False) -> int:
    import sam_host
    from PySide6.QtWidgets import QApplication

    from sam_plugin.ui.dock import SamAgentDock
    from sam_plugin.ui.event_loop import settle_after_unload

    platform = ["-platform", "offscreen"] if offscreen else []
    app = QApplication.instance() or QApplication(sys.argv[:1] + platform)
    window = sam_host.create_window(workspace, plugin_options={"launch": launch})
    if temporary:  # File > Save asks where: the copy is removed when the demo exits
        window.workspace_path = None
    dock = window.findChild(SamAgentDock, "samAgentDock")
    fit_window(window, args.size)
    window.show()
    if not args.screenshot:
        try:
            return int(app.exec())
        finally:
            window.shutdown()
            settle_after_unload()
    code = 0
    if args.auto_run and dock is not None:
        code = _auto_run(dock, args.auto_run, edit_spec=args.edit_spec)
    window.viewport.render_now()
    app.processEvents()
    image = window.grab()
    args.screenshot.parent.mkdir(parents=True, exist_ok=True)
    if not image.save(str(args.screenshot)):
        print(f"sam-agent demo: could not write {args.screenshot}", file=sys.stderr)
        code = 1
    else:
        print(f"screenshot: {args.screenshot}")
    window.shutdown()
    window.close()
    settle_after_unload()
    return code


def _auto_run(dock: object, example_id: str, *, edit_spec: bool = False) -> int:
    from sam_plugin.demo.examples import example_by_id
    from sam_plugin.errors import AutomationTimeout
    from sam_plugin.ui.automation import run_request, submit_request

    try:
        example = example_by_id(example_id)
    except KeyError as error:
        print(f"sam-agent demo: --auto-run: {error.args[0]}", file=sys.stderr)
        return 2
    combo = dock.example_combo  # type: ignore[attr-defined]  # the SAM Agent dock
    index = next((i for i in range(combo.count())
                  if (combo.itemData(i) or {}).get("id") == example.id), 0)
    combo.setCurrentIndex(index)
    request = (combo.itemData(index) or {}).get("request", example.request)  # its language
    if edit_spec:
        return _open_spec_editor(dock, example.mode, example.model, example.part, request,
                                 submit_request)
    try:
        status = run_request(dock, example.mode, example.model, example.part,  # type: ignore[arg-type]  # the dock
                             request)
    except AutomationTimeout as error:
        print(f"sam-agent demo: {error}", file=sys.stderr)
        return 1
    print(f"auto-run {example.id}: {status}")
    result = getattr(dock.controller, "result", None)  # type: ignore[attr-defined]  # the dock
    return 0 if getattr(result, "status", "") == "verified" else 1


def _open_spec_editor(dock: Any, mode: str, model: str, part: str, request: str,
                      submit: Any) -> int:
    """The example to Review, then Edit the spec (docs/ui.md "Editing the spec")."""
    from sam_plugin.errors import AutomationTimeout

    try:
        in_review = submit(dock, mode, model, part, request)
    except AutomationTimeout as error:
        print(f"sam-agent demo: {error}", file=sys.stderr)
        return 1
    if not in_review:
        print(f"sam-agent demo: no spec to edit: {dock.status_label.text()}", file=sys.stderr)
        return 1
    dock.spec_editor.edit_button.click()
    print("auto-run: the spec editor is open")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
