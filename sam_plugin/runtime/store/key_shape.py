"""Values that look like an API key (docs/architecture.md §7 "The key").

A person can paste a key where another value goes (``--api-model sk-…``, a part's name); the
key the settings hold is not that value, so the scrubber does not know it. A value shaped like
a key is taken for one: a provider's key prefix (``sk-``, ``pk-``, ``rk-``, ``AIza``, ``ghp_``)
followed by 16 or more key characters, or 32 or more letters and digits mixing upper case,
lower case and digits (a random token; a hex digest or a run id is not one: it has no upper
case).
"""

from __future__ import annotations

import re

_SHAPED = re.compile(
    r"(?<![A-Za-z0-9_-])(?:"
    r"(?:sk|pk|rk)-[A-Za-z0-9_-]{16,}"
    r"|AIza[A-Za-z0-9_-]{30,}"
    r"|gh[pousr]_[A-Za-z0-9]{30,}"
    r"|[A-Za-z0-9]{32,}"
    r")(?![A-Za-z0-9_-])")


def key_shaped(text: str) -> list[str]:
    """The pieces of ``text`` that look like an API key, in order."""
    return [match.group() for match in _SHAPED.finditer(text) if _random(match.group())]


def _random(token: str) -> bool:
    if not token.isalnum():
        return True  # a provider's prefix made it a key
    return (any(c.isupper() for c in token) and any(c.islower() for c in token)
            and any(c.isdigit() for c in token))
