"""``sam-agent run`` with the design asked in parts (``SAM_AGENT_DESIGN=parts``;
docs/architecture.md §4 "The design, asked in parts"): a step asked again is said at Review, a
category ends the run."""

from __future__ import annotations

import json

import pytest
from cli_support import base_args, new_workspace, run_cli

REQUEST = "steel E 210000 nu 0.3, a 2 thick shell Shell-2mm on all elements"


@pytest.fixture(autouse=True)
def design_in_parts(monkeypatch):
    monkeypatch.setenv("SAM_AGENT_DESIGN", "parts")


def _reply(provider_env, answer: dict) -> None:
    provider_env.enqueue_reply(json.dumps(answer, separators=(",", ":")))


def test_a_shell_section_given_a_profile_is_asked_again_and_said_at_review(
        tmp_path, capsys, provider_env):
    _reply(provider_env, {"actions": [
        {"action": "define_material", "words": "steel E 210000 nu 0.3"},
        {"action": "define_section", "words": "a 2 thick shell Shell-2mm"},
        {"action": "assign_section", "words": "on all elements"}]})
    _reply(provider_env, {"values": {"name": "Steel", "E": 210000, "nu": 0.3}})
    shell = {"name": "Shell-2mm", "kind": "shell", "material": "Steel"}
    _reply(provider_env, {"values": {**shell, "profile": {"shape": "circle", "r": 2}}})
    _reply(provider_env, {"values": {**shell, "thickness": 2}})
    _reply(provider_env, {"scope": {"by": "all"}, "values": {"section": "Shell-2mm"}})
    workspace = new_workspace(tmp_path / "w.sam.json", quads=2)
    run = run_cli(base_args(workspace, tmp_path / "runs", mode="property")
                  + ["--request", REQUEST, "--yes", "--json", "--calls", "spec"], capsys)
    assert run.code == 0, run.err
    assert run.result["status"] == "verified"
    assert ("REPAIRED: step 2 (define_section) was asked again once, because: "
            "values.profile: a shell section states thickness, never profile") in run.err
    sent = [r.json for r in provider_env.requests]
    assert len(sent) == 5 and all("tools" not in r for r in sent)


def test_a_category_ends_the_run_at_design_with_exit_1(tmp_path, capsys, provider_env):
    _reply(provider_env, {"cannot": "mesh_generation", "actions": []})
    workspace = new_workspace(tmp_path / "w.sam.json", quads=2)
    run = run_cli(base_args(workspace, tmp_path / "runs", mode="mesh")
                  + ["--request", "make the elements bigger", "--yes", "--json"], capsys)
    assert run.code == 1
    error = run.result["error"]
    assert (error["layer"], error["category"]) == ("design", "mesh_generation")
    assert error["message"].startswith("this asks for a remesh, which the Mesh mode does not "
                                       "do; no mode of the plugin does that yet.")


def test_the_requests_own_words_end_the_run_at_design_with_no_model_asked(
        tmp_path, capsys, provider_env):
    workspace = new_workspace(tmp_path / "w.sam.json", quads=2)
    run = run_cli(base_args(workspace, tmp_path / "runs", mode="mesh")
                  + ["--request", "Coarsen the mesh: every 2 x 2 block into one quad.", "--yes",
                     "--json"], capsys)
    assert run.code == 1
    error = run.result["error"]
    assert (error["layer"], error["category"]) == ("design", "mesh_generation")
    assert error["message"].startswith("the request says “Coarsen”: this asks for a remesh, "
                                       "which the Mesh mode does not do;")
    assert provider_env.requests == []
