"""A step of the design asked again before Review, and why (docs/architecture.md §4 "The
design, asked in parts"): kept as data with the run, rendered at the edge (the dock's Review
notes, the CLI)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class StepRepair(BaseModel):
    """A step of the design asked again before Review, and why: data, rendered at the edge
    (the dock's Review notes, the CLI) by :meth:`words`."""

    model_config = ConfigDict(frozen=True)

    step: int  # 1-based
    action: str
    reason: str

    def words(self, language: str = "en") -> str:
        if language.lower().startswith("zh"):
            return f"第 {self.step} 步（{self.action}）已请模型重写一次，原因：{self.reason}"
        return (f"step {self.step} ({self.action}) was asked again once, because: "
                f"{self.reason}")
