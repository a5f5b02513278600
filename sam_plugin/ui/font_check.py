"""Whether the dock's language can be drawn: a Chinese dock without a Chinese font is empty
boxes, so it says so — in English, the one text such a screen still shows (docs/ui.md)."""

from __future__ import annotations

from PySide6.QtGui import QFontDatabase

NO_CHINESE_FONT = (
    "No Chinese font is installed, so the Chinese interface shows empty boxes. Install one "
    "(for example Noto Sans CJK SC; on Debian or Ubuntu: sudo apt install fonts-noto-cjk) and "
    "restart SAM, or start SAM in English.")


def has_chinese_font() -> bool:
    return bool(QFontDatabase.families(QFontDatabase.WritingSystem.SimplifiedChinese))


def font_problem(language: str) -> str | None:
    """The notice for a UI language no installed font can draw, or None."""
    if language == "zh" and not has_chinese_font():
        return NO_CHINESE_FONT
    return None
