"""The base of an acceptance check on the FINAL model (read through the host API), never on
tool calls: evaluation's checks (``evaluation/checks.py``) and a domain's own, which name its
actions (Load: ``compilers/load/acceptance.py``), build on it. ``check(mdb, model, part)``
returns a :class:`CheckOutcome` that says what was expected and what the model holds."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

TOL = 1e-6


class CheckOutcome(BaseModel):
    name: str
    expected: str
    actual: str
    ok: bool


class _NoPart(LookupError):
    pass


def part_of(mdb: Any, model: str, part: str) -> Any:
    models = mdb.models
    if model not in models.keys() or part not in models[model].parts.keys():
        raise _NoPart(f"no part {part!r} in model {model!r}")
    return models[model].parts[part]


@dataclass(frozen=True)
class Check:
    """Base: subclasses implement ``measure(model, part)`` -> (expected, actual, ok)."""

    def name(self) -> str:
        return type(self).__name__

    def check(self, mdb: Any, model: str, part: str) -> CheckOutcome:
        try:
            expected, actual, ok = self.measure(mdb.models[model], part_of(mdb, model, part))
        except _NoPart as missing:
            return CheckOutcome(name=self.name(), expected="part exists", actual=str(missing),
                                ok=False)
        except Exception as error:  # a check must report, never crash the suite
            return CheckOutcome(name=self.name(), expected="readable model",
                                actual=f"{type(error).__name__}: {error}", ok=False)
        return CheckOutcome(name=self.name(), expected=str(expected), actual=str(actual), ok=ok)

    def measure(self, model: Any, part: Any) -> tuple[Any, Any, bool]:
        raise NotImplementedError
