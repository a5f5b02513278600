"""pydantic types for the common IR values (docs/architecture.md §4), the typed side of
schema_common.

Normalization happens here: coordinates are rounded to a fixed precision so that equal calls
give equal script bytes, and enum strings are upper-cased.
"""

from __future__ import annotations

import math
from typing import Annotated, Literal

from pydantic import AfterValidator, BeforeValidator, ConfigDict, StringConstraints

from sam_plugin.compilers.schema_common import LOCAL_ID_PATTERN, NAME_PATTERN

COORDINATE_DIGITS = 12  # significant digits kept in a coordinate literal

IR_CONFIG = ConfigDict(frozen=True, extra="forbid")


def fixed_precision(value: float) -> float:
    if not math.isfinite(value):
        raise ValueError("must be a finite number")
    rounded = float(f"{value:.{COORDINATE_DIGITS}g}")
    return 0.0 if rounded == 0 else rounded


def _upper(value: object) -> object:
    return value.upper() if isinstance(value, str) else value


Coord = Annotated[float, AfterValidator(fixed_precision)]
Vec3 = tuple[Coord, Coord, Coord]
LocalId = Annotated[str, StringConstraints(pattern=LOCAL_ID_PATTERN)]
Name = Annotated[str, StringConstraints(pattern=NAME_PATTERN)]
ShapeName = Annotated[Literal["QUAD", "TRI", "BEAM"], BeforeValidator(_upper)]
SurfaceShape = Annotated[Literal["QUAD", "TRI"], BeforeValidator(_upper)]

