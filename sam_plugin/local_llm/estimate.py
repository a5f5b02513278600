"""What a set-up will take on this machine, said before anything is downloaded or built."""

from __future__ import annotations

import os

from pydantic import BaseModel

from sam_plugin.local_llm.catalog import MIB, SOURCE, ModelSpec

# one variant of llama-server (~200 compile steps) measured 24 core-minutes on this
# project's two-core machine (docs/models.md); the cores divide it
COMPILE_CORE_SECONDS = 24 * 60
BUILD_TREE_MIB = 450  # the extracted sources and the build folder, removed once it works
DOWNLOAD_MIB_PER_SECOND = 4.0  # a modest line; the estimate says so
SERVER_CONTEXT = 36864  # tokens: the design prompt, the observation and the answer
CACHE_RAM_MIB = 4096  # llama-server's RAM for prompts a slot replaced (--cache-ram)


class Estimate(BaseModel):
    """Sizes in MiB and times in seconds, for one model on this machine's cores."""

    model: str
    cores: int
    download_mib: int
    disk_peak_mib: int
    disk_kept_mib: int
    ram_mib: int
    cache_ram_mib: int
    compile_seconds: int
    source_seconds: int  # downloading llama.cpp's sources
    model_seconds: int  # downloading the model's parts
    load: float = 0.0  # the 1-minute load average when it was estimated

    @property
    def download_seconds(self) -> int:
        return self.source_seconds + self.model_seconds

    @property
    def total_seconds(self) -> int:
        return self.compile_seconds + self.download_seconds + 60  # configure and smoke test


def estimate(model: ModelSpec, cores: int, load: float | None = None) -> Estimate:
    download = SOURCE.size_bytes // MIB + model.download_mib
    if load is None:
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    return Estimate(
        model=model.name, cores=cores, download_mib=download,
        disk_peak_mib=BUILD_TREE_MIB + SOURCE.size_bytes // MIB + model.download_mib
        + model.file_mib,
        disk_kept_mib=model.file_mib + 40,
        ram_mib=model.ram_mib(SERVER_CONTEXT), cache_ram_mib=CACHE_RAM_MIB,
        compile_seconds=COMPILE_CORE_SECONDS // max(1, cores),
        source_seconds=int(SOURCE.size_bytes / MIB / DOWNLOAD_MIB_PER_SECOND),
        model_seconds=int(model.download_mib / DOWNLOAD_MIB_PER_SECOND), load=load)


def gib(mib: int) -> str:
    return f"{mib / 1024:.1f} GB"


def minutes(seconds: float) -> str:
    return f"{max(1, round(seconds / 60))} min"


def estimate_lines(found: Estimate, title: str, tools: list[str], hint: str) -> list[str]:
    """The lines ``setup`` prints first (and the dock shows before its button is pressed)."""
    source_mib = SOURCE.size_bytes // MIB
    lines = [
        f"Local model: {title}, served by llama.cpp's llama-server built for this CPU.",
        f"  download  {gib(found.download_mib)} (llama.cpp sources {source_mib} MB, model "
        f"parts {gib(found.download_mib - source_mib)}), "
        f"about {minutes(found.download_seconds)} at {DOWNLOAD_MIB_PER_SECOND:.0f} MB/s",
        f"  disk      {gib(found.disk_peak_mib)} while it builds, {gib(found.disk_kept_mib)} kept",
        f"  RAM       {gib(found.ram_mib)} to serve it, plus up to {gib(found.cache_ram_mib)} "
        "of cached prompts",
        f"  time      about {minutes(found.total_seconds)} on this machine's {found.cores} "
        f"core(s) (the compile: {minutes(found.compile_seconds)})"
        + (f"; longer now: other work keeps them busy (load {found.load:.1f})"
           if found.load > found.cores else ""),
        "  needs     cmake and a C++ compiler"
        + (f" — missing {' and '.join(tools)}: {hint}" if tools else " (found)"),
    ]
    return lines
