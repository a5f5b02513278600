"""The one thing pyproject.toml cannot say: ship the offline SAM (``stubs/``) inside the wheel.

``stubs/`` is packaged as ``sam_plugin/_offline_sam/`` from the same source files (no second
copy in git). Inside the package it is never on ``sys.path`` by itself, so its ``sam`` cannot
shadow a real SAM's; the CLI and the demo put that folder on the path explicitly, and only
when no host ``sam`` is importable (``sam_plugin/offline_sam.py``, docs/architecture.md §2).
"""

from setuptools import find_packages, setup

OFFLINE_SAM = "sam_plugin._offline_sam"

setup(
    packages=[*find_packages(include=["sam_plugin", "sam_plugin.*"]),
              OFFLINE_SAM, f"{OFFLINE_SAM}.sam"],
    package_dir={OFFLINE_SAM: "stubs"},
)
