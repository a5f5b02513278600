"""The API key is in no file and on no terminal stream, whatever the server sends (issue 15).

"The key" here means any run of eight or more of its characters, literal or hidden behind JSON
escapes: ``Scrubber.bytes`` finds both, so "nothing left to scrub" is the check.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from cli_support import API_KEY, StubQuadModule, base_args, new_workspace, run_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sam_plugin.compilers import registry
from sam_plugin.demo.loopback import FakeProvider
from sam_plugin.demo.streams import openai_stream, rechunk
from sam_plugin.runtime.store.scrubber import Scrubber
from tests.support.fake_vocabulary import fake_spec, fake_step

SCRUBBER = Scrubber(API_KEY)
FIRST_LINE = "Add two unit QUADs at z=5 and audit."
# key characters that may be \u-escaped anywhere in the JSON text of an event without
# breaking it (not in literals like null/false, numbers or escapes like \n)
ESCAPABLE = "kciSECRT-"


@pytest.fixture
def stub_module(monkeypatch):
    module = StubQuadModule()
    monkeypatch.setattr(registry, "get_module", lambda mode: module)
    return module


def assert_keyless(data: bytes | str, where: object) -> None:
    raw = data.encode("utf-8") if isinstance(data, str) else data
    assert SCRUBBER.bytes(raw) == raw, f"a run of the key in {where}"


def assert_no_file_holds_the_key(*roots: Path) -> None:
    for root in roots:
        for path in root.rglob("*"):
            if path.is_file():
                assert_keyless(path.read_bytes(), path)


def escaped(piece: str, chars: str) -> str:
    """``data: {...}`` with every occurrence of ``chars`` in the JSON written as \\u00XX."""
    head, _, body = piece.partition("data: ")
    if body.startswith("[DONE]"):
        return piece
    for char in chars:
        body = body.replace(char, f"\\u{ord(char):04x}")
    return f"{head}data: {body}"


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    offset=st.integers(min_value=0, max_value=len(FIRST_LINE)),
    fragment_size=st.integers(min_value=1, max_value=24),
    http_chunk=st.integers(min_value=1, max_value=97),
    escapes=st.text(alphabet=ESCAPABLE, max_size=3),
    echo=st.sampled_from(["whole", "half", "json"]),
)
def test_a_key_echoed_in_the_spec_is_in_no_file_and_no_stream(
    capsys, monkeypatch, provider_env, stub_module, offset, fragment_size, http_chunk, escapes,
    echo,
):
    key = {"whole": API_KEY, "half": API_KEY[:9], "json": json.dumps(API_KEY)}[echo]
    spec = fake_spec(fake_step("build", text="b"), fake_step("audit", text="a"),
                     summary=f"{FIRST_LINE[:offset]} {key} {FIRST_LINE[offset:]}")
    design = [escaped(p, escapes) for p in openai_stream(content=spec,
                                                         fragment_size=fragment_size)]
    with FakeProvider() as fake, tempfile.TemporaryDirectory() as scratch:
        monkeypatch.setenv("SAM_AGENT_BASE_URL", fake.base_url)
        fake.enqueue_stream(rechunk(design, http_chunk))
        fake.enqueue_reply(tool_calls=[("build_part", '{"quads": 2}'), ("audit_part", "{}")])
        root = Path(scratch)
        workspace = new_workspace(root / "w.sam.json")
        out = root / "out.sam.json"
        args = base_args(workspace, root / "runs") + [
            "--request", "add two quads", "--yes", "--json", "--save", str(out)]
        run = run_cli(args, capsys)
        assert run.code == 0, run.out
        assert run.result["status"] == "verified"
        assert "***" in (root / "runs" / run.result["run_id"] / "design.txt").read_text()
        assert_keyless(run.out, "stdout")
        assert_keyless(run.err, "stderr")
        assert_no_file_holds_the_key(root)


def test_a_repair_after_a_call_holding_the_key_never_sends_the_call_back(
    tmp_path, capsys, provider_env, stub_module
):
    """Issue 13: the repair round names the problem but does not echo the refused call."""
    workspace = new_workspace(tmp_path / "w.sam.json")
    provider_env.enqueue_reply(fake_spec("build", "audit", summary=FIRST_LINE))
    provider_env.enqueue_reply(tool_calls=[
        ("build_part", json.dumps({"quads": 2, "element_set": API_KEY[3:]})),
        ("audit_part", "{}"),
    ])
    provider_env.enqueue_reply(tool_calls=[("build_part", '{"quads": 2}'), ("audit_part", "{}")])
    args = base_args(workspace, tmp_path / "runs")
    run = run_cli(args + ["--request", "q", "--yes", "--json"], capsys)
    assert run.code == 0, run.err
    assert run.result["repairs"] == 1
    repair_request = provider_env.requests[2].body
    assert b"arguments contain the API key" in repair_request
    assert_keyless(repair_request, "the repair request")
    assert_no_file_holds_the_key(tmp_path)


def test_a_tool_call_holding_the_key_is_refused_and_nothing_of_it_written(
    tmp_path, capsys, provider_env, stub_module
):
    workspace = new_workspace(tmp_path / "w.sam.json")
    provider_env.enqueue_reply(fake_spec("build", "audit", summary=FIRST_LINE))
    provider_env.enqueue_reply(tool_calls=[
        ("build_part", json.dumps({"quads": 2, "element_set": API_KEY[3:]})),
        ("audit_part", "{}"),
    ])
    out = tmp_path / "out.sam.json"
    args = base_args(workspace, tmp_path / "runs") + ["--repairs", "0"]  # see test_cli_repair
    run = run_cli(args + ["--request", "q", "--yes", "--json", "--save", str(out)], capsys)
    assert run.code == 3, run.err
    result = run.result
    assert result["status"] == "rejected" and result["submissions"] == 0
    assert result["error"]["layer"] == "tool_call"
    assert "arguments contain the API key (or part of it); the call is refused" in (
        result["error"]["message"])
    run_dir = tmp_path / "runs" / result["run_id"]
    for never in ("tool_calls.json", "normalized_calls.json", "generated_script.py"):
        assert not (run_dir / never).exists()
    assert not out.exists()
    assert_keyless(run.out, "stdout")
    assert_keyless(run.err, "stderr")
    assert_no_file_holds_the_key(tmp_path)


def test_a_key_split_over_two_fields_of_an_error_body_leaks_no_half(
    tmp_path, capsys, provider_env, stub_module
):
    workspace = new_workspace(tmp_path / "w.sam.json")
    provider_env.enqueue_error(401, {"error": {"message": f"invalid key {API_KEY[:10]}",
                                               "param": API_KEY[10:]}})
    run = run_cli(base_args(workspace, tmp_path / "runs") + ["--request", "q", "--yes"], capsys)
    assert run.code == 1, run.err
    assert "auth: invalid key *** (HTTP 401)" in run.out
    assert_keyless(run.out, "stdout")
    assert_keyless(run.err, "stderr")
    assert_no_file_holds_the_key(tmp_path)
