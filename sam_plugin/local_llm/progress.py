"""Where a set-up is: its stage, n of N, the share of the whole and the minutes left."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Literal

from pydantic import BaseModel

from sam_plugin.local_llm.catalog import MIB
from sam_plugin.local_llm.estimate import Estimate

Stage = Literal["download", "configure", "compile", "model", "smoke", "done"]
STAGES: tuple[Stage, ...] = ("download", "configure", "compile", "model", "smoke", "done")
STAGE_WORDS: dict[Stage, str] = {
    "download": "download llama.cpp", "configure": "configure", "compile": "compile",
    "model": "model parts", "smoke": "smoke test", "done": "ready",
}


class Progress(BaseModel):
    stage: Stage
    done: int = 0
    total: int = 0
    detail: str = ""  # the CPU variant, a file name
    fraction: float = 0.0  # of the whole set-up
    seconds_left: int | None = None

    def words(self) -> str:
        """``compile 45/210 (avx512)``: what the bar and the status line say."""
        text = STAGE_WORDS[self.stage]
        if self.total and self.stage == "download":  # bytes
            text += f" {self.done / MIB:.0f}/{self.total / MIB:.0f} MB"
        elif self.total:
            text += f" {self.done}/{self.total}"
        if self.detail:
            text += f" ({self.detail})"
        return text


ProgressSink = Callable[[Progress], None]


class ProgressClock:
    """Turns stage events into :class:`Progress`: each stage weighs its estimated seconds,
    and the running stage's rate so far replaces its estimate once it has one."""

    def __init__(self, found: Estimate, sink: ProgressSink,
                 now: Callable[[], float] = time.monotonic) -> None:
        self.sink = sink
        self.now = now
        self.weights: dict[Stage, float] = {
            "download": float(found.source_seconds), "configure": 30.0,
            "compile": float(found.compile_seconds), "model": float(found.model_seconds),
            "smoke": 30.0, "done": 0.0,
        }
        self.stage: Stage = "download"
        self.stage_started = now()

    def report(self, stage: Stage, done: int = 0, total: int = 0, detail: str = "") -> None:
        if stage != self.stage:
            self.stage, self.stage_started = stage, self.now()
        order = STAGES.index(stage)
        whole = sum(self.weights.values()) or 1.0
        before = sum(self.weights[s] for s in STAGES[:order])
        share = done / total if total else 0.0
        current = self.weights[stage]
        elapsed = self.now() - self.stage_started
        if done and total and elapsed > 1:
            current = elapsed / done * total  # this stage's measured pace
        left = current * (1 - share) + sum(self.weights[s] for s in STAGES[order + 1:])
        self.sink(Progress(stage=stage, done=done, total=total, detail=detail,
                           fraction=min(1.0, (before + self.weights[stage] * share) / whole),
                           seconds_left=0 if stage == "done" else int(left)))
