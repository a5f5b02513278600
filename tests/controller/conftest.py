"""Makes ``controller_fakes`` importable from the tests in this folder, and gives them the one
``controller`` fixture: ``controller(provider, **options)`` builds a ``RunController`` over
the fakes in the test's ``tmp_path`` (``controller_fakes.build_controller``)."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from controller_fakes import Built, build_controller  # noqa: E402 (needs HERE on the path)


@pytest.fixture
def controller(tmp_path: Path) -> Callable[..., Built]:
    return functools.partial(build_controller, tmp_path)


