"""The one CPU variant to build llama.cpp for: the highest this machine runs.

A CPU reports its instructions by CPUID; Linux lists in ``/proc/cpuinfo`` only those whose
register state the kernel enables (an AVX-512 flag is cleared when XCR0 does not grant its
registers), so the flags there are what the CPU reports *and* the kernel grants. A hypervisor
can still report more than it runs: the smoke test catches that (SIGILL) and the set-up
steps down to the next variant. AMX is never built: it needs a per-process grant.
"""

from __future__ import annotations

import platform
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

# every x86 instruction-set switch of ggml's CMake; each variant sets all of them, since
# with GGML_NATIVE=OFF the ones left out default to ON
X86_SWITCHES = ("SSE42", "AVX", "AVX2", "BMI2", "FMA", "F16C", "AVX512", "AVX512_VBMI",
                "AVX512_VNNI", "AVX512_BF16", "AVX_VNNI")
# a switch that is on when the variant is chosen and the CPU lists its flag
OPTIONAL_SWITCHES = {"BMI2": "bmi2", "AVX512_VBMI": "avx512vbmi",
                     "AVX512_VNNI": "avx512_vnni", "AVX512_BF16": "avx512_bf16",
                     "AVX_VNNI": "avx_vnni"}


@dataclass(frozen=True)
class Variant:
    """A build of ggml's CPU backend: a name, the CPU flags it needs and the switches on."""

    name: str
    needs: tuple[str, ...]
    switches: tuple[str, ...]
    optional: tuple[str, ...] = ()

    def cmake_flags(self, flags: Iterable[str]) -> list[str]:
        if self.name == "native":
            return ["-DGGML_NATIVE=ON"]
        present = set(flags)
        on = set(self.switches) | {s for s in self.optional if OPTIONAL_SWITCHES[s] in present}
        return ["-DGGML_NATIVE=OFF",
                *(f"-DGGML_{switch}={'ON' if switch in on else 'OFF'}" for switch in X86_SWITCHES)]


# highest first: each is the fallback of the one before it
X86_LADDER = (
    Variant("avx512", ("avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl", "avx2", "fma",
                       "f16c"),
            ("SSE42", "AVX", "AVX2", "FMA", "F16C", "AVX512"),
            ("BMI2", "AVX512_VBMI", "AVX512_VNNI", "AVX512_BF16")),
    Variant("avx2", ("avx2", "fma", "f16c"), ("SSE42", "AVX", "AVX2", "FMA", "F16C"),
            ("BMI2", "AVX_VNNI")),
    Variant("avx", ("avx",), ("SSE42", "AVX")),
    Variant("sse42", ("sse4_2",), ("SSE42",)),
    Variant("x86-64", (), ()),
)
# elsewhere (ARM, Apple silicon) the compiler's own view of this CPU is right
NATIVE = Variant("native", (), ())


def cpu_flags(cpuinfo: Path = Path("/proc/cpuinfo")) -> frozenset[str]:
    """The flags the first processor lists (``flags`` on x86, ``Features`` on ARM)."""
    try:
        text = cpuinfo.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return frozenset()
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key.strip() in ("flags", "Features"):
            return frozenset(value.split())
    return frozenset()


def is_x86(machine: str | None = None) -> bool:
    return (machine or platform.machine()).lower() in ("x86_64", "amd64", "i686", "i386")


def ladder(flags: Iterable[str], machine: str | None = None) -> list[Variant]:
    """The variants to try, best first: the highest this CPU lists, then every one below."""
    if not is_x86(machine):
        return [NATIVE]
    present = set(flags)
    if not present:  # no /proc/cpuinfo (macOS): start at AVX2 and let the smoke test step down
        return list(X86_LADDER[1:])
    for index, variant in enumerate(X86_LADDER):
        if all(flag in present for flag in variant.needs):
            return list(X86_LADDER[index:])
    return [X86_LADDER[-1]]


def usable_cores() -> int:
    """The cores this process may run on (a container's limit, not the machine's count)."""
    import os

    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)
