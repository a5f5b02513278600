"""The tools a build needs (cmake, a C++ compiler) and the packages that give them."""

from __future__ import annotations

import shutil
from collections.abc import Callable

from sam_plugin.errors import MissingTools

COMPILERS = ("c++", "g++", "clang++")
# (the package manager's command, the install line for cmake and a C++ compiler)
PACKAGE_MANAGERS = (
    ("apt-get", "sudo apt-get install cmake g++"),
    ("dnf", "sudo dnf install cmake gcc-c++"),
    ("brew", "brew install cmake (and xcode-select --install for a compiler)"),
)

Which = Callable[[str], str | None]


def missing_tools(which: Which | None = None) -> list[str]:
    """What is not on PATH, in words: ``cmake``, ``a C++ compiler (g++ or clang++)``."""
    which = which or shutil.which
    missing = [] if which("cmake") else ["cmake"]
    if not any(which(name) for name in COMPILERS):
        missing.append("a C++ compiler (g++ or clang++)")
    return missing


def install_hint(which: Which | None = None) -> str:
    """The install line of this machine's package manager, else all three."""
    which = which or shutil.which
    for command, line in PACKAGE_MANAGERS:
        if which(command):
            return line
    return "; ".join(f"{command}: {line}" for command, line in PACKAGE_MANAGERS)


def check_tools(which: Which | None = None) -> None:
    """Raise :class:`MissingTools`, one line naming what is missing and the packages."""
    missing = missing_tools(which)
    if missing:
        raise MissingTools(f"missing {' and '.join(missing)}: install them with "
                           f"{install_hint(which)}, then run sam-agent local setup again")


def generator(which: Which | None = None) -> list[str]:
    """Ninja when installed (its [n/N] lines count the compile), else CMake's default."""
    which = which or shutil.which
    return ["-G", "Ninja"] if which("ninja") else []
