"""Wire schemas (docs/architecture.md §4) and descriptions of the three Property tools.

The descriptions tell the model that every value is in the model's own consistent unit
system: the plugin converts nothing.
"""

from __future__ import annotations

from typing import Any

from sam_plugin.compilers import schema_common as sc

UNITS = (
    "All values are in the model's own consistent unit system (for example N, mm, MPa, "
    "t/mm^3, or N, m, Pa, kg/m^3) exactly as the confirmed spec states them; nothing is "
    "converted."
)


def _positive(description: str) -> dict[str, Any]:
    return sc.number(description, exclusive_minimum=0, maximum=sc.POSITIVE_VALUE_MAX)


def _material() -> dict[str, Any]:
    return sc.obj(
        {
            "name": sc.name("material name"),
            "youngs_modulus": _positive("Young's modulus E > 0, in the model's stress unit"),
            "poisson_ratio": sc.number("Poisson's ratio, strictly between -1 and 0.5"),
            "density": _positive("mass density > 0 in the model's units; omit if not given"),
        },
        ["name", "youngs_modulus", "poisson_ratio"],
    )


def _profiles() -> dict[str, Any]:
    return {
        "anyOf": [
            sc.tagged("shape", "rectangle", {"a": _positive("width along the 1-axis"),
                                              "b": _positive("height along the 2-axis")},
                      ["a", "b"]),
            sc.tagged("shape", "circle", {"r": _positive("radius")}, ["r"]),
            sc.tagged("shape", "pipe", {"r": _positive("outer radius"),
                                         "t": _positive("wall thickness, less than r")},
                      ["r", "t"]),
            sc.tagged(
                "shape", "I",
                {
                    "l": sc.number("offset of the section origin from the bottom flange, "
                                   "0 <= l <= h", minimum=0),
                    "h": _positive("total height"),
                    "b1": _positive("bottom flange width"),
                    "b2": _positive("top flange width"),
                    "t1": _positive("bottom flange thickness"),
                    "t2": _positive("top flange thickness (t1 + t2 < h)"),
                    "t3": _positive("web thickness (less than b1 and b2)"),
                },
                ["l", "h", "b1", "b2", "t1", "t2", "t3"],
            ),
        ],
        "description": "beam cross-section: rectangle {a,b} | circle {r} | pipe {r,t} | "
        "I {l,h,b1,b2,t1,t2,t3}",
    }


def _sections() -> dict[str, Any]:
    return {
        "anyOf": [
            sc.tagged("kind", "shell", {"name": sc.name("section name"),
                                         "material": sc.name("a material of this call or "
                                                             "of the model"),
                                         "thickness": _positive("shell thickness > 0")},
                      ["name", "material", "thickness"],
                      description="homogeneous shell section, for QUAD/TRI elements"),
            sc.tagged("kind", "beam", {"name": sc.name("section name"),
                                        "material": sc.name("a material of this call or "
                                                            "of the model"),
                                        "profile": _profiles()},
                      ["name", "material", "profile"],
                      description="beam section, for BEAM elements"),
        ],
        "description": "shell {name, material, thickness} or beam {name, material, profile}",
    }


DEFINE = sc.parameters(
    {
        "materials": sc.array(_material(), "isotropic elastic materials to create"),
        "sections": sc.array(_sections(), "sections to create"),
    }
)

ASSIGN = sc.parameters(
    {
        "assignments": sc.array(
            sc.obj({"section": sc.name("an existing section, or one defined in this run"),
                    "selection": sc.selector("the elements that get this section")},
                   ["section", "selection"]),
            "section per element group; shell sections go on QUAD/TRI only, beam sections "
            "on BEAM only; an element keeps exactly one section (a previous one is replaced)",
        ),
        "beam_orientations": sc.array(
            sc.obj({"selection": sc.selector("the BEAM elements to orient"),
                    "n1": sc.vec3("approximate beam 1-direction [x, y, z]; must not be "
                                  "parallel to any selected beam's axis")},
                   ["selection", "n1"]),
            "beam section orientations (n1 direction cosines) for BEAM elements",
        ),
    }
)

AUDIT = sc.parameters({})

SCHEMAS: dict[str, dict[str, Any]] = {
    "define_property": DEFINE,
    "assign_property": ASSIGN,
    "audit_property": AUDIT,
}

DESCRIPTIONS: dict[str, str] = {
    "define_property": (
        "Create materials (E, nu, optional density) and sections (shell with a thickness, "
        "beam with a rectangle/circle/pipe/I profile) in the target model. " + UNITS + " A "
        "name that already exists is an error unless the definition is identical (then it "
        "is left as it is and reported). Geometry is never changed."
    ),
    "assign_property": (
        "Assign sections to existing elements picked by selectors and set beam "
        "orientations (n1). Shell sections only on QUAD/TRI, beam sections only on BEAM; "
        "each element ends with exactly one section (an earlier assignment of a selected "
        "element is replaced and reported). n1 must not be parallel to a selected beam. "
        + UNITS + " Geometry is never changed."
    ),
    "audit_property": (
        "Read-only audit written to property_audit.json: unassigned elements, section/shape "
        "mismatches, beams without orientation, unused sections, materials without elastic "
        "data. Takes no arguments: {}."
    ),
}
