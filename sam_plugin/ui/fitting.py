"""Fitting the dock into small screens: what scrolls instead of growing the window, and text
that wraps instead of widening the dock (docs/ui.md "Small screens").

A dock's minimum size becomes the host window's: a plan view, a preview and a result table
stacked in a 640-pixel screen would push the window past the screen's bottom edge (and
squeeze widgets over one another). Content that can grow lives in a vertical-only scroll
area, and long unbreakable words (paths, URLs, fingerprints) get break opportunities, so the
dock keeps the width the host gave it.
"""

from __future__ import annotations

import re

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QScrollArea, QSizePolicy, QWidget

# a run of this many characters without a space gets break opportunities
LONG_WORD = 24
_LONG = re.compile(rf"\S{{{LONG_WORD},}}")
_BREAK_AFTER = re.compile(r"([/\\_.,:=&?-])")
ZERO_WIDTH_SPACE = "\u200b"


def vertical_scroll(widget: QWidget, name: str, minimum_height: int = 40) -> QScrollArea:
    """``widget`` in a frameless scroll area that scrolls up and down, never sideways: its
    width follows the dock, its height may exceed what the dock has."""
    area = QScrollArea()
    area.setObjectName(name)
    area.setWidgetResizable(True)
    area.setFrameShape(QScrollArea.Shape.NoFrame)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    area.setWidget(widget)
    area.setMinimumHeight(minimum_height)
    return area


def breakable(text: str) -> str:
    """``text`` with a zero-width space after the separators of every long word, so a word
    wrapped label can break a path or URL instead of widening its dock."""
    return _LONG.sub(lambda m: _break_word(m.group(0)), text)


def _break_word(word: str) -> str:
    pieces = _BREAK_AFTER.sub(r"\1" + ZERO_WIDTH_SPACE, word).split(ZERO_WIDTH_SPACE)
    chunked = [ZERO_WIDTH_SPACE.join(piece[i:i + LONG_WORD]
                                     for i in range(0, len(piece), LONG_WORD)) or piece
               for piece in pieces]
    return ZERO_WIDTH_SPACE.join(chunked)


def unbreakable(text: str) -> str:
    """The text as it was before :func:`breakable` (for tests and copying)."""
    return text.replace(ZERO_WIDTH_SPACE, "")


def wrap_in_width(label: QLabel) -> QLabel:
    """A word-wrapped label whose width the layout decides (its text never widens it)."""
    label.setWordWrap(True)
    policy = label.sizePolicy()
    policy.setHorizontalPolicy(QSizePolicy.Policy.Ignored)
    label.setSizePolicy(policy)
    label.setMinimumWidth(1)
    return label
