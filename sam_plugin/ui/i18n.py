"""UI strings through Qt's translation system, following the host's locale.

Every user-visible string goes through :func:`tr` (``QCoreApplication.translate`` in the
``SamAgent`` context). Translations live in Qt Linguist ``.ts`` files beside this module
(``translations/sam_agent_<locale>.ts``, editable with Linguist); they are read directly into
a small ``QTranslator`` so no compiled ``.qm`` has to be shipped or rebuilt.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QLocale, QTranslator

CONTEXT = "SamAgent"
TRANSLATIONS_DIR = Path(__file__).resolve().parent / "translations"
# Locales written in Simplified Chinese besides zh_CN (zh_TW/zh_HK use Traditional: English).
LOCALE_ALIASES = {"zh": "zh_CN", "zh_SG": "zh_CN", "zh_Hans": "zh_CN"}


def tr(text: str) -> str:
    """The translation of ``text`` for the installed locale (``text`` itself in English)."""
    return QCoreApplication.translate(CONTEXT, text)


def locale_name(locale: Any) -> str:
    """``zh_CN`` from a ``QLocale``, a string like ``zh_CN.UTF-8`` / ``zh-CN``, or ``None``."""
    if locale is None:
        return QLocale.system().name()
    if isinstance(locale, QLocale):
        return locale.name()
    return str(locale).split(".")[0].replace("-", "_") or "en_US"


def read_ts(path: Path) -> dict[tuple[str, str], str]:
    """``(context, source) -> translation`` from a Qt Linguist ``.ts`` file."""
    table: dict[tuple[str, str], str] = {}
    root = ET.parse(path).getroot()
    for context in root.iter("context"):
        name = context.findtext("name", default="")
        for message in context.iter("message"):
            source = message.findtext("source", default="")
            translation = message.find("translation")
            if translation is None or translation.get("type") in {"unfinished", "obsolete"}:
                continue
            if source and translation.text:
                table[(name, source)] = translation.text
    return table


class TsTranslator(QTranslator):
    """A ``QTranslator`` backed by a parsed ``.ts`` table."""

    def __init__(self, table: dict[tuple[str, str], str], language: str) -> None:
        super().__init__()
        self.table = table
        self.language_name = language

    def translate(self, context: str, source: str, disambiguation: Any = None,  # noqa: D102
                  n: int = -1) -> str | None:
        # None (a null QString) lets Qt fall back to the source text; "" would blank it.
        return self.table.get((context, source))

    def isEmpty(self) -> bool:  # noqa: N802 (Qt override)
        return not self.table


def translation_file(locale: Any) -> Path | None:
    """The ``.ts`` for ``locale`` (exact ``zh_CN``, then the language ``zh``), or ``None``."""
    name = locale_name(locale)
    language = name.split("_")[0]
    # A bare language falls back to its file, except Chinese: zh_TW must not get Simplified.
    for candidate in (name, LOCALE_ALIASES.get(name, ""), "" if language == "zh" else language):
        if not candidate:
            continue
        path = TRANSLATIONS_DIR / f"sam_agent_{candidate}.ts"
        if path.exists():
            return path
    return None


def install_translator(locale: Any) -> TsTranslator | None:
    """Install the translation for ``locale`` into the application; ``None`` for English."""
    path = translation_file(locale)
    app = QCoreApplication.instance()
    if path is None or app is None:
        return None
    translator = TsTranslator(read_ts(path), locale_name(locale))
    app.installTranslator(translator)
    return translator


def remove_translator(translator: TsTranslator | None) -> None:
    app = QCoreApplication.instance()
    if translator is not None and app is not None:
        app.removeTranslator(translator)


def shown_language() -> str:
    """``zh`` while the Chinese translation is installed, else ``en``: for words made outside
    the translation tables (a spec step rendered in both languages). The ``.ts`` translates
    the marker ``LANGUAGE`` to its own language code."""
    return "zh" if tr("LANGUAGE") == "zh" else "en"


def ui_language(locale: Any) -> str:
    """``zh`` for Chinese locales, else ``en``: the language the controller's prompts use."""
    return "zh" if locale_name(locale).lower().startswith("zh") else "en"
