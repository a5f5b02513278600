"""The offline SAM's symbolic constants (Abaqus-like ``abaqusConstants``).

A script sees none of these names until it imports this module: ``sam`` never injects
anything into ``builtins``.

Every constant is a singleton per name: pickling, ``copy`` and ``deepcopy`` hand back the
same object, and equality and hashing go by name, so a constant that crossed a process
boundary still compares equal.
"""

from __future__ import annotations

from typing import Any


class SymbolicConstant:
    """A named enumeration value; ``str()`` is its name and ``repr()`` is unquoted."""

    __slots__ = ("name", "_hash")

    _registry: dict[str, SymbolicConstant] = {}

    def __new__(cls, name: str) -> SymbolicConstant:
        existing = SymbolicConstant._registry.get(name)
        if existing is not None:
            return existing
        if not isinstance(name, str) or not name:
            raise ValueError(f"a symbolic constant needs a non-empty name; got {name!r}")
        constant = super().__new__(cls)
        object.__setattr__(constant, "name", name)
        object.__setattr__(constant, "_hash", hash(("SymbolicConstant", name)))
        SymbolicConstant._registry[name] = constant
        return constant

    def __setattr__(self, key: str, value: Any) -> None:
        raise AttributeError(f"symbolic constant {self.name} is read-only")

    def __repr__(self) -> str:
        return self.name

    def __str__(self) -> str:
        return self.name

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if isinstance(other, SymbolicConstant):
            return self.name == other.name
        return NotImplemented

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (_constant, (self.name,))

    def __copy__(self) -> SymbolicConstant:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> SymbolicConstant:
        return self


class BooleanSymbolicConstant(SymbolicConstant):
    """``ON`` and ``OFF``: symbolic constants that also act as booleans (as in Abaqus)."""

    __slots__ = ()

    def __bool__(self) -> bool:
        return self.name == "ON"


def _constant(name: str) -> SymbolicConstant:
    """Unpickling hook: the live singleton of ``name``."""
    existing = SymbolicConstant._registry.get(name)
    if existing is not None:
        return existing
    if name in ("ON", "OFF"):
        return BooleanSymbolicConstant(name)
    return SymbolicConstant(name)


ON = BooleanSymbolicConstant("ON")
OFF = BooleanSymbolicConstant("OFF")

# element shapes of the mesh API
QUAD = SymbolicConstant("QUAD")
TRI = SymbolicConstant("TRI")
BEAM = SymbolicConstant("BEAM")

# beam orientation methods
N1_COSINES = SymbolicConstant("N1_COSINES")

# a degree of freedom a displacement boundary condition leaves free
UNSET = SymbolicConstant("UNSET")

# a few other Abaqus-like values scripts commonly pass around
THREE_D = SymbolicConstant("THREE_D")
TWO_D_PLANAR = SymbolicConstant("TWO_D_PLANAR")
DEFORMABLE_BODY = SymbolicConstant("DEFORMABLE_BODY")
ISOTROPIC = SymbolicConstant("ISOTROPIC")
MIDDLE_SURFACE = SymbolicConstant("MIDDLE_SURFACE")
FROM_SECTION = SymbolicConstant("FROM_SECTION")
STANDARD_EXPLICIT = SymbolicConstant("STANDARD_EXPLICIT")

__all__ = [
    "BEAM",
    "DEFORMABLE_BODY",
    "FROM_SECTION",
    "ISOTROPIC",
    "MIDDLE_SURFACE",
    "N1_COSINES",
    "OFF",
    "ON",
    "QUAD",
    "STANDARD_EXPLICIT",
    "THREE_D",
    "TRI",
    "TWO_D_PLANAR",
    "UNSET",
    "BooleanSymbolicConstant",
    "SymbolicConstant",
]
