"""How the spec is asked is a named protocol (docs/architecture.md §4 "The design, asked in
parts"): ``parts`` for live runs, ``whole`` as every recording before it; a cassette set whose
``meta.json`` names none replays as ``whole``, so it asks what it recorded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sam_plugin.evaluation.cassette import CassetteMeta, load_meta, save_meta
from sam_plugin.evaluation.runner import run_policy
from sam_plugin.runtime.config.env import EnvironmentValueError
from sam_plugin.runtime.config.policy import RunPolicy

REPO = Path(__file__).resolve().parents[2]


def test_a_recording_without_the_key_replays_the_whole_spec(tmp_path):
    (tmp_path / "meta.json").write_text(json.dumps(
        {"api_model": "m", "profile": "llamacpp", "temperature": 0.1}), encoding="utf-8")
    assert load_meta(tmp_path).design == "whole"
    for meta in sorted((REPO / "eval" / "cassettes").glob("*/meta.json")):
        assert load_meta(meta.parent).design == "whole", meta  # recorded before the parts


def test_a_recording_keeps_the_protocol_it_was_made_with(tmp_path):
    save_meta(tmp_path, CassetteMeta(api_model="m", profile="llamacpp", temperature=0.1,
                                     design="parts"))
    assert load_meta(tmp_path).design == "parts"
    assert run_policy(None, None, "whole").design == "whole"


def test_live_runs_ask_the_whole_spec_unless_told(monkeypatch):
    """``whole`` stays the default until ``parts`` is measured not to lower either suite (the
    0.5B answered every first question of ``parts`` with a refusal: docs/models.md)."""
    monkeypatch.delenv("SAM_AGENT_DESIGN", raising=False)
    assert RunPolicy().design == "whole" and run_policy(None).design == "whole"
    assert RunPolicy.from_saved({"design": "parts"}).design == "parts"
    monkeypatch.setenv("SAM_AGENT_DESIGN", "parts")
    assert RunPolicy().design == "parts"
    monkeypatch.setenv("SAM_AGENT_DESIGN", "whole")
    assert RunPolicy().design == "whole"
    assert RunPolicy.from_saved({"design": "parts"}).design == "whole"  # the variable wins
    monkeypatch.setenv("SAM_AGENT_DESIGN", "halves")
    with pytest.raises(EnvironmentValueError, match="SAM_AGENT_DESIGN"):
        RunPolicy.from_saved({})
