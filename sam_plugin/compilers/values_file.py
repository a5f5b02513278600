"""A domain's recorded values in the run directory (``<domain>_values.json``): what its calls
set, read before the run and kept until the readback compares them (docs/architecture.md §11,
``value_recorder``/``value_checker``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def read_values(run_dir: Path, name: str) -> dict[str, Any]:
    """The JSON object in ``run_dir/name``; ``{}`` when it is missing or not an object."""
    try:
        data = json.loads((Path(run_dir) / name).read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def write_values(run_dir: Path, name: str, payload: dict[str, Any]) -> None:
    """``payload`` as ``run_dir/name``, whole or not at all (a temporary file replaced)."""
    path = Path(run_dir) / name
    temp = path.with_name(path.name + ".tmp")
    temp.write_text(json.dumps(payload, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    temp.replace(path)
