"""The CLI without an LLM (``--replay``), the provider the dock saved, and the order of the
usage checks (issue 16)."""

from __future__ import annotations

import json
import shutil

from cli_support import base_args, run_cli

from sam_plugin.demo.examples import WORKSPACE_FILE, example_by_id
from sam_plugin.demo.streams import openai_stream
from sam_plugin.runtime.config.store import SettingsStore


def _sample(tmp_path):
    target = tmp_path / "sample.sam.json"
    shutil.copyfile(WORKSPACE_FILE, target)
    return target


def _example_args(tmp_path, example_id: str) -> list[str]:
    example = example_by_id(example_id)
    return base_args(_sample(tmp_path), tmp_path / "runs", mode=example.mode,
                     part=example.part) + ["--request", example.request]


def test_replay_runs_a_bundled_example_to_verified_without_any_provider(tmp_path, capsys):
    out = tmp_path / "out" / "done.sam.json"
    out.parent.mkdir()  # --save writes into a folder that exists (a missing one is refused)
    run = run_cli(_example_args(tmp_path, "steel_shell") + ["--replay", "--yes", "--json",
                                                             "--save", str(out)], capsys)
    assert run.code == 0, run.err
    assert "provider: Replay — the bundled recorded responses (--replay)" in run.err
    assert run.result["status"] == "verified"
    assert run.result["provider"]["name"] == "Replay"
    assert run.result["provider"]["calls"] == 2
    assert out.is_file()
    checks = {c["name"]: (c["actual"], c["ok"]) for c in run.result["checks"]}
    assert checks["material Steel E"] == ("210000", True)  # read back, not only "present"
    assert checks["section Shell-2mm thickness"] == ("2", True)


def test_the_spec_is_printed_once_at_the_prompt(tmp_path, capsys):
    run = run_cli(_example_args(tmp_path, "plate") + ["--replay"], capsys, stdin="n\n")
    assert run.code == 3
    first_line = example_by_id("plate").spec["summary"]
    assert run.err.count(first_line) == 1
    assert run.err.count("--- proposed spec") == 1


def test_the_cli_uses_the_provider_saved_by_the_dock(tmp_path, capsys, fake_provider):
    SettingsStore().save({"provider": "live", "base_url": fake_provider.base_url,
                          "model": "saved-model", "profile": "generic"}, "")
    fake_provider.enqueue_stream(openai_stream(content=""))
    run = run_cli(_example_args(tmp_path, "plate") + ["--yes"], capsys)
    assert "provider: unknown server, profile generic · saved-model (127.0.0.1:" in run.err
    assert "(saved in the dock's Settings)" in run.err
    assert fake_provider.requests[0].json["model"] == "saved-model"
    # flags win over what was saved
    fake_provider.enqueue_stream(openai_stream(content=""))
    run = run_cli(_example_args(tmp_path, "plate") + ["--yes", "--api-model", "flag-model"],
                  capsys)
    assert [r.json["model"] for r in fake_provider.requests] == ["saved-model", "flag-model"]


def test_the_first_line_names_the_server_and_the_profile_follows_it(tmp_path, capsys,
                                                                    fake_provider):
    fake_provider.get_routes["/props"] = {"build_info": "b11434-unknown",
                                          "model_path": "/m/q.gguf"}
    fake_provider.enqueue_stream(openai_stream(content=""))
    run = run_cli(_example_args(tmp_path, "plate") + [
        "--yes", "--json", "--base-url", fake_provider.base_url, "--api-model", "q"], capsys)
    first = [line for line in run.err.splitlines() if "provider:" in line][0]
    assert first.startswith("sam-agent: provider: llama.cpp b11434-unknown, profile llamacpp")
    assert run.result["server"] == {"kind": "llamacpp", "version": "b11434-unknown"}
    assert run.result["profile"] == "llamacpp"
    assert "stream_options" not in fake_provider.requests[0].json  # llamacpp's shape
    events = [json.loads(line) for line in
              (tmp_path / "runs" / run.result["run_id"] / "events.jsonl").read_text().splitlines()]
    detected = [e for e in events if e["event"] == "server_detected"]
    assert detected[0]["profile_from"] == "server"


def test_a_failed_probe_is_said_plainly(tmp_path, capsys, fake_provider):
    fake_provider.enqueue_stream(openai_stream(content=""))
    run = run_cli(_example_args(tmp_path, "plate") + [
        "--yes", "--json", "--base-url", fake_provider.base_url, "--api-model", "q"], capsys)
    assert ("sam-agent: server unknown server, profile generic (the default); the server did "
            "not say what it is; generic requests are sent") in run.err
    assert run.result["server"] == {"kind": "unknown", "version": ""}


def test_a_saved_replay_choice_is_used_and_said(tmp_path, capsys):
    SettingsStore().save({"provider": "replay"}, "")
    run = run_cli(_example_args(tmp_path, "plate") + ["--yes", "--json"], capsys)
    assert run.code == 0, run.err
    assert "(saved in the dock's Settings)" in run.err


def test_a_mistyped_workspace_without_a_provider_is_reported_as_the_workspace(
        tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("SAM_AGENT_BASE_URL", raising=False)
    run = run_cli(base_args(tmp_path / "smaple.sam.json", tmp_path / "runs")
                  + ["--request", "x"], capsys)
    assert run.code == 2
    assert run.err.splitlines()[-1] == (
        f"sam-agent: error: --workspace: no such file {tmp_path / 'smaple.sam.json'}")


def test_result_json_keeps_every_contract_field(tmp_path, capsys):
    run = run_cli(_example_args(tmp_path, "plate") + ["--replay", "--yes", "--json"], capsys)
    for key in ("run_id", "status", "phase", "module", "target", "tools", "submissions",
                "script_sha256", "before", "after", "checks", "error"):
        assert key in run.result
    assert json.loads(run.out)["spec_versions"] == 1
