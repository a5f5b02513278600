"""Where the offline SAM is, and putting it on ``sys.path`` only when no host SAM is there.

The offline SAM (modules ``sam``, ``samConstants`` and the ``sam_host`` window) is ``stubs/``
in a checkout and ``sam_plugin/_offline_sam/`` in the installed wheel (``setup.py`` maps one
to the other, from the same files). Neither folder is ever on ``sys.path`` by itself, so it
cannot shadow the ``sam`` of a real SAM: the CLI, the demo and the eval put it there
explicitly, and the CLI and demo only when no host ``sam`` is importable
(docs/architecture.md §2). Standard library only: no layer is imported from here.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path

from sam_plugin.errors import OfflineSamMissing

PACKAGE_DIR = Path(__file__).resolve().parent
PACKAGED = PACKAGE_DIR / "_offline_sam"  # the installed wheel
CHECKOUT = PACKAGE_DIR.parent / "stubs"  # a source checkout (also an editable install)


def offline_sam_dir() -> Path | None:
    """The folder holding the offline ``sam`` package, or ``None`` when none is shipped."""
    for candidate in (PACKAGED, CHECKOUT):
        if (candidate / "sam" / "__init__.py").is_file() and (candidate / "sam_host.py").is_file():
            return candidate
    return None


def _sam_origin() -> Path | None:
    try:
        spec = importlib.util.find_spec("sam")
    except (ImportError, ValueError):  # a broken ``sam`` in sys.modules: treat it as a host's
        return Path("sam")
    if spec is None:
        return None
    return Path(spec.origin).resolve() if spec.origin else Path("sam")


def is_offline(origin: Path) -> bool:
    """Whether a module file belongs to one of the offline SAM folders."""
    return any(folder in origin.parents for folder in (PACKAGED, CHECKOUT))


def host_sam_origin() -> Path | None:
    """Where an importable ``sam`` that is *not* the offline one lives (inside SAM), or
    ``None`` when this Python has no host SAM."""
    origin = _sam_origin()
    if origin is None or is_offline(origin):
        return None
    return origin


def use_offline_sam() -> Path:
    """Put the offline SAM first on ``sys.path`` (once) and return its folder."""
    folder = offline_sam_dir()
    if folder is None:
        raise OfflineSamMissing(
            f"no offline SAM: neither {PACKAGED} (the wheel) nor {CHECKOUT} (a checkout) "
            "holds one; reinstall sam-agent-plugin, or run inside SAM")
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
        importlib.invalidate_caches()
    return folder
