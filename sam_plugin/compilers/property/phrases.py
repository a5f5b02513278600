"""The Property plan's words, as phrases (``sam_plugin/words/phrase.py``): materials,
sections, assignments and orientations, in the record and the dock's English and Chinese."""

from __future__ import annotations

from sam_plugin.compilers.property.actions import VOCABULARY
from sam_plugin.compilers.spec.render import step_entry
from sam_plugin.words.phrase import Catalogue, register

CATALOGUE: Catalogue = {
    "property.material": {"record": "material {name}: E {E}, nu {nu}",
                          "en": "material {name}: E {E}, ν {nu}",
                          "zh_CN": "材料 {name}：E {E}，ν {nu}"},
    "property.material_density": {
        "record": "material {name}: E {E}, nu {nu}, density {density}",
        "en": "material {name}: E {E}, ν {nu}, density {density}",
        "zh_CN": "材料 {name}：E {E}，ν {nu}，密度 {density}"},
    "property.shell": {
        "record": "section {name} (shell, thickness {thickness}) of material {material}",
        "en": "shell section {name}, thickness {thickness}, of material {material}",
        "zh_CN": "壳截面 {name}，厚度 {thickness}，材料 {material}"},
    "property.beam": {
        "record": "section {name} (beam, {shape} profile {dimensions|, }) of material "
                  "{material}",
        "en": "beam section {name}, {shape} profile {dimensions|, }, of material {material}",
        "zh_CN": "梁截面 {name}，{shape} 型材 {dimensions|, }，材料 {material}"},
    "property.dimension": {"record": "{name} {value}", "en": "{name} {value}",
                           "zh_CN": "{name} {value}"},
    "property.assign": {"record": "assign section {name} to elements {which}",
                        "en": "assign section {name} to {which}",
                        "zh_CN": "将截面 {name} 赋予{which}"},
    "property.orient": {"record": "orient beams {which} with n1 {n1}",
                        "en": "orient {which} with n1 = {n1}",
                        "zh_CN": "设置{which}的方向 n1 = {n1}"},
    "property.replaces": {"record": "replaces section {names} on",
                          "en": "takes section {names} off", "zh_CN": "移除截面 {names}"},
    "property.basis": {
        "record": "exact: the geometry unchanged, the sections and orientations the calls give "
                  "the elements they pick; the definitions they write read back by value",
        "en": "After is exact: the geometry stays as it is; the elements picked get the "
              "sections and orientations of these operations, and the definitions they write "
              "are read back by value.",
        "zh_CN": "“之后”是精确的：几何保持不变；选中的单元获得这些操作给出的截面和方向，它们写入的"
                 "定义按数值回读。"},
    "tool.define_property": {"record": "define_property",
                             "en": "define materials and sections", "zh_CN": "定义材料和截面"},
    "tool.assign_property": {"record": "assign_property", "en": "assign sections",
                             "zh_CN": "指派截面"},
    "tool.audit_property": {"record": "audit_property", "en": "audit the properties",
                            "zh_CN": "审计属性"},
    # -- the value checks: a value the calls set, read back by name --
    "property.check.material": {"record": "material {name} {field}",
                                "en": "material {name} {field}",
                                "zh_CN": "材料 {name} {field}"},
    "property.check.section": {"record": "section {name} {field}",
                               "en": "section {name} {field}", "zh_CN": "截面 {name} {field}"},
    "property.field.E": {"record": "E", "en": "E", "zh_CN": "E"},
    "property.field.ν": {"record": "ν", "en": "ν", "zh_CN": "ν"},
    "property.field.density": {"record": "density", "en": "density", "zh_CN": "密度"},
    "property.field.thickness": {"record": "thickness", "en": "thickness", "zh_CN": "厚度"},
    "property.field.material": {"record": "material", "en": "material", "zh_CN": "材料"},
    "property.field.profile": {"record": "profile", "en": "profile", "zh_CN": "剖面"},
    "property.field.dimension": {"record": "profile {dimension}",
                                 "en": "profile {dimension}", "zh_CN": "剖面 {dimension}"},
}
register(CATALOGUE)
register({"property.step": step_entry(VOCABULARY)})
