"""The API key in any encoding, short keys, and keys already in the workspace
(docs/architecture.md §7 "No API key is ever written"), end to end through ``sam-agent run``
with the real Part module.
"""

from __future__ import annotations

import base64
import codecs
import hashlib
import json
import re
import stat
import unicodedata
import urllib.parse
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


def _fullwidth(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


ECHOES = {
    "base64": base64.b64encode(API_KEY.encode()).decode(),
    "url-safe base64 of a Basic header": base64.urlsafe_b64encode(
        f"user:{API_KEY}".encode()).decode(),
    "hex": API_KEY.encode().hex(),
    "%-encoding": "".join(f"%{b:02X}" for b in API_KEY.encode()),
    "zero-width spaces": "\u200b".join(API_KEY),
    "7-character runs": " ".join(API_KEY[i:i + 7] for i in range(0, len(API_KEY), 7)),
    "reversed": API_KEY[::-1],
    "fullwidth": _fullwidth(API_KEY),
}


def _decodings(text: str) -> list[str]:
    """``text`` read every way the echoes above were made (the test's own decoders, not the
    scrubber's): spacing and zero-width characters removed, NFKC, %-decoded, reversed, and
    every hex or base64 token decoded at every offset."""
    squeezed = re.sub(r"[\s\u200b-\u200f\u2060\ufeff\u00ad]", "", text)
    plain = urllib.parse.unquote(unicodedata.normalize("NFKC", squeezed))
    found = [text, squeezed, plain, plain[::-1]]
    for token in re.findall(r"[0-9a-fA-F]{16,}", plain):
        found += [bytes.fromhex(token[i:][:len(token[i:]) // 2 * 2]).decode("latin-1")
                  for i in (0, 1)]
    for token in re.findall(r"[A-Za-z0-9+/_-]{12,}", plain):
        for skip in range(4):
            piece = token[skip:]
            piece = piece[:len(piece) // 4 * 4]
            for decode in (base64.b64decode, base64.urlsafe_b64decode):
                try:
                    found.append(decode(piece).decode("latin-1"))
                except ValueError:
                    pass
    return found


def _leaks(text: str) -> bool:
    runs = {API_KEY[i:i + 8] for i in range(len(API_KEY) - 7)}
    return any(run in decoded for decoded in _decodings(text) for run in runs)


@pytest.mark.parametrize("form", ECHOES)
def test_a_key_echoed_in_an_encoding_reaches_no_file_and_no_terminal(
        tmp_path, capsys, provider_env, form):
    """On main each of these echoes was written into design.txt and spec.json and shown."""
    echo = ECHOES[form]
    assert _leaks(echo)  # the oracle reads it
    workspace = new_workspace(tmp_path / "w.sam.json")
    provider_env.enqueue_reply(answer(
        step("build", shape="QUAD", size=[60, 100], divisions=[6, 10]),
        summary=f"Build a 60 x 100 plate meshed 6 x 10 (your key, {echo}, was received)."))
    provider_env.enqueue_reply(tool_calls=[("build_part", _plate('"Plate1"'))])
    run = run_cli(_args(tmp_path, workspace), capsys)
    assert run.code == 0, run.out + run.err
    run_dir = tmp_path / "runs" / run.result["run_id"]
    kept = echo[:8] if "Basic" in form else ""  # "user:" and the key's first character
    assert f"(your key, {kept}***, was received)" in (run_dir / "design.txt").read_text()
    for name in ("design.txt", "spec.json"):
        assert not _leaks((run_dir / name).read_text(encoding="utf-8")), name
    for path in run_dir.iterdir():
        if path.suffix != ".npz":
            assert not _leaks(path.read_text("utf-8", "replace")), path.name
    assert not _leaks(run.out) and not _leaks(run.err)


MORE_ECHOES = {
    "base32": base64.b32encode(API_KEY.encode()).decode(),
    "base32 of a Basic header": base64.b32encode(f"user:{API_KEY}".encode()).decode(),
    "rot13": codecs.encode(API_KEY, "rot13"),
    "dot-separated": ".".join(API_KEY),
    "HTML entities": "".join(f"&#{ord(c)};" for c in API_KEY),
    "HTML hex entities": "".join(f"&#x{ord(c):x};" for c in API_KEY),
    "upper case": API_KEY.upper(),
    "lower case": API_KEY.lower(),
    "decimal codes": " ".join(str(ord(c)) for c in API_KEY),
    "decimal codes with commas": ", ".join(str(ord(c)) for c in API_KEY),
    "base85": base64.b85encode(API_KEY.encode()).decode(),
    "ascii85": base64.a85encode(API_KEY.encode()).decode(),
    "combining accents": "".join(c + "\u0301" for c in API_KEY),
}


def _pieces(echo: str, size: int = 10) -> set[str]:
    return {echo[i:i + size] for i in range(len(echo) - size + 1)}


@pytest.mark.parametrize("form", MORE_ECHOES)
def test_a_key_echoed_in_another_encoding_reaches_no_file_and_no_terminal(
        tmp_path, capsys, provider_env, form):
    """On main each of these echoes was written into design.txt and spec.json and shown."""
    echo = MORE_ECHOES[form]
    workspace = new_workspace(tmp_path / "w.sam.json")
    provider_env.enqueue_reply(answer(
        step("build", shape="QUAD", size=[60, 100], divisions=[6, 10]),
        summary=f"Build a 60 x 100 plate meshed 6 x 10 (your key, {echo}, was received)."))
    provider_env.enqueue_reply(tool_calls=[("build_part", _plate('"Plate1"'))])
    run = run_cli(_args(tmp_path, workspace), capsys)
    assert run.code == 0, run.out + run.err
    run_dir = tmp_path / "runs" / run.result["run_id"]
    kept = "OVZWK4R2" if "Basic" in form else ""  # "user:" in base32
    assert f"(your key, {kept}***, was received)" in (run_dir / "design.txt").read_text()
    pieces = _pieces(echo)
    for path in run_dir.iterdir():
        if path.suffix != ".npz":
            text = path.read_text("utf-8", "replace")
            assert not any(piece in text for piece in pieces), path.name
    assert not any(piece in run.out + run.err for piece in pieces)


SHAPED = "sk-proj-abcdefghijklmnop1234567890"


def test_the_key_given_as_the_model_is_refused_and_never_printed(
        tmp_path, capsys, provider_env):
    """On main ``--api-model KEY`` printed the key on stderr (``provider: ... · KEY``)."""
    workspace = new_workspace(tmp_path / "w.sam.json")
    run = run_cli(base_args(workspace, tmp_path / "runs") + [
        "--request", REQUEST, "--yes", "--api-model", API_KEY], capsys)
    assert run.code == 2
    assert run.err.splitlines()[-1] == (
        "sam-agent: error: --api-model: the value holds the API key, not a model's name; "
        "give the model's name here (the key goes in SAM_AGENT_API_KEY or the dock's "
        "Settings); nothing was sent")
    assert API_KEY not in run.out + run.err


def test_a_key_shaped_model_is_refused_and_never_printed(tmp_path, capsys, provider_env,
                                                         monkeypatch):
    """With no key configured, on main the value went to the provider as the model's name,
    was printed on stderr and was written to result.json."""
    monkeypatch.delenv("SAM_AGENT_API_KEY")
    workspace = new_workspace(tmp_path / "w.sam.json")
    run = run_cli(base_args(workspace, tmp_path / "runs") + [
        "--request", REQUEST, "--yes", "--api-model", SHAPED], capsys)
    assert run.code == 2
    assert run.err.splitlines()[-1] == (
        "sam-agent: error: --api-model: the value looks like an API key (sk-…), not a model's "
        "name; give the model's name here (the key goes in SAM_AGENT_API_KEY or the dock's "
        "Settings); nothing was sent")
    assert SHAPED[8:] not in run.out + run.err
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())


def test_a_key_shaped_value_in_any_flag_is_scrubbed_from_the_output(tmp_path, capsys,
                                                                   provider_env):
    workspace = new_workspace(tmp_path / "w.sam.json", quads=1)
    run = run_cli(base_args(workspace, tmp_path / "runs") + [
        "--request", REQUEST, "--model", SHAPED], capsys)
    assert run.code == 2
    assert SHAPED[8:] not in run.out + run.err
    assert "--model: no model '***' in" in run.err, run.err
