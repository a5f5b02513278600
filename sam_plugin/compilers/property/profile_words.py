"""The words of a request that name a beam profile, as data (docs/architecture.md §4 "One
repair before Review"): per profile shape the vocabulary offers (``actions.PROFILE``), the
phrases that name it, in English and Chinese. ``profile_reading.py`` reads them.

A phrase names a profile by a noun a section is made of ("round bar", "pipe", "I-beam",
"圆钢", "工字钢") or a section of that shape ("circular section", "矩形截面"): never a bare
word a shell request uses too ("round plate", "rectangular region", "the section of the
plate"). A name the analyst gives is no word: ``ROD``, ``PIPE_1`` and ``RECT_B`` are read
out first (any token in capitals), except the abbreviations kept here. Each is matched on the
folded request (``request_words.fold``), case-insensitive.
"""

from __future__ import annotations

from collections.abc import Mapping

_OF = r"(?:bars?|rods?|stock|sections?|cross[- ]?sections?|profiles?|beams?|members?|shafts?)"
_ZH_OF = r"(?:的)?(?:截面|剖面|断面|梁|杆|钢(?!管)|型材)"
_ZH_IS = r"(?:截面|剖面|断面)(?:形状)?(?:为|是|取|用)?"

# shape -> the phrases that name a beam profile of that shape
PROFILE_WORDS: Mapping[str, tuple[str, ...]] = {
    "circle": (
        rf"\b(?:solid\s+)?round\s+{_OF}\b",
        r"\bsolid\s+(?:round|circular|circle|cylinder|cylindrical)\b",
        rf"(?<!hollow\s)\b(?:circular|cylindrical|circle)\s+{_OF}\b",
        r"\brods?\b",
        r"实心圆|圆钢(?!管)|圆棒|圆杆|(?<![空椭])圆形?" + _ZH_OF,
        _ZH_IS + r"(?:实心)?(?:圆形|圆(?!形))(?![管环])",
    ),
    "pipe": (
        r"\bpipes?\b|\btubes?\b|\btubing\b|\btubular\b",
        r"\bhollow\s+(?:round|circular|circle|cylindrical|bars?|rods?|shafts?)\b",
        r"\b(?:outer|outside)\s+(?:diameter|radius)\b|\bOD\b",
        r"圆管|钢管|管材|管子|管截面|管形|管状|空心圆|圆环|外径",
    ),
    "rectangle": (
        rf"(?<!hollow\s)\brect(?:angular|angle)?\s+{_OF}\b",
        rf"(?<!hollow\s)\bsquare\s+{_OF}\b",
        r"\bflat\s+bars?\b|\bsolid\s+(?:rectangle|rectangular|square)\b",
        r"(?<!空心)(?:长方形|矩形)" + _ZH_OF,
        _ZH_IS + r"(?:实心)?(?:长方形|矩形)",
        r"方钢(?!管)|扁钢|方形截面|方截面|实心方",
    ),
    "I": (
        r"\b[IH][- ]?(?:beams?|sections?|profiles?|shapes?|girders?|steel)\b",
        r"\bwide[- ]flange\b|\buniversal\s+(?:beams?|columns?)\b",
        r"工字|H[型形](?:钢|截面|梁)|宽翼缘",
    ),
}

# a beam section, of no shape the words say ("a beam section 20 wide and 40 high", "a bar")
BEAM_WORDS: tuple[str, ...] = (
    r"\bbeam\s+(?:sections?|profiles?|cross[- ]?sections?)\b(?!\s+orientation)",
    r"(?<![\d.])(?<![\d.]\s)\bbars?\b",
    r"梁截面(?!方向)|梁的截面(?!方向)",
)

# a dimension only a round profile has: a circle's, where no other shape is named
ROUND_DIMENSION_WORDS: tuple[str, ...] = (
    r"\bdiam(?:eter|\.)?\b|\bdia\b|[Øø⌀]|\bradius\b|\bradii\b",
    r"直径|半径",
)

# things with a diameter that are no beam profile: where the request names one, its
# diameter is read as nothing
NOT_A_PROFILE_WORDS: tuple[str, ...] = (
    r"\b(?:holes?|openings?|cut-?outs?|discs?|disks?|fillets?|circles?|arcs?|annul\w*)\b",
    r"孔|洞|圆盘|圆板|圆角|倒角|圆弧",
)

# words that name a shell (a plate, quads): a request that names one may ask for a shell
# section beside the beam profile, so a shell section it defines is no contradiction
SHELL_WORDS: tuple[str, ...] = (
    r"\bshells?\b|\bmembranes?\b|\bplates?\b|\bpanels?\b|\bskins?\b|\bsheets?\b",
    r"\bquads?\b|\bquadrilaterals?\b|\btris\b|\btriangles?\b|\btriangular\b",
    r"壳|板|蒙皮|四边形|三角形",
)

# abbreviations in capitals that are words, not names ("OD 60")
CAPITAL_WORDS: tuple[str, ...] = ("OD",)

# what each profile's dimensions are, as the fix says them
PROFILE_DIMENSIONS: Mapping[str, str] = {
    "circle": "r: the radius, half the diameter",
    "pipe": "r: the outer radius, half the outer diameter; t: the wall thickness",
    "rectangle": "a: the width; b: the height",
    "I": "l, h, b1, b2, t1, t2, t3",
}
