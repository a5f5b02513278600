"""Materials, beam profiles and sections of a model."""

from __future__ import annotations

from typing import Any

from sam._checks import finite, positive, reject_keywords

Table = tuple[tuple[float, ...], ...]


def _table(table: Any, width: int, what: str) -> Table:
    if table is None or isinstance(table, (str, bytes)):
        raise TypeError(f"{what} table must be a sequence of rows of {width} numbers; "
                        f"got {table!r}")
    try:
        rows = [tuple(row) for row in table]
    except TypeError:
        raise TypeError(f"{what} table must be a sequence of rows of {width} numbers; "
                        f"got {table!r}") from None
    if not rows:
        raise ValueError(f"{what} table must have at least one row")
    checked = []
    for i, row in enumerate(rows):
        if len(row) != width:
            raise ValueError(f"{what} table row {i} must have {width} value"
                             f"{'s' if width > 1 else ''}; got {len(row)}")
        checked.append(tuple(finite(value, f"{what} table[{i}][{j}]")
                             for j, value in enumerate(row)))
    return tuple(checked)


class Elastic:
    """Isotropic elasticity: ``table = ((E, nu), ...)``."""

    __slots__ = ("table",)

    def __init__(self, table: Table) -> None:
        self.table = table


class Density:
    """Mass density: ``table = ((rho,), ...)``."""

    __slots__ = ("table",)

    def __init__(self, table: Table) -> None:
        self.table = table


def elastic_table(table: Any) -> Table:
    rows = _table(table, 2, "Elastic")
    for i, (youngs, poisson) in enumerate(rows):
        if youngs <= 0.0:
            raise ValueError(f"Elastic table[{i}][0] (Young's modulus) must be greater than 0; "
                             f"got {youngs!r}")
        if not -1.0 < poisson < 0.5:
            raise ValueError(f"Elastic table[{i}][1] (Poisson's ratio) must lie in (-1, 0.5); "
                             f"got {poisson!r}")
    return rows


def density_table(table: Any) -> Table:
    rows = _table(table, 1, "Density")
    for i, (rho,) in enumerate(rows):
        if rho <= 0.0:
            raise ValueError(f"Density table[{i}][0] must be greater than 0; got {rho!r}")
    return rows


class Material:
    """``model.Material(name)``; ``.elastic`` and ``.density`` are ``None`` until defined."""

    __slots__ = ("name", "elastic", "density")

    def __init__(self, name: str) -> None:
        self.name = name
        self.elastic: Elastic | None = None
        self.density: Density | None = None

    def Elastic(self, table: Any = None, **extra: Any) -> Elastic:  # noqa: N802 - host API
        reject_keywords(extra)
        self.elastic = Elastic(elastic_table(table))
        return self.elastic

    def Density(self, table: Any = None, **extra: Any) -> Density:  # noqa: N802 - host API
        reject_keywords(extra)
        self.density = Density(density_table(table))
        return self.density

    def _rename(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"Material({self.name!r})"


class Profile:
    """A beam cross-section profile; ``shape`` is rectangle, circle, pipe or I."""

    shape = ""
    fields: tuple[str, ...] = ()

    def __init__(self, name: str, **dimensions: float) -> None:
        self.name = name
        for field in self.fields:
            setattr(self, field, dimensions[field])

    def dimensions(self) -> dict[str, float]:
        return {field: getattr(self, field) for field in self.fields}

    def _rename(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        inner = ", ".join(f"{key}={value!r}" for key, value in self.dimensions().items())
        return f"{type(self).__name__}({self.name!r}, {inner})"


class RectangularProfile(Profile):
    shape = "rectangle"
    fields = ("a", "b")


class CircularProfile(Profile):
    shape = "circle"
    fields = ("r",)


class PipeProfile(Profile):
    shape = "pipe"
    fields = ("r", "t")


class IProfile(Profile):
    shape = "I"
    fields = ("l", "h", "b1", "b2", "t1", "t2", "t3")


PROFILE_TYPES: dict[str, type[Profile]] = {
    cls.shape: cls for cls in (RectangularProfile, CircularProfile, PipeProfile, IProfile)
}


def checked_dimensions(shape: str, name: str, values: dict[str, Any]) -> dict[str, float]:
    """The profile's dimensions as floats; a bad one raises ValueError naming it."""
    kind = PROFILE_TYPES[shape].__name__
    prefix = f"{kind} '{name}'"
    if shape == "I":
        dims = {"l": finite(values["l"], f"{prefix}: l")}
        for field in ("h", "b1", "b2", "t1", "t2", "t3"):
            dims[field] = positive(values[field], f"{prefix}: {field}")
        if dims["t1"] + dims["t2"] >= dims["h"]:
            raise ValueError(f"{prefix}: t1 + t2 must be less than h; got "
                             f"{dims['t1']!r} + {dims['t2']!r} >= {dims['h']!r}")
        if dims["t3"] >= min(dims["b1"], dims["b2"]):
            raise ValueError(f"{prefix}: t3 must be less than b1 and b2; got {dims['t3']!r}")
        return dims
    dims = {field: positive(values[field], f"{prefix}: {field}")
            for field in PROFILE_TYPES[shape].fields}
    if shape == "pipe" and dims["t"] >= dims["r"]:
        raise ValueError(f"{prefix}: t must be less than r; got t={dims['t']!r}, "
                         f"r={dims['r']!r}")
    return dims


class HomogeneousShellSection:
    """A shell section: ``name``, ``material``, ``thickness``; ``kind == "shell"``."""

    kind = "shell"

    def __init__(self, name: str, material: str, thickness: float) -> None:
        self.name = name
        self.material = material
        self.thickness = thickness

    def _rename(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return (f"HomogeneousShellSection({self.name!r}, material={self.material!r}, "
                f"thickness={self.thickness!r})")


class BeamSection:
    """A beam section: ``name``, ``material``, ``profile`` (a profile name); ``kind == "beam"``."""

    kind = "beam"

    def __init__(self, name: str, material: str, profile: str) -> None:
        self.name = name
        self.material = material
        self.profile = profile

    def _rename(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return (f"BeamSection({self.name!r}, material={self.material!r}, "
                f"profile={self.profile!r})")
