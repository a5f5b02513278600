"""The pictures of docs/ui.md "Picking and the viewport", made offscreen:

- ``docs/viewport-pick.png``: elements 3-14 of the Panel picked; the request acts on them and
  the spec in Review reads "the 12 selected elements";
- ``docs/viewport-plan.png``: the same run's plan waiting, drawn in the main viewport
  (isometric: the touched elements in amber at their new place);
- ``docs/viewport-frame.png``: the Frame, which lies in the XZ plane, seen from +Y;
- ``docs/viewport-merge.png``: copy_merge's plan waiting, fitted to the Panel
  and its copy, the 5 duplicate nodes the merge deletes as red crosses, counted in the legend;
- ``docs/viewport-build.png``: the plate build's plan, drawn alone (no part yet), fitted.

    QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/viewport_screenshots.py [OUT_DIR]

A loopback provider answers the design request with the selection's spec (the bundled replay
answers only the example requests); this script puts ``stubs/`` on ``sys.path`` itself.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "stubs"))  # the offline SAM, for these pictures only
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

SPEC = {"summary": "Translate the selected elements by (0, 0, 5).",
        "steps": [{"capability": "transform", "action": "translate",
                   "scope": {"by": "labels", "labels": list(range(3, 15))},
                   "values": {"vector": [0, 0, 5]},
                   "text": "Translate the selection by 5 along Z."}]}
SIZE = (1400, 900)


def main(out: Path) -> int:
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])
    work = Path(tempfile.mkdtemp(prefix="sam-agent-shots-"))
    from sam_plugin.demo.examples import WORKSPACE_FILE
    from sam_plugin.demo.loopback import FakeProvider, StreamResponse
    from sam_plugin.demo.streams import openai_stream

    shutil.copyfile(WORKSPACE_FILE, work / "sample.sam.json")
    os.environ["SAM_AGENT_RUNS_DIR"] = str(work / "runs")
    os.environ["SAM_AGENT_SETTINGS_FILE"] = str(work / "settings.json")
    pieces = [p.encode() for p in openai_stream(content=json.dumps(SPEC))]
    provider = FakeProvider(responder=lambda request: StreamResponse(pieces))
    os.environ.update(SAM_AGENT_BASE_URL=provider.base_url, SAM_AGENT_MODEL="local",
                      SAM_AGENT_PROFILE="vllm")
    import sam_host

    from sam_plugin.ui.automation import pump_until, submit_request
    from sam_plugin.ui.dock import SamAgentDock

    window = sam_host.create_window(work / "sample.sam.json")
    window.resize(*SIZE)
    window.show()
    dock = window.findChild(SamAgentDock, "samAgentDock")
    out.mkdir(parents=True, exist_ok=True)
    try:
        dock.set_target("part", "Model-1", "Panel")
        window.viewport.set_view("PlusZ")
        window.viewport.set_selection(list(range(3, 15)))
        if not submit_request(dock, "part", "Model-1", "Panel",
                              "translate the selection by 5 along z"):
            print(f"not in Review: {dock.status_label.text()}", file=sys.stderr)
            return 1
        _shot(app, window, out / "viewport-pick.png")
        dock.confirm_button.click()
        pump_until(lambda: not dock.busy, 60, "the plan")
        window.viewport.set_view("Iso")
        _shot(app, window, out / "viewport-plan.png")
        dock.cancel_button.click()
        pump_until(lambda: not dock.busy and "Cancelled" in dock.status_label.text(), 30,
                   "the cancel")
        dock.set_target("part", "Model-1", "Frame")  # the dock shows it in the viewport
        window.view_actions["PlusY"].trigger()
        _shot(app, window, out / "viewport-frame.png")
    finally:
        window.shutdown()
        provider.close()
    for example, name, locale in (("copy_merge", "viewport-merge.png", None),
                                  ("plate", "viewport-build.png", None)):
        if _plan_shot(app, work, example, out / name, locale):
            return 1
    return 0


def _plan_shot(app: object, work: Path, example_id: str, path: Path,
               locale: str | None) -> int:
    """A bundled example's plan waiting (the Replay answers it), in ``locale``."""
    import sam_host

    from sam_plugin.demo.examples import WORKSPACE_FILE, example_by_id
    from sam_plugin.launch import Launch
    from sam_plugin.ui.automation import pump_until, submit_request
    from sam_plugin.ui.dock import SamAgentDock

    shutil.copyfile(WORKSPACE_FILE, work / "plan.sam.json")
    launch = Launch(replay=True, replay_by_default=True, runs_dir=work / "runs")
    window = sam_host.create_window(work / "plan.sam.json", locale=locale,
                                    plugin_options={"launch": launch})
    window.resize(*SIZE)
    window.show()
    dock = window.findChild(SamAgentDock, "samAgentDock")
    example = example_by_id(example_id)
    try:
        request = example.request_in("zh" if locale else "en")
        if not submit_request(dock, example.mode, example.model, example.part, request):
            print(f"not in Review: {dock.status_label.text()}", file=sys.stderr)
            return 1
        dock.confirm_button.click()
        pump_until(lambda: not dock.busy, 60, "the plan")
        _shot(app, window, path)
        dock.cancel_button.click()
        pump_until(lambda: not dock.busy, 30, "the cancel")
    finally:
        window.shutdown()
    return 0


def _shot(app: object, window: object, path: Path) -> None:
    window.viewport.render_now()  # type: ignore[attr-defined]
    app.processEvents()  # type: ignore[attr-defined]
    window.grab().save(str(path))  # type: ignore[attr-defined]
    print(f"screenshot: {path}")


if __name__ == "__main__":
    raise SystemExit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs"))
