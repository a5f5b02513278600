"""A step that writes a quantity the request states in another unit as the bare number
("density 7850 kg/m3" written 7850 in a model of t/mm³): the product stated the converted
value on the design request, so the step is asked again naming both (docs/architecture.md §4
"One repair before Review"). Only where the step does not carry the converted value too."""

from __future__ import annotations

from dataclasses import dataclass

from sam_plugin.compilers.spec.ir import Spec
from sam_plugin.compilers.spec.provenance import close, numbers_in_data
from sam_plugin.compilers.spec.request_quantities import StatedQuantity, quantities_in
from sam_plugin.compilers.units import UnitSystem


@dataclass(frozen=True)
class Unconverted:
    """Step ``step`` (0-based) writes ``quantity`` bare; ``converted`` is its value here."""

    step: int
    quantity: StatedQuantity
    converted: float


def unconverted(spec: Spec, request: str, system: UnitSystem | None) -> Unconverted | None:
    """The first step that writes a quantity of the request unconverted, else None."""
    if system is None:
        return None
    for quantity in quantities_in(request):
        converted = quantity.value_in(system)
        if converted is None or not quantity.differs_from(system) or \
                close(converted, quantity.value):
            continue
        for index, step in enumerate(spec.steps):
            numbers = numbers_in_data([step.values,
                                       step.scope.model_dump(mode="json") if step.scope else {}])
            if any(close(quantity.value, n) for n in numbers) and \
                    not any(close(converted, n) for n in numbers):
                return Unconverted(index, quantity, converted)
    return None
