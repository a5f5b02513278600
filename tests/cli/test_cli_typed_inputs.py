"""What a person types fails closed in one line (docs/architecture.md §6 "Usage errors"): a
``--spec`` file is read by the strict reader MCP's arguments meet (nesting at most 64 levels,
no lone surrogate, no key twice) and a refusal object is no spec; the size error gives the
file's real size; a base URL's port is checked wherever a base URL is taken; a broken
``result.json`` is one line. On main a ``{"refuse": ...}`` spec failed the run with an internal
error, a lone ``\\ud800`` failed it at observation with a UnicodeEncodeError, 9,000 levels of
nesting and a port of 99999 raised tracebacks, and an 80 KB spec was said to be 65,537 bytes."""

from __future__ import annotations

import json

import pytest
from cli_support import base_args, new_workspace, run_cli

REFUSAL = ('holds {"refuse": ...}, how a model declines a request, not a spec; give the spec '
           'IR, one JSON object {"summary": ..., "steps": [...]}')


def _spec_run(tmp_path, capsys, monkeypatch, text: str, *, stdin: bool = False):
    monkeypatch.setenv("SAM_AGENT_CALLS", "spec")
    spec_file = tmp_path / "spec.json"
    spec_file.write_text(text, encoding="utf-8")
    workspace = new_workspace(tmp_path / "w.sam.json", quads=2)
    argv = base_args(workspace, tmp_path / "runs") + [
        "--spec", "-" if stdin else str(spec_file), "--yes"]
    run = run_cli(argv, capsys, stdin=text if stdin else "")
    return run, spec_file


@pytest.mark.parametrize("text,words", [
    ('{"refuse": "no"}', REFUSAL),
    ('{"summary": "\\ud800", "steps": []}',
     "summary holds a lone surrogate (\\ud800), which is no character; write the text as "
     "UTF-8"),
    ('{"summary": "x", "steps": [{"text": "\\udc00 y"}]}',
     "steps[0].text holds a lone surrogate (\\udc00), which is no character; write the text "
     "as UTF-8"),
    ("[" * 9000 + "]" * 9000, "nested deeper than 64 levels; nothing was read"),
    ('{"a": ' * 65 + "1" + "}" * 65, "nested deeper than 64 levels; nothing was read"),
    ('{"summary": "x", "summary": "y", "steps": []}',
     "the key 'summary' appears twice in one object; each key may appear once (send the "
     "object again with one value for it)"),
])
def test_a_spec_file_the_strict_reader_refuses_is_one_usage_line(
        tmp_path, capsys, monkeypatch, text, words):
    run, spec_file = _spec_run(tmp_path, capsys, monkeypatch, text)
    assert run.code == 2, run.out + run.err
    joiner = " " if words == REFUSAL else ": "
    assert run.err.splitlines()[-1] == f"sam-agent: error: --spec: {spec_file}{joiner}{words}"
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())


def test_a_refusal_on_stdin_is_one_usage_line(tmp_path, capsys, monkeypatch):
    run, _ = _spec_run(tmp_path, capsys, monkeypatch, '{"refuse": "no"}', stdin=True)
    assert run.code == 2
    assert run.err.splitlines()[-1] == f"sam-agent: error: --spec: standard input {REFUSAL}"


def test_the_spec_size_error_gives_the_real_size(tmp_path, capsys, monkeypatch):
    text = '{"summary": "' + "é" * 40000 + '", "steps": []}'
    run, spec_file = _spec_run(tmp_path, capsys, monkeypatch, text)
    assert run.code == 2
    assert run.err.splitlines()[-1] == (
        f"sam-agent: error: --spec: {spec_file} is 80,028 bytes; a request may have at most "
        "65,536 bytes (64 KB): describe the change in words and keep the data in the "
        "workspace")
    run, _ = _spec_run(tmp_path, capsys, monkeypatch, text, stdin=True)
    assert run.err.splitlines()[-1] == (
        "sam-agent: error: --spec: standard input is 80,028 bytes; a request may have at most "
        "65,536 bytes (64 KB): describe the change in words and keep the data in the "
        "workspace")


PORT = ("provider setting base_url (--base-url or SAM_AGENT_BASE_URL): "
        "'http://127.0.0.1:99999/v1' has the port 99999; a port is a whole number from 1 to "
        "65535")


@pytest.mark.parametrize("where", ["flag", "env", "saved"])
def test_a_base_url_port_out_of_range_is_one_line(tmp_path, capsys, monkeypatch, where):
    url = "http://127.0.0.1:99999/v1"
    monkeypatch.setenv("SAM_AGENT_MODEL", "m")
    monkeypatch.delenv("SAM_AGENT_BASE_URL", raising=False)
    extra: list[str] = []
    if where == "flag":
        extra = ["--base-url", url]
    elif where == "env":
        monkeypatch.setenv("SAM_AGENT_BASE_URL", url)
    else:
        settings = tmp_path / "settings.json"
        settings.write_text(json.dumps({"base_url": url, "model": "m"}))
        monkeypatch.setenv("SAM_AGENT_SETTINGS_FILE", str(settings))
    workspace = new_workspace(tmp_path / "w.sam.json", quads=2)
    run = run_cli(base_args(workspace, tmp_path / "runs") + [
        "--request", "move it by 5", "--yes", *extra], capsys)
    assert run.code == 2, run.out + run.err
    assert run.err.splitlines()[-1] == f"sam-agent: error: {PORT}"


TRANSLATE = json.dumps({"summary": "Lift the plate by 5.", "steps": [
    {"capability": "transform", "action": "translate", "scope": {"by": "all"},
     "values": {"vector": [0, 0, 5]}, "text": ""}]})


def _verified(tmp_path, capsys, monkeypatch):
    """A verified run from a given spec, saved: (the saved workspace, the run's directory)."""
    monkeypatch.setenv("SAM_AGENT_CALLS", "spec")
    spec_file = tmp_path / "spec.json"
    spec_file.write_text(TRANSLATE)
    workspace = new_workspace(tmp_path / "w.sam.json", quads=2)
    saved = tmp_path / "saved.sam.json"
    run = run_cli(base_args(workspace, tmp_path / "runs") + [
        "--spec", str(spec_file), "--yes", "--json", "--save", str(saved)], capsys)
    assert run.code == 0, run.err
    return saved, tmp_path / "runs" / run.result["run_id"]


def test_a_truncated_result_json_is_one_line_wherever_it_is_read(tmp_path, capsys,
                                                                 monkeypatch):
    """On main ``rerun`` printed pydantic's multi-line validation error."""
    saved, folder = _verified(tmp_path, capsys, monkeypatch)
    result = folder / "result.json"
    result.write_text(result.read_text()[:200])
    run_id, runs = folder.name, str(tmp_path / "runs")
    broken = ("result.json cannot be read (it is not a run's result: invalid JSON, EOF "
              "while parsing a value at line 11 column 0)")
    rerun = run_cli(["rerun", run_id, "--part", "Plate", "--workspace", str(saved),
                     "--runs-dir", runs], capsys)
    assert rerun.code == 2
    assert rerun.err.splitlines() == [f"sam-agent: error: run {run_id}: {broken}"]
    undo = run_cli(["undo", run_id, "--workspace", str(saved), "--save",
                    str(tmp_path / "undone.sam.json"), "--runs-dir", runs], capsys)
    assert undo.code != 0
    assert undo.err.splitlines()[-1] == (
        f"sam-agent: undo refused: run {run_id} has no readable result.json in {runs} (it is "
        "not a run's result: invalid JSON, EOF while parsing a value at line 11 column 0)")
