"""The API key in any encoding, short keys, and keys already in the workspace
(docs/architecture.md §7 "No API key is ever written"), end to end through ``sam-agent run``
with the real Part module.
"""

from __future__ import annotations

import hashlib
import json
import stat
from pathlib import Path

import pytest
from cli_support import API_KEY, base_args, new_workspace, run_cli

from sam_plugin.runtime.store.scrubber import Scrubber
from tests.support.specs import answer, step

SPEC = answer(step("build", shape="QUAD", size=[60, 100], divisions=[6, 10]),
              summary="Build a 60 x 100 plate, one QUAD patch meshed 6 x 10, with an element set.")
REQUEST = "build a 60 x 100 plate meshed 6 x 10 with QUAD elements in an element set"


def _plate(set_name_json: str) -> str:
    return ('{"patches": [{"id": "P1", "shape": "QUAD", "divisions": [6, 10], "corners": '
            '[[0, 0, 0], [60, 0, 0], [60, 100, 0], [0, 100, 0]]}], "element_sets": '
            f'[{{"name": {set_name_json}, "element_ids": ["P1"]}}]}}')


def _escaped(text: str) -> str:
    return '"' + "".join(f"\\u{ord(c):04x}" for c in text) + '"'


def _args(tmp_path: Path, workspace: Path, *extra: str) -> list[str]:
    return base_args(workspace, tmp_path / "runs") + ["--request", REQUEST, "--yes", "--json",
                                                      *extra]


def test_a_set_name_of_escaped_key_characters_is_refused(tmp_path, capsys, provider_env):
    """Every character \\u-escaped: the raw text holds no run of the key, the value does."""
    workspace = new_workspace(tmp_path / "w.sam.json")
    provider_env.enqueue_reply(SPEC)
    provider_env.enqueue_reply(tool_calls=[("build_part", _plate(_escaped(API_KEY)))])
    out = tmp_path / "out.sam.json"
    run = run_cli(_args(tmp_path, workspace, "--repairs", "0", "--save", str(out)), capsys)
    assert run.code == 3, run.out + run.err
    assert "arguments contain the API key (or part of it); the call is refused" in (
        run.result["error"]["message"])
    assert not out.exists()
    scrubber = Scrubber(API_KEY)
    for path in tmp_path.rglob("*"):
        if path.is_file():
            assert not scrubber.contains(path.read_text("utf-8", "replace")), path


def test_the_script_file_is_the_executed_bytes_and_the_run_dir_is_private(
        tmp_path, capsys, provider_env):
    workspace = new_workspace(tmp_path / "w.sam.json")
    provider_env.enqueue_reply(SPEC)
    provider_env.enqueue_reply(tool_calls=[("build_part", _plate('"Plate1"'))])
    run = run_cli(_args(tmp_path, workspace), capsys)
    assert run.code == 0, run.out + run.err
    run_dir = tmp_path / "runs" / run.result["run_id"]
    plan = json.loads((run_dir / "plan.json").read_text())
    script = (run_dir / "generated_script.py").read_bytes()
    assert hashlib.sha256(script).hexdigest() == plan["script_sha256"] == \
        run.result["script_sha256"]
    assert stat.S_IMODE(run_dir.stat().st_mode) == 0o700
    for path in run_dir.iterdir():
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path.name


@pytest.fixture
def short_key(provider_env, monkeypatch):
    def use(key: str) -> None:
        monkeypatch.setenv("SAM_AGENT_API_KEY", key)
    return use


def test_key_1_leaves_valid_json_refuses_nothing_and_warns_once(
        tmp_path, capsys, provider_env, short_key):
    """With key "1" result.json read ``"completion_tokens": ***00`` (the CLI then ended in a
    JSONDecodeError), and every call holding the digit 1 was refused as holding the key."""
    short_key("1")
    workspace = new_workspace(tmp_path / "w.sam.json")
    provider_env.enqueue_reply(SPEC)  # usage 120 + 48 tokens a reply: digits 1 in 120
    provider_env.enqueue_reply(tool_calls=[("build_part", _plate('"S1"'))])
    run = run_cli(_args(tmp_path, workspace), capsys)
    assert run.code == 0, run.out + run.err
    result = run.result
    assert result["status"] == "verified"
    run_dir = tmp_path / "runs" / result["run_id"]
    on_disk = json.loads((run_dir / "result.json").read_text())
    assert on_disk["provider"]["prompt_tokens"] == 240
    plan = json.loads((run_dir / "plan.json").read_text())
    script = (run_dir / "generated_script.py").read_bytes()  # was a scrubbed copy: ***s for 1s
    assert hashlib.sha256(script).hexdigest() == plan["script_sha256"]
    assert "***" not in "".join(p.read_text("utf-8", "replace") for p in run_dir.iterdir()
                                if p.suffix in (".json", ".txt", ".py", ".jsonl"))
    warnings = [line for line in run.err.splitlines() if "under 8 characters" in line]
    assert warnings == ["sam-agent: warning: the API key is under 8 characters, too short to "
                        "tell from other text: it is sent only to the provider and written to "
                        "no file, but no output is rewritten to hide it"]


def test_key_x_rewrites_no_word(tmp_path, capsys, provider_env, short_key):
    """With key ``x`` the output read "e***ecute"."""
    short_key("x")
    workspace = new_workspace(tmp_path / "w.sam.json")
    provider_env.enqueue_reply(SPEC)
    provider_env.enqueue_reply(tool_calls=[("build_part", _plate('"Sx"'))])
    run = run_cli(base_args(workspace, tmp_path / "runs") + ["--request", REQUEST, "--yes"],
                  capsys)
    assert run.code == 0, run.out + run.err
    assert "***" not in run.out
    assert "xecut" in run.out  # "execute"/"executed" is printed whole


def test_a_key_run_in_a_workspace_set_name_is_scrubbed_from_what_is_read_back(
        tmp_path, capsys, provider_env):
    """The host-side ``part_audit.json`` (and the observation) held the set name as is."""
    import sam

    workspace = new_workspace(tmp_path / "w.sam.json", quads=2)
    part = sam.mdb.models["Model-1"].parts["Plate"]
    part.Set(name=f"left-{API_KEY[2:12]}", elements=part.elements[:1])
    sam.mdb.saveAs(str(workspace))
    provider_env.enqueue_reply(answer(step("audit", checks=["counts"]),
                                      summary="Audit the part: counts."))
    provider_env.enqueue_reply(tool_calls=[("audit_part", '{"checks": ["counts"]}')])
    run = run_cli(base_args(workspace, tmp_path / "runs") + [
        "--request", "audit the part", "--yes", "--json"], capsys)
    assert run.code == 0, run.out + run.err
    run_dir = tmp_path / "runs" / run.result["run_id"]
    audit = json.loads((run_dir / "part_audit.json").read_text())
    scrubber = Scrubber(API_KEY)
    for path in run_dir.iterdir():
        if path.suffix != ".npz":  # the snapshot keeps the analyst's data exactly
            assert not scrubber.contains(path.read_text("utf-8", "replace")), path.name
    assert "left-***" in json.dumps(audit)
    assert stat.S_IMODE((run_dir / "part_audit.json").stat().st_mode) == 0o600
