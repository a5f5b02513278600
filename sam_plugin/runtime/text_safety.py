"""Model text made safe to show: no terminal control characters, no bidi overrides.

Applied character by character, so a streamed chunk and the whole spec are filtered the same
way: what the dock or the terminal shows while streaming is what ``design.txt`` stores and what
is sent as the confirmed spec. Kept: line feeds and tabs. Dropped: the other C0 controls
(ESC starts terminal escape sequences, CR overwrites a line, BS erases), DEL, the C1
controls, and the Unicode bidi embeddings, overrides, isolates and marks (which can make text
read in another order than it is stored, "Trojan Source").
"""

from __future__ import annotations

_BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_DROPPED = {cp: None for cp in [*range(0x00, 0x20), *range(0x7F, 0xA0)] if cp not in (0x09, 0x0A)}
_DROPPED.update({ord(ch): None for ch in _BIDI})


_ESCAPED = {cp: f"\\u{cp:04x}" for cp in _DROPPED}


def visible_text(text: str) -> str:
    """``text`` without control characters and bidi formatting characters."""
    return text.translate(_DROPPED)


def visible_json(value: object, *, indent: int = 2) -> str:
    """``value`` as JSON for a terminal: the same data, with every character
    :func:`visible_text` drops written as a ``\\uXXXX`` escape (``json.dumps`` escapes the C0
    controls but leaves DEL, the C1 controls and the bidi characters raw)."""
    import json

    return json.dumps(value, indent=indent, ensure_ascii=False).translate(_ESCAPED)
