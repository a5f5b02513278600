"""How a run is governed, apart from who answers it: when the plan waits for the analyst,
how many repair rounds a run may spend, and how much undo keeps (docs/architecture.md §5, §9).

These are saved with the provider settings (one settings file, the dock's one dialog) but
are no provider matter: ``ProviderSettings`` holds the endpoint, ``RunPolicy`` this.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

from sam_plugin.runtime.config import env as environment

# When the plan waits for the analyst's approval (docs/architecture.md §9): always, only when
# it is destructive or has warnings, never.
PlanWait = Literal["always", "destructive", "never"]
PLAN_WAITS: tuple[str, ...] = get_args(PlanWait)
# Where the tool calls come from (docs/architecture.md §4 "Calls from the steps"): computed
# from the confirmed steps (the model is asked for the spec only), or filled by the model in
# bounded collection rounds and bound to the steps.
CallSourceSetting = Literal["spec", "model"]
# How the spec is asked (docs/architecture.md §4 "The design, asked in parts"): the actions
# first, then each action's values under its own grammar; or the whole spec in one request
# (what every recording before the parts protocol used).
DesignProtocol = Literal["parts", "whole"]
DEFAULT_REPAIR_ROUNDS = 2
MAX_REPAIR_ROUNDS = 10


class UndoBudget(BaseModel):
    """How many verified runs keep an undo snapshot, and how many megabytes they may hold."""

    model_config = ConfigDict(frozen=True)

    runs: int = Field(default=5, ge=0)
    megabytes: float = Field(default=512.0, ge=0)

    @classmethod
    def from_env(cls, env: environment.Environ | None = None) -> UndoBudget:
        """``SAM_AGENT_UNDO_RUNS`` and ``SAM_AGENT_UNDO_BUDGET_MB`` over the defaults."""
        values: dict[str, Any] = {}
        runs = environment.undo_runs(env)
        megabytes = environment.undo_megabytes(env)
        if runs is not None:
            values["runs"] = runs
        if megabytes is not None:
            values["megabytes"] = megabytes
        return cls(**values)

    def describe(self) -> str:
        return f"the last {self.runs} run(s) within {self.megabytes:g} MB"


def _calls_from_env() -> CallSourceSetting:
    return "model" if environment.calls() == "model" else "spec"


def _design_from_env() -> DesignProtocol:
    # ``whole`` until ``parts`` is measured not to lower either suite: recorded live, the
    # 0.5B answered the first question of ``parts`` with a refusal category on every one of
    # 50 everyday-words requests (docs/models.md)
    return "parts" if environment.design() == "parts" else "whole"


class RunPolicy(BaseModel):
    """The run-governing settings a controller follows."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    plan_wait: PlanWait = "always"
    # unless given: SAM_AGENT_CALLS over the default, ``spec``
    calls: CallSourceSetting = Field(default_factory=lambda: _calls_from_env())
    # unless given: SAM_AGENT_DESIGN over the default, ``whole``
    design: DesignProtocol = Field(default_factory=lambda: _design_from_env())
    # repair rounds per run after a rejected call or a compile diagnostic (0: none)
    repair_rounds: int = Field(DEFAULT_REPAIR_ROUNDS, ge=0, le=MAX_REPAIR_ROUNDS)
    # unless given: SAM_AGENT_UNDO_RUNS / SAM_AGENT_UNDO_BUDGET_MB over the defaults
    undo: UndoBudget = Field(default_factory=UndoBudget.from_env)

    @classmethod
    def from_saved(cls, saved: Mapping[str, Any] | None = None,
                   env: environment.Environ | None = None) -> RunPolicy:
        """What the settings file saved (other keys ignored), ``SAM_AGENT_CALLS`` over the
        saved ``calls`` (``SAM_AGENT_DESIGN`` over ``design``), the undo budget from the
        environment; a bad value raises a ``ValidationError`` naming the field."""
        values = {key: value for key, value in (saved or {}).items()
                  if key in ("plan_wait", "repair_rounds", "calls", "design") and value is not None
                  and value != ""}
        calls = environment.calls(env)
        if calls is not None:
            values["calls"] = calls
        protocol = environment.design(env)
        if protocol is not None:
            values["design"] = protocol
        return cls(**values, undo=UndoBudget.from_env(env))
