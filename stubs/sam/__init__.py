"""The offline SAM host module (``import sam``; scripts do ``from sam import mdb, session``).

Implements docs/architecture.md §3 with the host's failure modes. Only for tests, the demo and
the CLI outside SAM, which put ``stubs/`` on ``sys.path`` explicitly: never install it, inside
the real SAM it would shadow the host's own ``sam`` module.
"""

from __future__ import annotations

from typing import Any

from sam.database import Mdb
from sam.mesh import MeshElement, MeshElementArray, MeshNode, MeshNodeArray
from sam.regions import Region
from sam.repository import RepositoryKeyError
from sam.storage import FORMAT_ID, FORMAT_VERSION, MdbFileError
from sam.viewport import Session

mdb: Mdb = Mdb()
session: Session = Session()


def openMdb(pathName: Any = None, **extra: Any) -> Mdb:  # noqa: N802,N803 - host API name
    """Open a saved database: it replaces ``sam.mdb`` (and is returned) only when it loads.

    A corrupt, foreign or newer file raises ``MdbFileError`` and leaves ``sam.mdb`` as it was.
    """
    global mdb
    from sam._checks import reject_keywords
    from sam.storage import load

    reject_keywords(extra)
    if pathName is None:
        raise TypeError("openMdb needs pathName")
    opened = load(pathName)
    opened.pathName = str(pathName)
    mdb = opened
    session._reset()
    return opened


__all__ = [
    "FORMAT_ID",
    "FORMAT_VERSION",
    "Mdb",
    "MdbFileError",
    "MeshElement",
    "MeshElementArray",
    "MeshNode",
    "MeshNodeArray",
    "Region",
    "RepositoryKeyError",
    "mdb",
    "openMdb",
    "session",
]
