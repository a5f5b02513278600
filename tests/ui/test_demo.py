"""``sam-agent demo``: replay through the loopback provider, scripted run, screenshot."""

from __future__ import annotations

import json
import os
from pathlib import Path

from PySide6.QtGui import QGuiApplication, QImage

from sam_plugin.demo.examples import load_examples
from sam_plugin.demo.loopback import ErrorResponse
from sam_plugin.demo.replay import ReplayResponder, unknown_request_message
from sam_plugin.ui.demo import main


def test_demo_auto_run_reaches_verified_and_writes_a_screenshot(qtbot, ui_env, tmp_path, capsys):
    shot = tmp_path / "demo.png"
    env_before = dict(os.environ)
    code = main(["--screenshot", str(shot), "--replay", "--auto-run", "plate", "--delay", "0"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "auto-run plate: Verified" in out
    assert "DeepSeek" in err and "Ollama" in err and "vLLM" in err  # how to go live
    image = QImage(str(shot))
    available = QGuiApplication.primaryScreen().availableGeometry()
    assert image.height() == available.height()  # the screen's available size, not 1500x920
    assert dict(os.environ) == env_before  # the provider variables were put back
    runs = Path(os.environ["SAM_AGENT_RUNS_DIR"])
    results = [json.loads(p.read_text()) for p in runs.glob("*/result.json")]
    assert [r["status"] for r in results] == ["verified"]


def test_the_demo_configures_the_dock_without_touching_the_environment(
        qtbot, ui_env, tmp_path, capsys, monkeypatch):
    """--replay, --delay and the screenshot's runs folder reach the dock as its launch
    configuration: while the window is up, the process environment is the one it started with."""
    from sam_plugin.ui import demo
    from sam_plugin.ui.host_adapter import instance_for

    monkeypatch.delenv("SAM_AGENT_RUNS_DIR")  # the screenshot's runs go to a temporary folder
    monkeypatch.setenv("SAM_AGENT_SETTINGS_FILE", str(tmp_path / "live.json"))
    (tmp_path / "live.json").write_text(json.dumps({"provider": "live"}))
    env_before = dict(os.environ)
    seen = {}
    original = demo._auto_run

    def spy(dock, example_id, **options):
        seen["env"] = dict(os.environ)
        seen["runs_dir"] = dock.runs_dir
        seen["choice"] = instance_for(dock.window().host).chooser.current()
        return original(dock, example_id, **options)

    monkeypatch.setattr(demo, "_auto_run", spy)
    code = main(["--screenshot", str(tmp_path / "shot.png"), "--replay", "--auto-run", "plate",
                 "--delay", "0"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "auto-run plate: Verified" in out
    assert seen["env"] == env_before == dict(os.environ)
    assert seen["runs_dir"].name.startswith("sam-agent-demo-runs-")
    assert f"this screenshot's runs go to {seen['runs_dir']}" in err
    assert (seen["choice"].kind, seen["choice"].reason) == ("replay", "--replay")  # saved: live


def test_demo_screenshots_the_spec_editor_in_review(qtbot, ui_env, tmp_path, capsys,
                                                    calls_from_spec):
    shot = tmp_path / "edit.png"
    code = main(["--screenshot", str(shot), "--replay", "--auto-run", "copy_merge",
                 "--edit-spec", "--size", "1200x960", "--delay", "0"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "auto-run: the spec editor is open" in out
    assert QImage(str(shot)).size().toTuple() == (1200, 960)
    runs = Path(os.environ["SAM_AGENT_RUNS_DIR"])
    assert list(runs.glob("*/result.json")) == []  # stopped in Review: nothing ran
    assert main(["--edit-spec"]) == 2
    assert "--edit-spec needs --auto-run" in capsys.readouterr().err


def test_demo_opens_at_the_size_asked_for(qtbot, ui_env, tmp_path, capsys):
    shot = tmp_path / "small.png"
    code = main(["--screenshot", str(shot), "--replay", "--size", "1024x640"])
    assert code == 0, capsys.readouterr().err
    image = QImage(str(shot))
    assert (image.width(), image.height()) == (1024, 640)


def test_the_demo_says_where_its_temporary_copies_are_and_removes_them(
        qtbot, ui_env, tmp_path, capsys, monkeypatch):
    """Each start left a sam-agent-demo-* folder behind (19 after 5 starts and a test run)."""
    import tempfile

    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    monkeypatch.delenv("SAM_AGENT_RUNS_DIR")
    code = main(["--screenshot", str(tmp_path / "shot.png"), "--replay", "--auto-run", "plate",
                 "--delay", "0"])
    err = capsys.readouterr().err
    assert code == 0, err
    copy = next(line for line in err.splitlines() if "temporary copy" in line)
    assert copy.startswith(f"sam-agent demo: the sample workspace is a temporary copy, {temp}")
    assert copy.endswith("sample.sam.json; it is removed when the demo exits (File > Save "
                         "As... keeps your changes elsewhere)")
    assert f"sam-agent demo: this screenshot's runs go to {temp}" in err
    assert list(temp.iterdir()) == []  # the copy and the runs are gone


def test_demo_says_what_a_window_size_looks_like(capsys):
    import pytest

    with pytest.raises(SystemExit) as stopped:
        main(["--size", "big"])
    assert stopped.value.code == 2
    assert "'big' is not a window size WIDTHxHEIGHT of at least 320x240 (e.g. 1024x640)" in \
        capsys.readouterr().err


def test_demo_rejects_auto_run_without_screenshot(capsys):
    assert main(["--auto-run"]) == 2
    assert "--auto-run needs --screenshot" in capsys.readouterr().err


def test_demo_reports_a_missing_workspace(ui_env, tmp_path, capsys):
    missing = tmp_path / "nope.sam.json"
    assert main(["--workspace", str(missing), "--screenshot", str(tmp_path / "x.png")]) == 2
    assert f"--workspace: no such file {missing}" in capsys.readouterr().err


def test_every_recorded_example_replays_to_verified(qtbot, replay, dock):
    from sam_plugin.ui.automation import run_request

    for example in load_examples():
        status = run_request(dock, example.mode, example.model, example.part, example.request,
                             timeout=30)
        assert status == "Verified", (example.id, status, dock.describe_error())


def test_replay_answers_only_the_offered_tools_and_admits_unknown_requests():
    responder = ReplayResponder()
    example = next(e for e in load_examples() if e.id == "copy_merge")
    request = {"messages": [{"role": "user", "content": f"Request:\n{example.request}"}],
               "tools": [{"type": "function", "function": {"name": "audit_part"}}]}
    body = b"".join(responder(request).chunks).decode()
    assert "audit_part" in body and "transform_part" not in body
    unknown = {"messages": [{"role": "user", "content": "paint it red"}]}
    refused = responder(unknown)
    # refused as an error, never streamed as if it were a spec the analyst could confirm
    assert isinstance(refused, ErrorResponse) and refused.status == 400
    message = json.loads(refused.body)["error"]["message"]
    assert message == unknown_request_message(load_examples())
    assert message.startswith("Replay mode (recorded responses, not a live model) has no "
                              "recorded answer for this request: it answers only the 5 bundled "
                              "example requests, word for word. Pick one under Examples")
    assert responder.answered == [("copy_merge", "tools"), ("", "design")]


def test_an_unknown_request_in_replay_fails_at_provider_without_a_spec(
        qtbot, replay, dock, workspace):
    """The reason in the status line, what to do said once below it, and nothing of the
    run before (its operations line) left on screen."""
    from plan_steps import approve_plan, to_plan

    from sam_plugin.ui.automation import run_request

    to_plan(qtbot, dock, "copy_merge")
    approve_plan(qtbot, dock)
    assert dock.route_label.text().startswith("Operations: ")
    status = run_request(dock, "part", "Model-1", "Panel", "paint the panel red", timeout=30)
    assert status == (
        "Failed — provider: the design request failed: the provider refused the request: "
        "Replay mode (recorded responses, not a live model) has no recorded answer for this "
        "request: it answers only the 5 bundled example requests, word for word.")
    assert "bad_request" in dock.status_label.toolTip()  # the raw message stays at hand
    assert dock.result_view.error_label.text() == (
        "Nothing was executed. Pick a request under Examples (the replay answers only those), "
        "or choose a live model in Settings….")
    assert dock.controller.result.status == "failed"
    assert dock.spec_view.toPlainText() == ""
    assert dock.route_label.isHidden() and dock.route_label.text() == ""
    assert not dock.confirm_button.isEnabled()


def _streamed_content(chunks: list[bytes]) -> str:
    text = []
    for line in b"".join(chunks).decode().splitlines():
        if line.startswith("data: {"):
            for choice in json.loads(line[6:]).get("choices", []):
                text.append(choice.get("delta", {}).get("content") or "")
    return "".join(text)


def test_a_platform_plugin_that_cannot_load_is_said_in_one_line(monkeypatch):
    from sam_plugin.ui.qt_platform import platform_problem

    env = {**os.environ, "QT_QPA_PLATFORM": "no-such-platform"}
    problem = platform_problem(env)
    assert problem is not None and "\n" not in problem
    assert problem.startswith("sam-agent demo: the Qt platform plugin 'no-such-platform' could "
                              "not be loaded: install the desktop libraries")
    assert "libxcb-cursor0" in problem and "QT_QPA_PLATFORM=offscreen" in problem
    assert platform_problem({**os.environ, "QT_QPA_PLATFORM": "offscreen"}) is None
    no_display = {k: v for k, v in os.environ.items()
                  if k not in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY")}
    import sys

    if sys.platform.startswith("linux"):  # the cause is the display, not Qt's libraries
        assert platform_problem(no_display) == (
            "sam-agent demo: no display to open a window on (DISPLAY and WAYLAND_DISPLAY are "
            "unset): start the demo from a desktop session (or with ssh -X), or run it "
            "without a display: QT_QPA_PLATFORM=offscreen sam-agent demo --replay --auto-run "
            "plate --size 1400x900 --screenshot demo.png")


def test_the_demo_without_a_usable_platform_exits_with_that_line(tmp_path):
    import subprocess
    import sys

    env = {**os.environ, "QT_QPA_PLATFORM": "no-such-platform",
           "SAM_AGENT_RUNS_DIR": str(tmp_path / "runs"),
           "SAM_AGENT_SETTINGS_FILE": str(tmp_path / "s.json")}
    done = subprocess.run([sys.executable, "-m", "sam_plugin.cli", "demo", "--replay"],
                          env=env, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 1
    lines = [line for line in done.stderr.splitlines() if line.startswith("sam-agent demo:")]
    assert len(lines) == 1 and "libxcb-cursor0" in lines[0], done.stderr
    assert "core dumped" not in done.stderr and "Aborted" not in done.stderr


def test_a_screenshot_without_a_platform_renders_offscreen(tmp_path):
    """No QT_QPA_PLATFORM and no display: the demo asks Qt for offscreen on its command line
    (it used to write QT_QPA_PLATFORM into its own environment)."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    shot = tmp_path / "shot.png"
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(root),
           "HOME": str(tmp_path), "SAM_AGENT_SETTINGS_FILE": str(tmp_path / "settings.json"),
           "SAM_AGENT_RUNS_DIR": str(tmp_path / "runs"), "SAM_HOST_LOCALE": "en_US"}
    done = subprocess.run([sys.executable, "-m", "sam_plugin.ui.demo", "--screenshot",
                           str(shot), "--replay", "--size", "1024x640"], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"screenshot: {shot}" in done.stdout
    assert QImage(str(shot)).size().toTuple() == (1024, 640)
