"""The words of the second signal (docs/architecture.md §4 "The design, asked in parts"),
as data: per refusal category, the phrases that *ask* for it. The words that name something a
mode does are its domain's (``DomainModule.does_words``), built of the pieces here.
``out_of_mode.py`` reads them.

A phrase that asks is a verb with its object, or a term of art that has no other meaning in a
mesh pre-processor ("Young's modulus", "boundary condition", "分析步"): never a bare word that
an edit uses innocently ("fix the duplicate nodes", "load the part", "the section of the
plate", "remove the excess material", "the thickness of the plate"). Each is matched on the
folded request (``request_words.fold``), case-insensitive, in English and Chinese.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from sam_plugin.compilers.spec.refusal_category import RefusalCategory

_GAP = r"[^.;,:!?。，；：！？]{0,30}?"  # a few words within one clause
_ZH_GAP = r"[^。，；：！？,.;:]{0,10}?"
# a build's object may follow its sizes ("建一块 100 × 50 的板", "build a 1.2 m by 80 cm plate")
WIDE = r"[^;:!?。，；：！？]{0,50}?"
ZH_WIDE = r"[^。，；：！？,;:]{0,24}?"
_NUMBER = r"\d[\d.,]*(?:e[-+]?\d+)?"


@dataclass(frozen=True)
class Asks:
    """A phrase that asks for a category; ``not_in``: modes where the same words ask for
    something the mode does (a tri mesh is built in Part mode)."""

    pattern: str
    not_in: tuple[str, ...] = ()


ASKS: Mapping[RefusalCategory, tuple[Asks, ...]] = {
    "load": (
        Asks(rf"\b(?:apply|applies|applied|add|put|place|impose|exert)\b{_GAP}"
             r"\b(?:loads?|pressures?|forces?|tractions?|moments?|torques?|gravity)\b"),
        Asks(r"\b(?:pressure|point|distributed|concentrated|surface|line|body|gravity|"
             r"uniform|tip|end|shear|axial|bending) (?:loads?|forces?)\b"),
        Asks(rf"\b{_NUMBER}\s*(?:pa|kpa|mpa|gpa|psi|bar)\s+(?:of\s+)?pressure\b"),
        Asks(rf"\b{_NUMBER}\s*(?:n|kn|mn|lbf|newtons?|kilonewtons?)\b{_GAP}"
             r"\b(?:force|load|pull|push)\b"),
        Asks(r"\bload (?:the )?(?:top|bottom|left|right|free|tip|outer|inner|upper|lower)"
             r" (?:edge|end|face|side|nodes?)\b"),
        Asks(r"载荷|荷载|集中力|分布力|均布力|面力|压强|弯矩|扭矩"),
        Asks(rf"(?:施加|加上?|作用){_ZH_GAP}(?:拉力|压力|推力|剪力|力矩|(?<![自能动])力)"),
        Asks(rf"{_NUMBER}\s*(?:n|kn|牛顿?|千牛)\s*的?\s*(?:拉力|压力|推力|力)"),
    ),
    "boundary_condition": (
        Asks(r"\bboundary conditions?\b|\bbcs?\b(?= (?:on|at|to)\b)"),
        Asks(r"\b(?:clamp|clamps|clamped|clamping|encastre|encastré)\b"),
        Asks(r"\bpin(?:s|ned)?\b (?:the |its |both |all )?(?:\w+ ){0,2}"
             r"(?:edges?|ends?|sides?|base|corners?|supports?|boundary)\b"),
        Asks(r"\b(?:simple|simply|fixed|pinned|roller|rigid) supports?\b|\bsimply supported\b"),
        Asks(r"\bfixed (?:edge|end|side|base|boundary|support|bc|constraint)s?\b"),
        Asks(r"\b(?:restrain|restrained|constrain|constrained)\b(?! to\b)"),
        Asks(r"\bso (?:that )?(?:it|they|the \w+) (?:can't|cannot|can not|won't|doesn't) "
             r"(?:move|translate|rotate)\b"),
        Asks(r"\b(?:dofs?|degrees? of freedom)\b|\b(?:prescribed|imposed|enforced) "
             r"displacements?\b|\bsymmetry (?:condition|boundary|bc)s?\b"),
        Asks(r"边界条件|固支|铰支|简支|支座|自由度|固定住|(?<!不受)(?<!无)约束"),
        Asks(rf"固定{_ZH_GAP}(?:端|边|面)|(?:端|边|面)(?:全部)?固定"),
    ),
    "contact": (
        Asks(r"\b(?:contacts?|friction|frictional|frictionless)\b"),
        Asks(r"\btie (?:constraint|them|the (?:two|surfaces|plates|parts))\b"),
        Asks(r"接触|摩擦|绑定约束"),
    ),
    "analysis_step": (
        Asks(r"\b(?:static|dynamic|frequency|modal|buckle|buckling|explicit|implicit|"
             r"heat transfer|analysis|initial|load|perturbation|general static) steps?\b"),
        Asks(r"\b(?:static|modal|frequency|buckling|dynamic|eigenvalue|transient|"
             r"nonlinear|non-linear|thermal) analys[ie]s\b"),
        Asks(r"分析步|(?:静力|静态|动力|动态|频率|模态|屈曲|初始)(?:分析)?步|"
             r"(?:静力|模态|频率|屈曲|动力|瞬态)分析"),
    ),
    "job": (
        Asks(rf"\b(?:submit|run|launch|start|solve|execute)\b{_GAP}"
             r"\b(?:jobs?|analys[ie]s|solver|simulations?|calculations?|the model)\b"),
        Asks(r"\bjobs?\b|\banalysis (?:finishes|finished|is done|completes|results?)\b"),
        Asks(r"\b(?:von mises|odb|output database|reaction forces?|stresses|"
             r"stress (?:results?|contours?|plots?)|(?:max|maximum|peak) stress)\b"),
        Asks(rf"提交{_ZH_GAP}(?:作业|计算|分析)|作业|求解|运行{_ZH_GAP}(?:分析|计算|作业)|"
             r"计算结果|应力云图|最大应力|米塞斯"),
    ),
    "material": (
        Asks(r"\b(?:young's|youngs|young|elastic|elasticity) modul(?:us|i)\b|"
             r"\bpoisson'?s? ratio\b|\bmass density\b"),
        Asks(r"\bmaterials? (?:properties|property|data|model|definition|named|called)\b"),
        Asks(rf"\b(?:define|defining|create|assign|set|give|new|change)\b{_GAP}\bmaterials?\b"),
        Asks(rf"\bassign\b{_GAP}\b(?:steel|alumin(?:i)?um|titanium|copper|concrete)\b"),
        Asks(rf"\bdensity\b{_GAP}{_NUMBER}\s*(?:kg|t|g)/|\b(?:kg/m|t/mm|g/cm)(?:3|³|\^3)"),
        # a density given a value, without its unit ("set the density of the plate to 2700");
        # a mesh's or an element's density is a refinement, not a material's
        Asks(rf"(?<!mesh\s)(?<!element\s)(?<!node\s)\bdensity\b(?:\s+of\s+(?:the\s+|this\s+)?"
             rf"\w+(?:\s+\w+)?)?\s*(?:to|=|:|is|at|of|becomes)?\s*{_NUMBER}"
             r"(?!\s*(?:elements?|elems?|nodes?|cells?|per\b|x\b|×|by\b|times\b))"),
        Asks(rf"(?<!网格)(?<!单元)(?<!节点)密度\s*(?:设为|改为|改成|设成|设置为|为|是|=|：|:)?\s*"
             rf"{_NUMBER}(?!\s*(?:个|倍|x|×))"),
        Asks(r"弹性模量|杨氏模量|泊松比|质量密度|材料(?:属性|参数|特性|的?密度)"),
        Asks(rf"(?:定义|新建|创建|赋予?|指定|设置|设定|改成|改为|换成){_ZH_GAP}材料|"
             rf"材料{_ZH_GAP}(?:改成|改为|设为|设成|换成)"),
    ),
    "section": (
        Asks(r"\b(?:shell|beam|solid|truss|membrane|pipe|box|rectangular|circular|"
             r"i-?beam|i) sections?\b|\bi-sections?\b"),
        Asks(r"\bsection (?:assignments?|properties|property|orientation|thickness)\b"),
        Asks(rf"\b(?:assign|assigning|apply|give)\b{_GAP}\bsections?\b"),
        Asks(r"\bshell thickness\b|\bbeam profile\b|\b(?:pipe|box|i|rectangular|circular) "
             r"profile\b"),
        Asks(r"(?:壳|梁|实体|矩形|圆形?|工字|管|箱形?)截面|截面(?:属性|指派|赋予|厚度|方向)"),
        Asks(rf"(?:赋|指定|分配|指派){_ZH_GAP}截面|截面{_ZH_GAP}(?:赋给|指定给|分配给)"),
    ),
    "geometry": (
        Asks(r"(?<!-)\b(?:move|moved|moving|translate|shift|offset|rotate|turn|spin|mirror|"
             r"reflect|flip|copy|duplicate|delete|remove|erase|merge|stitch|scale|enlarge|"
             rf"shrink|lift|raise|lower|drag)\b(?!-){_GAP}\b(?:nodes?|elements?|elems?|"
             r"the part|the plate|the model|the geometry|everything|the whole (?:part|thing|"
             r"model|plate))\b"),
        Asks(rf"\b(?:add|create|build)\b{_GAP}\b(?:(?:free |loose )?nodes?|elements?|elems?|"
             r"quads?|tris?|triangles?|plates?)\b"),
        Asks(rf"\b(?:rotate|turn|spin)\b{_GAP}\b(?:{_NUMBER}\s*(?:deg|degrees|°)|"
             r"about (?:the )?[xyz][- ]?axis)\b"),
        Asks(rf"(?:平移|移动|挪|旋转|镜像|复制|阵列|删除|删掉|缩放|放大|缩小)"
             rf"|绕{_ZH_GAP}轴{_ZH_GAP}转|合并{_ZH_GAP}节点"),
    ),
    "mesh_generation": (
        Asks(r"\bcoarsen\w*\b|\bcoarser\b|\bre-?mesh\w*\b|\bmesh (?:it|the part|the plate|"
             r"this) again\b"),
        Asks(r"\b(?:element|mesh|seed) sizes?\b|\bglobal seeds?\b", not_in=("part",)),
        Asks(rf"\b(?:convert|change|swap|switch|turn|replace)\b{_GAP}\b(?:to|into|for|with)\s+"
             r"(?:tri|tris|triangles?|triangular|quads?|quadrilaterals?|hex\w*|tet\w*)\b"),
        Asks(r"\b(?:tri|triangle|triangular|quad|quadrilateral|hex|tet)[- ]?mesh\b",
             not_in=("part",)),
        Asks(r"粗化|变粗|重新划分网格|重划网格|重新网格划分|网格重划|重新剖分"),
        Asks(r"(?:单元|网格)尺寸|单元类型", not_in=("part",)),
        Asks(r"\belement types?\b|\b(?:quadratic|second[- ]order|reduced[- ]integration) "
             r"elements?\b", not_in=("part",)),
        Asks(rf"(?:换成|改成|转成|转换成|转换为|变成){_ZH_GAP}(?:三角形|四边形)"),
    ),
    "other": (
        Asks(r"\bexport(?:s|ed|ing)?\b|\bimport(?:s|ed|ing)?\b|"
             r"\bsave (?:it |this |the (?:model|part|file) )?as\b|"
             r"\.(?:inp|cae|odb|stl|stp|iges|igs)\b"),
        Asks(r"另存为|导出|导入|保存为"),
    ),
}

# a request that asks to audit, check or count names what every mode does (each mode's own
# ``DOES_WORDS`` hold it beside its other words)
AUDIT_WORDS = (r"\b(?:audit|check|checks|inspect|verify|report|count|how many|list)\b|"
               r"检查|审计|统计|查一下|查查|看看|报告|多少")
