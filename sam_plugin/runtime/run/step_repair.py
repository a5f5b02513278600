"""A step of the design asked again before Review, and why (docs/architecture.md §4 "The
design, asked in parts"): kept as data with the run, rendered at the edge (the dock's Review
notes, the CLI)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class StepRepair(BaseModel):
    """A step of the design asked again before Review, and why: data, rendered at the edge
    (the dock's Review notes, the CLI) by :meth:`words`."""

    model_config = ConfigDict(frozen=True)

    step: int  # 1-based; 0: the first question (the actions)
    action: str
    reason: str

    def words(self, language: str = "en") -> str:
        if language.lower().startswith("zh"):
            where = f"第 {self.step} 步（{self.action}）" if self.step else "动作列表"
            return f"{where}已请模型重写一次，原因：{self.reason}"
        where = f"step {self.step} ({self.action})" if self.step else "the list of actions"
        return f"{where} was asked again once, because: {self.reason}"
