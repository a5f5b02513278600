"""A key twice in one JSON object: the one thing a JSON parser accepts silently.

``json.loads`` and pydantic-core both keep the last of two equal keys, so a database with two
``"models"`` would open as the second and drop the first. This scan finds such a key without
building the document: strings are read in phase from their opening quote, arrays of scalars
are skipped in one regular-expression match (the long mesh columns), and only keys are kept,
one set per open object. It costs about a tenth of a load on a 90,000-element part.
"""

from __future__ import annotations

import json
import re

_NEXT = re.compile(rb'[{}"\[]')
_STRING_REST = re.compile(rb'(?:[^"\\]++|\\.)*+"')
_COLON = re.compile(rb"\s*:")
_SCALAR_ARRAY = re.compile(rb'\[(?:[^\[\]{}"]++|"(?:[^"\\]++|\\.)*+")*+\]')


def repeated_key(raw: bytes) -> str | None:
    """The first key that appears twice in one object of the JSON text ``raw`` (None: none).
    ``raw`` must be valid JSON (parse it first); keys are compared decoded."""
    open_objects: list[set[bytes]] = []
    position = 0
    while (found := _NEXT.search(raw, position)) is not None:
        at = found.start()
        char = raw[at]
        if char == 0x22:  # a string: a key when a colon follows
            rest = _STRING_REST.match(raw, at + 1)
            position = rest.end() if rest else len(raw)
            colon = _COLON.match(raw, position)
            if colon is None or not open_objects:
                continue
            key = raw[at + 1:position - 1]
            if b"\\" in key:
                key = json.loads(raw[at:position]).encode("utf-8", "surrogatepass")
            if key in open_objects[-1]:
                return key.decode("utf-8", "replace")
            open_objects[-1].add(key)
            position = colon.end()
        elif char == 0x5B:  # an array: skipped whole when it holds no object or array
            scalars = _SCALAR_ARRAY.match(raw, at)
            position = scalars.end() if scalars else at + 1
        elif char == 0x7B:
            open_objects.append(set())
            position = at + 1
        else:
            if open_objects:
                open_objects.pop()
            position = at + 1
    return None
