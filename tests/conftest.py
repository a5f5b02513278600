"""Shared test set-up: the offline SAM (``stubs/``) is put on ``sys.path`` for tests only.

``stubs/`` must never be installed into site-packages: inside the real SAM it would shadow
the host's own ``sam`` module (DESIGN.md §2).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STUBS = ROOT / "stubs"
if str(STUBS) not in sys.path:
    sys.path.insert(0, str(STUBS))

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
for _var in ("SAM_AGENT_BASE_URL", "SAM_AGENT_API_KEY", "SAM_AGENT_MODEL", "SAM_AGENT_RUNS_DIR"):
    os.environ.pop(_var, None)

pytest_plugins = ["sam_plugin.testing.fixtures"]
