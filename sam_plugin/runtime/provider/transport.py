"""What the transport said, as data: the exception httpx raised mapped to a
:data:`~sam_plugin.errors.TransportCause` where the provider client (and Test connection)
call httpx, so that no front end reads httpx's English ("Connection refused") back.

Modelled on httpx's exception tree: ``ConnectTimeout`` before the other timeouts (it is one),
a ``ConnectError`` told apart by the operating system's error it wraps (``socket.gaierror``:
the host name does not resolve; ``ConnectionRefusedError``: nothing listens at the port),
any other transport error after the stream began is a broken stream.
"""

from __future__ import annotations

import socket

import httpx

from sam_plugin.errors import TransportCause


def transport_cause(error: httpx.HTTPError, *, started: bool = False) -> TransportCause:
    if isinstance(error, httpx.ConnectTimeout):
        return "connect_timeout"
    if isinstance(error, httpx.TimeoutException):
        return "read_timeout"
    if started:
        return "broken_stream"
    if isinstance(error, httpx.ConnectError):
        for cause in _chain(error):
            if isinstance(cause, socket.gaierror):
                return "unknown_host"
            if isinstance(cause, ConnectionRefusedError):
                return "refused"
    return "unreachable"


def _chain(error: BaseException) -> list[BaseException]:
    """``error`` and what it wraps: its cause or context, and an exception it was built from
    (httpcore passes the operating system's error as its argument)."""
    found: list[BaseException] = []
    pending: list[BaseException] = [error]
    while pending and len(found) < 16:
        current = pending.pop(0)
        if any(current is seen for seen in found):
            continue
        found.append(current)
        pending += [e for e in (current.__cause__, current.__context__) if e is not None]
        pending += [a for a in current.args if isinstance(a, BaseException)]
    return found
