"""``runtime/config/env.py`` is where every ``SAM_AGENT_*`` variable is read: typed, and a
value that cannot be used is refused with the variable's name and the legal values."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from sam_plugin.errors import EnvironmentValueError
from sam_plugin.runtime.config import env
from sam_plugin.runtime.config.policy import RunPolicy, UndoBudget

PACKAGE = Path(__file__).resolve().parents[2] / "sam_plugin"
# names the composed script finds in its namespace: no environment variables
SCRIPT_NAMES = {"SAM_AGENT_TARGET", "SAM_AGENT_OUTPUT_DIR", "SAM_AGENT_STAGE",
                "SAM_AGENT_COMPLETED", "SAM_AGENT_SNAPSHOT", "SAM_AGENT_RESTORE"}


def test_no_module_but_env_names_a_sam_agent_variable():
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == PACKAGE / "runtime" / "config" / "env.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and node.value.startswith("SAM_AGENT_") and node.value.isupper()
                    and node.value.replace("_", "").isalnum()
                    and node.value not in SCRIPT_NAMES):
                found.append(f"{path.relative_to(PACKAGE)}: {node.value}")
    assert found == []


def test_the_provider_variables_are_read_as_text_in_a_fixed_order():
    read = env.provider_variables({env.PROFILE: " vllm ", env.MODEL: "m", env.BASE_URL: " ",
                                   env.TIMEOUT: "30"})
    assert read.overrides == {"profile": "vllm", "model": "m", "total_timeout": "30"}
    assert read.names == (env.MODEL, env.PROFILE)


@pytest.mark.parametrize("value, forced", [("1", True), ("YES", True), ("true", True),
                                           ("0", False), ("no", False), ("", False)])
def test_replay_is_forced_by_the_words_it_knows(value, forced):
    assert env.replay_forced({env.REPLAY: value}) is forced


def test_a_replay_word_it_does_not_know_is_refused_with_the_legal_ones():
    with pytest.raises(EnvironmentValueError, match=r"SAM_AGENT_REPLAY: 'on' cannot be used; "
                       r"legal: 1, true, yes \(replay\) or 0, false, no, unset"):
        env.replay_forced({env.REPLAY: "on"})


@pytest.mark.parametrize("variable, value", [(env.UNDO_RUNS, "-1"), (env.UNDO_RUNS, "2.5"),
                                             (env.UNDO_BUDGET_MB, "lots"),
                                             (env.UNDO_BUDGET_MB, "inf"),
                                             (env.REPLAY_DELAY, "-0.1")])
def test_numbers_that_cannot_be_used_name_their_variable(variable, value):
    reader = {env.UNDO_RUNS: env.undo_runs, env.UNDO_BUDGET_MB: env.undo_megabytes,
              env.REPLAY_DELAY: env.replay_delay}[variable]
    with pytest.raises(EnvironmentValueError) as refused:
        reader({variable: value})
    assert str(refused.value).startswith(f"{variable}: {value!r} cannot be used; legal: ")
    assert "0 or more" in str(refused.value)


def test_paths_unset_or_blank_leave_the_default_to_the_caller(tmp_path):
    assert env.runs_dir({env.RUNS_DIR: "  "}) is None
    assert env.runs_dir({env.RUNS_DIR: str(tmp_path)}) == tmp_path
    assert env.settings_file({}) is None


def test_the_run_policy_is_saved_with_the_settings_but_is_no_provider_matter():
    policy = RunPolicy.from_saved({"plan_wait": "destructive", "repair_rounds": 1,
                                   "base_url": "http://x/v1", "model": "m"},
                                  env={env.UNDO_RUNS: "3"})
    assert (policy.plan_wait, policy.repair_rounds) == ("destructive", 1)
    assert policy.undo == UndoBudget(runs=3)
    assert RunPolicy.from_saved() == RunPolicy(undo=UndoBudget.from_env()) == RunPolicy()
    from sam_plugin.runtime.config.settings import ProviderSettings

    assert not {"plan_wait", "repair_rounds"} & set(ProviderSettings.model_fields)
