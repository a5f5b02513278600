"""The machine's load while a suite runs live (``os.getloadavg``): sampled when it starts and
at each task's end, kept in the report and, when recording, in the cassette directory's
``meta.json``, so that the seconds of a recording say what else ran beside the server
(eval/README.md, "Recording protocol")."""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import UTC, datetime

from pydantic import BaseModel, Field


class LoadSample(BaseModel):
    at: str  # UTC, ISO 8601 to the second
    task: str | None = None  # None: a session starts
    load: tuple[float, float, float]  # the 1, 5 and 15 minute load averages


class MachineLoad(BaseModel):
    cores: int
    start: float  # the 1-minute load average when the latest session started
    max: float  # the highest 1-minute load average sampled
    samples: list[LoadSample] = Field(default_factory=list)

    def add(self, sample: LoadSample) -> MachineLoad:
        return self.model_copy(update={"max": max(self.max, sample.load[0]),
                                       "samples": [*self.samples, sample]})

    def busy(self) -> bool:
        """More work waits to run than there are cores: something beside the server runs."""
        return bool(self.samples) and self.samples[-1].load[0] > self.cores + 0.5

    def words(self) -> str:
        last = self.samples[-1]
        return (f"load {last.load[0]:.2f} {last.load[1]:.2f} {last.load[2]:.2f} (1, 5, 15 min) "
                f"on {self.cores} cores")


Reader = Callable[[], tuple[float, float, float]]


def sample(task: str | None, read: Reader | None = None) -> LoadSample | None:
    """None where the platform keeps no load average (Windows has no ``os.getloadavg``)."""
    try:
        one, five, fifteen = (read or os.getloadavg)()
    except (OSError, AttributeError):
        return None
    return LoadSample(at=datetime.now(UTC).isoformat(timespec="seconds"), task=task,
                      load=(round(one, 2), round(five, 2), round(fifteen, 2)))


def started(earlier: MachineLoad | None, read: Reader | None = None) -> MachineLoad | None:
    """A session starts: its sample follows the earlier sessions' (a resumed recording keeps
    the load its kept cassettes were recorded under)."""
    first = sample(None, read)
    if first is None:
        return None
    if earlier is None:
        return MachineLoad(cores=os.cpu_count() or 1, start=first.load[0], max=first.load[0],
                           samples=[first])
    return earlier.add(first).model_copy(update={"start": first.load[0]})


def session_part(load: MachineLoad) -> MachineLoad:
    """The samples of the latest session only (the report's)."""
    starts = [i for i, s in enumerate(load.samples) if s.task is None]
    samples = load.samples[starts[-1]:] if starts else load.samples
    return load.model_copy(update={"samples": samples,
                                   "max": max(s.load[0] for s in samples)})


class LoadLog:
    """The load of one live session: sampled at its start and at each task's end, each time
    handed to ``save`` (the cassette directory's meta.json when recording); a sample above
    the cores is said on ``say``, as it happens."""

    def __init__(self, earlier: MachineLoad | None, save: Callable[[MachineLoad], None],
                 say: Callable[[str], None], read: Reader | None = None):
        self._save, self._say, self._read = save, say, read
        self.load = started(earlier, read)
        if self.load is not None:
            self._say(f"sam-agent eval: {self.load.words()} before the first task")
            self._save(self.load)

    def task_ended(self, task: str) -> None:
        taken = sample(task, self._read)
        if self.load is None or taken is None:
            return
        self.load = self.load.add(taken)
        self._save(self.load)
        if self.load.busy():
            self._say(f"sam-agent eval: {self.load.words()} after {task}: more runs on this "
                      "machine than the server (eval/README.md, recording protocol)")

    def session(self) -> MachineLoad | None:
        return None if self.load is None else session_part(self.load)
