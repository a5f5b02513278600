"""Quantities a request states with a unit, and their values in a model's units
(compilers/spec/request_quantities.py); a unit other than the model's is a Review warning
(compilers/spec/provenance.py). The tables grow with every finding."""

from __future__ import annotations

import pytest

from sam_plugin.compilers.spec.provenance import unit_mismatches
from sam_plugin.compilers.spec.request_quantities import quantities_in, system_unit
from sam_plugin.compilers.units import SYSTEMS, unit_system
from tests.support.specs import named_set, spec, step

MM = unit_system("mm-N-t-s")
M = unit_system("m-N-kg-s")

# (request, [(value, unit, kind)])
READ = [
    ("Move set S1 by 5 cm along X.", [(5.0, "cm", "length")]),
    ("Move by 0.5 m and 20mm.", [(0.5, "m", "length"), (20.0, "mm", "length")]),
    ("Use E = 210 GPa and a yield of 355 MPa.", [(210.0, "GPa", "stress"),
                                                  (355.0, "MPa", "stress")]),
    ("Apply 3 kN, then 40 N.", [(3.0, "kN", "force"), (40.0, "N", "force")]),
    ("Apply ５ ｋＮ.", [(5.0, "kN", "force")]),
    ("将集合 S1 沿 X 平移 5 厘米", [(5.0, "cm", "length")]),
    ("弹性模量 210 吉帕", [(210.0, "GPa", "stress")]),
    ("Move 5 in the X direction.", []),
    ("Delete 5 Nodes and 2 mystery elements.", []),
    ("Move set S1 by 5 along X.", []),
]


@pytest.mark.parametrize(("request_text", "expected"), READ)
def test_the_quantities_a_request_states(request_text, expected):
    assert [(q.value, q.unit, q.kind) for q in quantities_in(request_text)] == expected


@pytest.mark.parametrize(("request_text", "system", "words"), [
    ("by 5 cm", MM, "5 cm = 50 mm in this model"),
    ("by 0.5 m", MM, "0.5 m = 500 mm in this model"),
    ("by 20 mm", M, "20 mm = 0.02 m in this model"),
    ("E = 210 GPa", MM, "210 GPa = 210000 MPa in this model"),
    ("a force of 3 kN", MM, "3 kN = 3000 N in this model"),
    ("a force of 3 kN", unit_system("mm-kN-kg-ms"), "3 kN = 3 kN in this model"),
])
def test_a_quantity_in_the_models_units(request_text, system, words):
    (quantity,) = quantities_in(request_text)
    assert quantity.conversion_words(system) == words


def test_each_system_says_its_force_unit():
    assert [system_unit(s, "force") for s in SYSTEMS] == ["N", "N", "kN", "lbf"]


def test_a_unit_other_than_the_models_is_a_warning_with_the_converted_value():
    bare = spec(step("translate", named_set("S1"), vector=[5, 0, 0]))
    assert [m.words() for m in unit_mismatches(["Move set S1 by 5 cm along X."], bare, MM)] \
        == ["the request says 5 cm, and this model's lengths are in mm: 5 cm = 50 mm in this "
            "model; a step's number is taken in the model's units, so check that the steps "
            "use 50 (edit the step if they do not)"]
    converted = spec(step("translate", named_set("S1"), vector=[50, 0, 0]))
    assert unit_mismatches(["Move set S1 by 5 cm along X."], converted, MM) == []
    assert unit_mismatches(["Move set S1 by 5 mm along X."], bare, MM) == []
    assert unit_mismatches(["Move set S1 by 5 cm along X."], bare, None) == []
