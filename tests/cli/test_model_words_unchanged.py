"""Units are for people (issue 36): what a model is sent (the design request's prompt,
observation and examples; the collection round that states the confirmed spec) is, byte for
byte, what it was before the words showed units: a local model recording is frozen on it.

``tests/fixtures/model_words/steel_shell.json`` holds the messages of this run as the code
before units sent them."""

from __future__ import annotations

import json
from pathlib import Path

from cli_support import base_args, new_workspace, run_cli

from tests.support.specs import ALL, answer, step

FROZEN = Path(__file__).resolve().parents[1] / "fixtures" / "model_words" / "steel_shell.json"


def _script(provider_env) -> None:
    provider_env.enqueue_reply(answer(
        step("define_material", mode="property", name="Steel", E=210000, nu=0.3,
             density=7.85e-9),
        step("define_section", mode="property", name="Shell-2mm", kind="shell",
             material="Steel", thickness=2),
        step("assign_section", ALL, mode="property", section="Shell-2mm"),
        summary="Steel and a 2 mm shell section on all elements.",
        expected={"nodes": 8, "elements": 2, "selected": 2}))
    define = {"materials": [{"name": "Steel", "youngs_modulus": 210000, "poisson_ratio": 0.3,
                             "density": 7.85e-9}],
              "sections": [{"name": "Shell-2mm", "kind": "shell", "material": "Steel",
                            "thickness": 2}]}
    assign = {"assignments": [{"section": "Shell-2mm", "selection": {"by": "all"}}]}
    provider_env.enqueue_reply(tool_calls=[("define_property", json.dumps(define)),
                                           ("assign_property", json.dumps(assign))])


def _messages(provider_env) -> list[list[dict[str, object]]]:
    return [request.json["messages"] for request in provider_env.requests]


def run_steel_shell(tmp_path, capsys, provider_env):
    _script(provider_env)
    workspace = new_workspace(tmp_path / "w.sam.json", quads=2)
    args = base_args(workspace, tmp_path / "runs", mode="property") + [
        "--request", "steel E 210000 nu 0.3 density 7.85e-9, a 2 thick shell Shell-2mm on "
        # the whole spec's request, whose shape this checks (in parts: test_design_parts.py)
        "all elements", "--yes", "--design", "whole"]
    return run_cli(args, capsys)


def test_the_model_is_sent_the_words_it_was_sent_before_units(tmp_path, capsys, provider_env):
    run = run_steel_shell(tmp_path, capsys, provider_env)
    assert run.code == 0, run.out + run.err
    sent = _messages(provider_env)
    assert len(sent) == 2  # the design request, then the collection round
    assert sent == json.loads(FROZEN.read_text(encoding="utf-8"))
    collected = sent[1][-1]["content"]  # the confirmed spec, as the collection round states it
    assert "E = 210000, nu = 0.3, density 7.85e-09 — define" in collected
    assert "Expected results: 8 nodes, 2 elements; selected: 2" in collected
    assert "t/mm³" not in json.dumps(sent, ensure_ascii=False)
    # the person reads the same spec with its units
    assert "1. define the material Steel with E = 210000 MPa, nu = 0.3, density 7.85e-09 " \
           "t/mm³ — define" in run.err
    assert "2. define the shell section Shell-2mm of material Steel, thickness 2 mm" in run.err
    assert "Expected results: 8 nodes, 2 elements; 2 elements in the steps' scope" in run.err
