"""``RunState`` stays small: what a step makes for the next one is what it returns
(``runtime/run/artifacts.py``), kept as one field, not a field per artifact."""

from dataclasses import fields

from sam_plugin.runtime.run.artifacts import Compiled, ShownPlan
from sam_plugin.runtime.run.state import RunState

LIMIT = 25


def test_run_state_has_at_most_25_fields():
    names = [f.name for f in fields(RunState)]
    assert len(names) <= LIMIT, f"RunState has {len(names)} fields: {', '.join(names)}"


def test_the_compile_and_plan_artifacts_live_in_what_their_steps_return():
    names = {f.name for f in fields(RunState)}
    for artifact in ("script", "key", "plan", "prediction", "predicted", "normalized",
                     "bound", "claims"):
        assert artifact not in names
    assert {"script", "key", "plan", "prediction", "predicted"} <= {
        f.name for f in fields(ShownPlan)}
    assert {"fragments", "prediction", "bound", "claims"} <= {f.name for f in fields(Compiled)}
