"""Import every module of the installed ``sam_plugin`` wheel, in the venv that runs this.

Run by ``.ci/run`` with a fresh venv that has only the wheel and its dependencies (no
editable checkout, no ``stubs/``, no dev extras), from a directory outside the repository:
a module that imports test code, the stub ``sam`` or a file the wheel does not ship fails
here. The offline SAM the wheel ships (``sam_plugin/_offline_sam/``) must not be importable as
``sam`` before, nor after, every module was imported: it is on ``sys.path`` only when a tool
puts it there. The few host-side modules that import ``samConstants`` at the top (they run
inside SAM's script, where SAM provides it) are imported a second time with that offline SAM
standing in for the host, and must import then. STUBS_DIR is the checkout's ``stubs/``: the
wheel must not be the checkout.

    python .ci/import_wheel.py STUBS_DIR [--extras-installed]

With ``--extras-installed`` (the wheel installed with its extras) a module that still needs
an extra fails too.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import sys
from pathlib import Path

HOST_MODULES = {"sam", "samConstants"}
# optional extras: the modules of the package an extra serves may need what only the extra
# installs (`pip install "$(ls dist/sam_agent_plugin-*.whl)[mcp]"`); anything else of the
# wheel must not
EXTRAS = {"sam_plugin.mcp_server": ("mcp", {"mcp", "mcp_types", "anyio", "uvicorn",
                                            "starlette"})}
OFFLINE_SAM = "sam_plugin._offline_sam"
OFFLINE_MODULES = ("sam", "samConstants", "sam_host")


def wheel_modules() -> list[str]:
    files = importlib.metadata.files("sam-agent-plugin") or []
    names = []
    for file in files:
        path = Path(str(file))
        if path.suffix != ".py" or path.parts[0] != "sam_plugin":
            continue
        parts = list(path.with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        name = ".".join(parts)
        if parts[-1] == "__main__":
            continue  # runs its program when imported (python -m); what it imports is listed
        if name != OFFLINE_SAM and not name.startswith(OFFLINE_SAM + "."):
            names.append(name)  # the offline SAM imports only with its folder on the path
    return sorted(names)


def _offline_sam_visible(when: str) -> list[str]:
    """The offline SAM's modules must not import by themselves (they would shadow SAM's)."""
    visible = [name for name in OFFLINE_MODULES
               if name in sys.modules or importlib.util.find_spec(name) is not None]
    return [f"{when}: {name} is importable without the offline SAM put on sys.path"
            for name in visible]


def main() -> int:
    stubs = Path(sys.argv[1]).resolve()
    modules = wheel_modules()
    installed = Path(importlib.import_module("sam_plugin").__file__ or "").resolve()
    if stubs.parent in installed.parents:
        print(f"sam_plugin was imported from the checkout ({installed}), not the wheel")
        return 1
    needs_host, needs_extra, broken = [], [], []
    broken += _offline_sam_visible("before importing the wheel")
    for name in modules:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as error:
            if error.name in HOST_MODULES:
                needs_host.append(f"{name}: {error!r}")
            elif _extra_of(name, error.name):
                needs_extra.append(f"{name}: [{_extra_of(name, error.name)}]")
            else:
                broken.append(f"{name}: {error!r}")
        except Exception as error:  # noqa: BLE001 - every failure is reported
            broken.append(f"{name}: {error!r}")
    if "--extras-installed" in sys.argv[2:]:
        broken += [f"{entry} (installed)" for entry in needs_extra]
    broken += _offline_sam_visible("after importing every module of the wheel")
    from sam_plugin.offline_sam import PACKAGED, offline_sam_dir

    if offline_sam_dir() != PACKAGED:
        broken.append(f"the wheel ships no offline SAM at {PACKAGED}")
    sys.path.insert(0, str(PACKAGED))  # as SAM's embedded Python provides sam/samConstants
    for entry in needs_host:
        name = entry.split(":")[0]
        try:
            importlib.import_module(name)
        except Exception as error:  # noqa: BLE001
            broken.append(f"{name} (with the host modules): {error!r}")
    manifest = installed.parent / "plugin.json"
    if not manifest.is_file():
        broken.append(f"the wheel ships no {manifest.name}")
    print(f"imported {len(modules)} modules of the wheel "
          f"({len(needs_host)} host-side, with sam/samConstants provided; "
          f"{len(needs_extra)} need an extra not installed here)")
    for line in broken:
        print(f"FAILED {line}")
    return 1 if broken else 0


def _extra_of(module: str, missing: str | None) -> str | None:
    """The extra that ``module`` may need ``missing`` from, if any."""
    top = (missing or "").split(".")[0]
    for package, (extra, provides) in EXTRAS.items():
        if (module == package or module.startswith(package + ".")) and top in provides:
            return extra
    return None


if __name__ == "__main__":
    raise SystemExit(main())
