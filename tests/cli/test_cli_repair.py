"""Issue 13 end to end through ``sam-agent run``: the real Part module, stub SAM, loopback
fake provider. A model that gets a call wrong once, or writes it as text, still reaches a
verified change; a design answer that says nothing is never offered as a spec."""

from __future__ import annotations

import json

from cli_support import base_args, new_workspace, run_cli, saved_counts

from sam_plugin.runtime.events import read_events
from sam_plugin.runtime.store.journal import SubmissionJournal
from tests.support.specs import answer, step

NODES = [
    {"id": "n1", "coordinates": [0, 0, 0]},
    {"id": "n2", "coordinates": [1, 0, 0]},
    {"id": "n3", "coordinates": [1, 1, 0]},
    {"id": "n4", "coordinates": [0, 1, 0]},
]
THREE = {"nodes": NODES[:3], "elements": [{"id": "E1", "shape": "QUAD",
                                           "node_ids": ["n1", "n2", "n3"]}]}
FOUR = {"nodes": NODES, "elements": [{"id": "E1", "shape": "QUAD",
                                      "node_ids": ["n1", "n2", "n3", "n4"]}]}
SPEC = answer(step("build", shape="QUAD", nodes=4, elements=1),
              summary="Build one unit QUAD E1 from four nodes at the unit square corners.")


def args_for(tmp_path, workspace, *extra: str) -> list[str]:
    return base_args(workspace, tmp_path / "runs") + ["--yes", "--json", "--request",
                                                      "one unit quad", *extra]


def events_of(tmp_path, result) -> list[dict]:
    return read_events(tmp_path / "runs" / result["run_id"] / "events.jsonl")


def test_a_quad_with_three_nodes_is_repaired_and_verified_with_one_submission(
    tmp_path, capsys, provider_env
):
    workspace = new_workspace(tmp_path / "w.sam.json")
    provider_env.enqueue_reply(SPEC)
    provider_env.enqueue_reply(tool_calls=[("build_part", json.dumps(THREE))])
    provider_env.enqueue_reply(tool_calls=[("build_part", json.dumps(FOUR))])
    out = tmp_path / "out.sam.json"
    run = run_cli(args_for(tmp_path, workspace, "--save", str(out)), capsys)
    assert run.code == 0, run.out + run.err
    result = run.result
    assert result["status"] == "verified" and result["repairs"] == 1
    assert result["submissions"] == 1 and saved_counts(out) == (4, 1)
    assert SubmissionJournal(tmp_path / "runs" / "submissions.jsonl").state_of(
        result["run_id"]) == "executed"
    [repair] = [e for e in events_of(tmp_path, result) if e["event"] == "repair_requested"]
    assert repair["layer"] == "compile" and repair["tool"] == "build_part"
    assert "E1: QUAD needs 4 distinct nodes, got 3" in repair["diagnostic"]
    # the repair request carried the diagnostic and the rejected call as the model sent it
    repair_request = provider_env.requests[2].json
    text = repair_request["messages"][-1]["content"]
    assert "E1: QUAD needs 4 distinct nodes, got 3" in text and '"n3"]' in text
    assert [t["function"]["name"] for t in repair_request["tools"]] == ["build_part"]
    assert ("Repair 1/2: build_part — elements[0].node_ids: E1: QUAD needs 4 distinct nodes, "
            "got 3") in run.err


def test_three_bad_answers_with_two_repairs_end_in_review_with_the_third_diagnostic(
    tmp_path, capsys, provider_env
):
    workspace = new_workspace(tmp_path / "w.sam.json")
    provider_env.enqueue_reply(SPEC)
    provider_env.enqueue_reply(tool_calls=[("build_part", json.dumps(THREE))])
    provider_env.enqueue_reply(content="I think the quad is fine as it is.")
    bad_shape = {**FOUR, "elements": [{**FOUR["elements"][0], "shape": "HEX"}]}
    provider_env.enqueue_reply(tool_calls=[("build_part", json.dumps(bad_shape))])
    out = tmp_path / "out.sam.json"
    run = run_cli(args_for(tmp_path, workspace, "--save", str(out), "--repairs", "2"), capsys)
    assert run.code == 3, run.out + run.err
    result = run.result
    assert result["status"] == "rejected" and result["repairs"] == 2
    assert result["submissions"] == 0 and not out.exists()
    assert result["error"]["layer"] == "compile"
    assert "HEX" in result["error"]["message"] and "QUAD" in result["error"]["message"]
    assert provider_env.pending == 0 and len(provider_env.requests) == 4
    run_dir = tmp_path / "runs" / result["run_id"]
    assert not (run_dir / "generated_script.py").exists()


def test_a_call_written_as_a_fenced_json_block_reaches_verified_on_the_llamacpp_profile(
    tmp_path, capsys, provider_env, monkeypatch
):
    monkeypatch.setenv("SAM_AGENT_PROFILE", "llamacpp")
    workspace = new_workspace(tmp_path / "w.sam.json")
    provider_env.enqueue_reply(SPEC, style="llamacpp")
    text = ("```json\r\n"
            + json.dumps({"name": "build_part", "arguments": FOUR}, indent=2).replace("\n", "\r\n")
            + "\r\n```\r\n")
    provider_env.enqueue_reply(text, style="llamacpp", fragment_size=3)
    run = run_cli(args_for(tmp_path, workspace), capsys)
    assert run.code == 0, run.out + run.err
    result = run.result
    assert result["status"] == "verified" and result["repairs"] == 0
    stored = json.loads(
        (tmp_path / "runs" / result["run_id"] / "tool_calls.json").read_text())
    # the llamacpp profile holds the round to the call: the fenced answer is its content
    assert [(c["tool"], c["source"]) for c in stored] == [("build_part", "content")]


def test_repairs_zero_and_text_calls_off_give_the_named_rejection(tmp_path, capsys, provider_env):
    workspace = new_workspace(tmp_path / "w.sam.json")
    provider_env.enqueue_reply(SPEC)  # profile generic: text calls off
    provider_env.enqueue_reply(json.dumps({"name": "build_part", "arguments": FOUR}))
    run = run_cli(args_for(tmp_path, workspace, "--repairs", "0"), capsys)
    assert run.code == 3, run.out + run.err
    error = run.result["error"]
    assert error["layer"] == "tool_call"
    assert "wrote its call (build_part) as text" in error["message"]
    assert "text_tool_calls" in error["message"]


def test_a_bad_repairs_value_is_a_usage_error(tmp_path, capsys, provider_env):
    workspace = new_workspace(tmp_path / "w.sam.json")
    run = run_cli(args_for(tmp_path, workspace, "--repairs", "11"), capsys)
    assert run.code == 2 and "--repairs" in run.err and "0 to 10" in run.err
    assert provider_env.requests == []


def test_a_design_answer_with_only_its_capability_line_is_never_offered(
    tmp_path, capsys, provider_env
):
    workspace = new_workspace(tmp_path / "w.sam.json")
    provider_env.enqueue_reply("**Planned Part capabilities: build**")
    provider_env.enqueue_reply("Planned Part capabilities: build")  # the one repair round
    run = run_cli(base_args(workspace, tmp_path / "runs")
                  + ["--json", "--request", "a plate"], capsys, stdin="y\n")
    assert run.code == 1, run.out + run.err
    error = run.result["error"]
    assert error["layer"] == "design"
    assert "more capable model" in error["message"] and "more specific" in error["message"]
    assert "Confirm" not in run.err and len(provider_env.requests) == 2
    assert "tools" not in provider_env.requests[1].json  # the repair is a design request
