"""What a mode does not do: a refused request names one category (docs/architecture.md)."""

from typing import Literal, get_args

RefusalCategory = Literal[
    "load",
    "boundary_condition",
    "contact",
    "analysis_step",
    "job",
    "material",
    "section",
    "geometry",
    "mesh_generation",
    "other",
]
REFUSAL_CATEGORIES: tuple[RefusalCategory, ...] = get_args(RefusalCategory)
