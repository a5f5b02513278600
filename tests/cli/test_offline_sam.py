"""The offline SAM is put on ``sys.path`` explicitly, and only where no host SAM is importable."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from sam_plugin import offline_sam

ROOT = Path(__file__).resolve().parents[2]


def _env(**extra: str) -> dict[str, str]:
    env = {"PATH": os.environ.get("PATH", ""), "QT_QPA_PLATFORM": "offscreen",
           "SAM_AGENT_SETTINGS_FILE": os.environ["SAM_AGENT_SETTINGS_FILE"]}
    env.update(extra)
    return env


def _python(code: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=120)


def _host_sam(folder: Path) -> Path:
    """A ``sam`` package of a pretend host, which refuses every workspace."""
    package = folder / "sam"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(
        "mdb = None\nsession = None\n"
        "def openMdb(pathName):\n    raise RuntimeError('the host SAM opened this')\n")
    return folder


def test_in_a_checkout_the_offline_sam_is_stubs() -> None:
    assert offline_sam.offline_sam_dir() == ROOT / "stubs"
    assert offline_sam.host_sam_origin() is None  # the tests' sam is the offline one


def test_nothing_is_importable_until_it_is_put_on_the_path(tmp_path: Path) -> None:
    code = (
        "import importlib.util as u, sys\n"
        "print([n for n in ('sam', 'samConstants', 'sam_host') if u.find_spec(n)])\n"
        "from sam_plugin.offline_sam import use_offline_sam\n"
        "print(use_offline_sam())\n"
        "print(use_offline_sam() == use_offline_sam(), sys.path.count(str(use_offline_sam())))\n"
        "import sam, sam_host; print(sam.__file__)\n"
    )
    done = _python(code, _env(PYTHONPATH=str(ROOT)), tmp_path)
    assert done.returncode == 0, done.stderr
    before, folder, once, sam_file = done.stdout.splitlines()
    assert before == "[]"
    assert folder == str(ROOT / "stubs") and once == "True 1"
    assert sam_file == str(ROOT / "stubs" / "sam" / "__init__.py")


def test_the_cli_uses_the_host_sam_when_there_is_one(tmp_path: Path) -> None:
    hosts = _host_sam(tmp_path / "host")
    (tmp_path / "w.sam.json").write_text("{}")
    done = subprocess.run(
        [sys.executable, "-m", "sam_plugin.cli", "run", "--workspace", "w.sam.json",
         "--mode", "part", "--model", "Model-1", "--part", "P", "--request", "x", "--replay",
         "--runs-dir", str(tmp_path / "runs")],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
        env=_env(PYTHONPATH=os.pathsep.join([str(ROOT), str(hosts)])))
    assert done.returncode == 2, done.stderr
    assert "the host SAM opened this" in done.stderr
    assert "offline SAM" not in done.stderr


def test_the_demo_refuses_to_shadow_a_host_sam(tmp_path: Path) -> None:
    hosts = _host_sam(tmp_path / "host")
    code = ("from sam_plugin.ui import demo\n"
            "raise SystemExit(demo.main(['--screenshot', 'x.png']))\n")
    done = _python(code, _env(PYTHONPATH=os.pathsep.join([str(ROOT), str(hosts)])), tmp_path)
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert "this Python has SAM's own sam module" in lines[0]
    assert str(hosts / "sam" / "__init__.py") in lines[0]
    assert not (tmp_path / "x.png").exists()


def test_without_any_offline_sam_the_cli_says_so(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setattr(offline_sam, "PACKAGED", tmp_path / "a")
    monkeypatch.setattr(offline_sam, "CHECKOUT", tmp_path / "b")
    assert offline_sam.offline_sam_dir() is None
    try:
        offline_sam.use_offline_sam()
    except offline_sam.OfflineSamMissing as error:
        message = str(error)
    assert "no offline SAM" in message and "reinstall sam-agent-plugin" in message
