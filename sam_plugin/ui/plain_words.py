"""The analyst's words for what the pipeline says in a programmer's: tool names, provider error
kinds, HTTP codes, the routing line. The raw text stays in the tooltip and the run directory.

A failed provider call is said from its data (:func:`error_words`: ``result.json``
``error.provider``, ``provider_retry``'s ``failure``): its kind and what the transport said.
The patterns below read a message that carries no such data (a run written before it); the
two that read httpx's English are gone: the transport's cause is typed where httpx is called
(``runtime/provider/transport.py``).
"""

from __future__ import annotations

import re
from typing import Any

from sam_plugin.errors import ProviderFailure
from sam_plugin.runtime.provider.choice import REPLAY_ADVICE
from sam_plugin.ui.i18n import tr

PROVIDER_KIND = re.compile(
    r"\b(auth|rate_limit|server|bad_request|protocol|timeout|cancelled|connection): ")
HTTP_CODE = re.compile(r"\s*\(HTTP \d{3}\)")
ROUND_PREFIX = re.compile(r"^round \d+: ")
NO_TOOL_CALL = re.compile(r"the response carried no tool call; expected one of: ([\w, ]+)")


def tool_words(tool: str) -> str:
    return {
        "build_part": tr("build the part"),
        "edit_part": tr("edit the part"),
        "transform_part": tr("transform the part"),
        "repair_part": tr("repair the part"),
        "audit_part": tr("audit the part"),
        "define_property": tr("define materials and sections"),
        "assign_property": tr("assign sections"),
        "audit_property": tr("audit the properties"),
        "refine_mesh": tr("refine the mesh"),
        "audit_mesh": tr("audit the mesh"),
    }.get(tool, tool)


def kind_words(kind: str) -> str:
    return {
        "auth": tr("the provider refused the API key"),
        "rate_limit": tr("the provider is rate-limiting requests"),
        "server": tr("the provider had a server error"),
        "bad_request": tr("the provider refused the request"),
        "protocol": tr("the provider's answer could not be read"),
        "timeout": tr("the provider did not answer in time"),
        "cancelled": tr("the request was cancelled"),
        "connection": tr("the provider could not be reached"),
    }.get(kind, kind)


def operations_text(route: Any) -> str:
    """``Operations: edit the part, audit the part`` for a route (what will be collected)."""
    tools = list(getattr(route, "tools", []) or [])
    if not tools:
        return ""
    return tr("Operations: {operations}").format(
        operations=", ".join(tool_words(t) for t in tools))


def build_became_edit(route: Any) -> bool:
    """The spec said build, but the part exists: the route edits it instead."""
    return "build -> edit" in str(getattr(route, "detail", "") or "")


def existing_target_message(part: str, node_count: int) -> str:
    return tr("{part} already has {nodes} nodes: ask to edit it, or pick a new part "
              "name").format(part=part, nodes=node_count)


def plain_message(message: str) -> str:
    """``message`` without provider kinds, HTTP codes, round prefixes or tool names."""
    return _plain((message or "").strip())


def _plain(text: str) -> str:
    text = text.replace(" " + REPLAY_ADVICE, "")  # the dock says what to do, once, below
    text = ROUND_PREFIX.sub("", text)
    text = NO_TOOL_CALL.sub(lambda m: tr(
        "the model answered without filling in the operation ({operations})").format(
        operations=", ".join(tool_words(t.strip()) for t in m.group(1).split(","))), text)
    text = PROVIDER_KIND.sub(lambda m: kind_words(m.group(1)) + ": ", text)
    text = HTTP_CODE.sub("", text)
    return _tools(text)


def _tools(text: str) -> str:
    """The tool names a message quotes, in words."""
    for tool in ("build_part", "edit_part", "transform_part", "repair_part", "audit_part",
                 "define_property", "assign_property", "audit_property", "refine_mesh",
                 "audit_mesh"):
        text = re.sub(rf"\b{tool}\b", tool_words(tool), text)
    return text


def nothing_answers(host: str) -> str:
    return tr("nothing answers at {host}").format(host=host)


def failure_words(failure: ProviderFailure) -> str | None:
    """A failed provider call in words: by what the transport said, else by its kind with
    the provider's own words (None: the failure has neither)."""
    if failure.cause == "refused":
        return nothing_answers(failure.host)
    if failure.cause == "unknown_host":
        return tr("{host} is not a host name this computer knows").format(host=failure.host)
    if not failure.detail:
        return None
    detail = _tools(failure.detail.replace(" " + REPLAY_ADVICE, ""))  # said once, below
    return f"{kind_words(failure.kind)}: {detail}"


def error_words(message: str, failure: ProviderFailure | None) -> str:
    """A run's message in words: the failed provider call's part of it (``failure.said``,
    recorded exactly) said from its data, the rest as :func:`plain_message` says it."""
    words = failure_words(failure) if failure is not None else None
    if failure is None or words is None or not failure.said or failure.said not in message:
        return plain_message(message)
    before, _, after = message.strip().partition(failure.said)
    return _plain(before) + words + _plain(after)  # the words are not read again


def unreachable(failure: ProviderFailure) -> bool:
    """No connection to the provider: the base URL or the server is what to check."""
    return failure.cause in ("refused", "unknown_host", "unreachable", "connect_timeout")

