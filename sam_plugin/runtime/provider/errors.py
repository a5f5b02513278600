"""Provider errors, classified so the caller can say what happened and whether a retry helps.

Every error text is the provider's own message (from its ``{"error": {...}}`` body when there
is one) plus the HTTP status; the API key is scrubbed from every message before it is stored.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from email.utils import parsedate_to_datetime
from typing import Any

from sam_plugin.errors import ErrorKind, ProviderError
from sam_plugin.runtime.store.scrubber import REDACTED as REDACTED
from sam_plugin.runtime.store.scrubber import Scrubber

MAX_MESSAGE_CHARS = 500


def scrub(text: str, secret: str | Scrubber) -> str:
    """``text`` through the one :class:`Scrubber` (an empty key hides nothing)."""
    scrubber = secret if isinstance(secret, Scrubber) else Scrubber(secret)
    return scrubber.text(text)


def kind_for_status(status: int) -> ErrorKind:
    if status in (401, 403):
        return "auth"
    if status == 429:
        return "rate_limit"
    if status >= 500:
        return "server"
    return "bad_request"


def is_retryable_status(status: int) -> bool:
    return status == 429 or status >= 500


def parse_retry_after(headers: Mapping[str, str], now: float | None = None) -> float | None:
    """Seconds to wait from ``retry-after-ms`` (OpenAI) or ``Retry-After`` (seconds or an
    HTTP date); ``None`` when absent or unreadable."""
    millis = headers.get("retry-after-ms")
    if millis:
        try:
            return max(0.0, float(millis) / 1000.0)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def provider_message(body: bytes | str | Any) -> str:
    """The provider's own words from an error body, whatever shape it uses.

    Shapes seen: ``{"error": {"message": ...}}`` (OpenAI, DeepSeek), ``{"error": "..."}``
    (Ollama), ``{"object": "error", "message": ...}`` (vLLM), ``{"detail": ...}`` (FastAPI
    servers), plain text or HTML.
    """
    payload: Any = body
    if isinstance(body, bytes | str):
        text = body.decode("utf-8", "replace") if isinstance(body, bytes) else body
        try:
            payload = json.loads(text)
        except ValueError:
            return _clip(" ".join(text.split()))
    return _clip(_message_from_payload(payload))


def _message_from_payload(payload: Any) -> str:
    if isinstance(payload, dict):
        error = payload.get("error")
        if isinstance(error, dict):
            return _message_from_payload(error)
        if isinstance(error, str) and error:
            return error
        for key in ("message", "msg", "detail"):
            value = payload.get(key)
            if isinstance(value, str) and value:
                return value
            if isinstance(value, list) and value:
                return "; ".join(_message_from_payload(item) for item in value)
        return json.dumps(payload, ensure_ascii=False)
    if isinstance(payload, str):
        return payload
    return json.dumps(payload, ensure_ascii=False)


def _clip(text: str) -> str:
    text = text.strip()
    if len(text) > MAX_MESSAGE_CHARS:
        return text[:MAX_MESSAGE_CHARS] + "…"
    return text


def error_from_http(
    status: int, body: bytes, headers: Mapping[str, str], *, secret: str | Scrubber,
    reason: str = "",
) -> ProviderError:
    """The classified error of a non-200 response."""
    message = provider_message(body) or reason or "no error message"
    return ProviderError(
        kind_for_status(status),
        scrub(f"{message} (HTTP {status})", secret),
        status_code=status,
        retry_after=parse_retry_after(headers),
        detail=scrub(message, secret),
    )


def error_from_stream_payload(
    payload: Any, *, secret: str | Scrubber, raw_sse: bytes = b""
) -> ProviderError:
    """The classified error of an ``event: error`` or an in-stream ``{"error": ...}`` payload."""
    detail = payload.get("error") if isinstance(payload, dict) else None
    source = detail if isinstance(detail, dict) else payload
    kind: ErrorKind = "server"
    status: int | None = None
    if isinstance(source, dict):
        code = source.get("code", source.get("status"))
        if isinstance(code, int) or (isinstance(code, str) and code.isdigit()):
            status = int(code)
            kind = kind_for_status(status) if status >= 400 else "server"
        else:
            kind = _kind_from_words(" ".join(str(source.get(k, "")) for k in ("type", "code")))
    message = provider_message(payload) or "error event without a message"
    return ProviderError(
        kind, scrub(f"{message} (in-stream error)", secret), status_code=status, raw_sse=raw_sse
    )


def _kind_from_words(words: str) -> ErrorKind:
    words = words.lower()
    if "rate" in words or "quota" in words:
        return "rate_limit"
    if "auth" in words or "api_key" in words or "permission" in words:
        return "auth"
    if "invalid" in words or "bad" in words:
        return "bad_request"
    return "server"
