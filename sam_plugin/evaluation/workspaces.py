"""Starting workspaces for suite tasks, built through the host API only (``mdb`` as SAM
gives it: ``mdb.models[...].Part(...)``, ``part.Node``, ``part.Element``, ``part.Set``).

Coordinates are plain floats, so a task's acceptance checks can name them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

DEFAULT_MODEL = "Model-1"


def _constants() -> Any:
    import samConstants

    return samConstants


def new_part(mdb: Any, name: str, model: str = DEFAULT_MODEL) -> Any:
    return mdb.models[model].Part(name=name)


def plate(mdb: Any, name: str, nx: int, ny: int, lx: float, ly: float, *,
          shape: str = "QUAD", origin: Sequence[float] = (0.0, 0.0, 0.0),
          model: str = DEFAULT_MODEL, part: Any = None) -> Any:
    """An ``nx`` x ``ny`` grid on the XY plane (TRI splits each cell in two)."""
    c = _constants()
    p = part if part is not None else new_part(mdb, name, model)
    x0, y0, z0 = (float(v) for v in origin)
    grid = [[p.Node(coordinates=(x0 + lx * i / nx, y0 + ly * j / ny, z0))
             for i in range(nx + 1)] for j in range(ny + 1)]
    for j in range(ny):
        for i in range(nx):
            a, b, cc, d = grid[j][i], grid[j][i + 1], grid[j + 1][i + 1], grid[j + 1][i]
            if shape == "QUAD":
                p.Element(nodes=(a, b, cc, d), elemShape=c.QUAD)
            else:
                p.Element(nodes=(a, b, cc), elemShape=c.TRI)
                p.Element(nodes=(a, cc, d), elemShape=c.TRI)
    return p


def beam_line(mdb: Any, name: str, start: Sequence[float], end: Sequence[float], n: int, *,
              model: str = DEFAULT_MODEL, part: Any = None) -> Any:
    """``n`` BEAM elements from ``start`` to ``end``."""
    c = _constants()
    p = part if part is not None else new_part(mdb, name, model)
    points = [tuple(float(s) + (float(e) - float(s)) * k / n for s, e in zip(start, end,
                                                                             strict=True))
              for k in range(n + 1)]
    nodes = [p.Node(coordinates=pt) for pt in points]
    for a, b in zip(nodes, nodes[1:], strict=False):
        p.Element(nodes=(a, b), elemShape=c.BEAM)
    return p


def element_set(part: Any, name: str, labels: Sequence[int]) -> None:
    part.Set(name=name, elements=part.elements.sequenceFromLabels(list(labels)))


def steel(mdb: Any, name: str = "Steel", model: str = DEFAULT_MODEL) -> None:
    m = mdb.models[model].Material(name=name)
    m.Elastic(table=((210000.0, 0.3),))
    m.Density(table=((7.85e-9,),))


def shell(mdb: Any, name: str, material: str, thickness: float,
          model: str = DEFAULT_MODEL) -> None:
    mdb.models[model].HomogeneousShellSection(name=name, material=material, thickness=thickness)


def assign_all(part: Any, section: str) -> None:
    part.SectionAssignment(region=part.Set(name=f"{section}_ALL", elements=part.elements),
                           sectionName=section)
