"""Changes crafted against a weighted sum of a record's fields: the reviewer's collision
generators, written against the fingerprint the plugin had before it was a hash.

That fingerprint mixed each record as ``mix(label key + sum(field * weight))`` modulo 2**64,
with fixed public weights: a coordinate's bits times ``AXES[axis]``, connectivity position
``i`` times ``CONNECTIVITY * (2i + 1)``. Any change whose weighted field deltas sum to zero
modulo 2**64 left every record hash, hence the fingerprint, as it was. The generators here
make such changes; a fingerprint that is a hash must see every one of them.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from fractions import Fraction

MODULUS = 1 << 64
AXES = (0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9, 0x27D4EB2F165667C5)
CONNECTIVITY = 0x8CB92BA72F3D8DD7

Vec3 = tuple[float, float, float]


def bits(value: float) -> int:
    return int.from_bytes(struct.pack("<d", value), "little")


def value_of(pattern: int) -> float:
    return float(struct.unpack("<d", (pattern % MODULUS).to_bytes(8, "little"))[0])


def weighted(point: Vec3) -> int:
    """The old fingerprint's weighted sum of a node's coordinate bits."""
    return sum(bits(v) * w for v, w in zip(point, AXES, strict=True)) % MODULUS


def connectivity_weighted(row: tuple[int, ...]) -> int:
    return sum(label * ((CONNECTIVITY * (2 * i + 1)) % MODULUS | 1)
               for i, label in enumerate(row)) % MODULUS


def shifted_connectivity(row: tuple[int, ...], i: int = 0, j: int = 1,
                         step: int = 1) -> tuple[int, ...]:
    """``row`` with position ``i`` raised by ``(2j + 1) * step`` and position ``j`` lowered
    by ``(2i + 1) * step``: (a, b, c, d) -> (a + 3, b - 1, c, d) for the defaults."""
    out = list(row)
    out[i] += (2 * j + 1) * step
    out[j] -= (2 * i + 1) * step
    return tuple(out)


def _reduced(basis: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Lagrange-Gauss reduction of a 2-D lattice basis."""
    u, v = basis

    def norm(w: tuple[int, int]) -> int:
        return w[0] * w[0] + w[1] * w[1]

    if norm(u) > norm(v):
        u, v = v, u
    while True:
        m = round(Fraction(u[0] * v[0] + u[1] * v[1], norm(u)))
        v = (v[0] - m * u[0], v[1] - m * u[1])
        if norm(v) >= norm(u):
            return [u, v]
        u, v = v, u


def _small_solutions(weight_a: int, weight_b: int, target: int) -> Iterator[tuple[int, int]]:
    """Pairs (da, db), small first, with ``da * weight_a + db * weight_b == target`` modulo
    2**64 (``weight_b`` odd): the lattice of solutions of the homogeneous equation, reduced,
    and the lattice points around Babai's rounding of a particular solution."""
    inverse = pow(weight_b, -1, MODULUS)
    u, v = _reduced([(1, (-weight_a * inverse) % MODULUS), (0, MODULUS)])
    point = (0, (target * inverse) % MODULUS)
    det = u[0] * v[1] - u[1] * v[0]
    cu = round(Fraction(point[0] * v[1] - point[1] * v[0], det))
    cv = round(Fraction(u[0] * point[1] - u[1] * point[0], det))
    found = []
    for du in range(-3, 4):
        for dv in range(-3, 4):
            a, b = cu + du, cv + dv
            found.append((point[0] - a * u[0] - b * v[0], point[1] - a * u[1] - b * v[1]))
    yield from sorted(found, key=lambda pair: abs(pair[0]) + abs(pair[1]))


def compensated(point: Vec3, axis: int, new_value: float,
                free: tuple[int, int] | None = None) -> Vec3:
    """``point`` with ``axis`` set to ``new_value`` (any bits: +11, or NaN) and the bits of
    the two other coordinates nudged so that the old weighted sum stays equal; the nudged
    values stay finite and within 1e-3 of what they were."""
    a, b = free or tuple(k for k in range(3) if k != axis)
    target = (-(bits(new_value) - bits(point[axis])) * AXES[axis]) % MODULUS
    for da, db in _small_solutions(AXES[a], AXES[b], target):
        out = list(point)
        out[axis] = new_value
        out[a] = value_of(bits(point[a]) + da)
        out[b] = value_of(bits(point[b]) + db)
        if all(abs(out[k] - point[k]) < 1e-3 for k in (a, b)):
            result = (out[0], out[1], out[2])
            assert weighted(result) == weighted(point)
            return result
    raise AssertionError(f"no compensating nudge found for {point}")
