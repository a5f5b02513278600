"""The analyst's words for what the pipeline says in a programmer's: tool names, provider error
kinds, HTTP codes, the routing line. The raw text stays in the tooltip and the run directory.
"""

from __future__ import annotations

import re
from typing import Any

from sam_plugin.runtime.provider.choice import REPLAY_ADVICE
from sam_plugin.ui.i18n import tr

PROVIDER_KIND = re.compile(
    r"\b(auth|rate_limit|server|bad_request|protocol|timeout|cancelled|connection): ")
HTTP_CODE = re.compile(r"\s*\(HTTP \d{3}\)")
ROUND_PREFIX = re.compile(r"^round \d+: ")
NO_TOOL_CALL = re.compile(r"the response carried no tool call; expected one of: ([\w, ]+)")
# httpx's words for a port where nothing listens, and for a host name that does not resolve
NOTHING_ANSWERS = re.compile(
    r"(?:connection: )?cannot reach (\S+): (?:All connection attempts failed|"
    r"\[Errno 111\] Connection refused|\[Errno 61\] Connection refused)")
UNKNOWN_HOST = re.compile(
    r"(?:connection: )?cannot reach (\S+): \[Errno -?\d+\] (?:Name or service not known|"
    r"nodename nor servname provided, or not known|No address associated with hostname|"
    r"Temporary failure in name resolution|getaddrinfo failed)")


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
    text = (message or "").strip()
    text = text.replace(" " + REPLAY_ADVICE, "")  # the dock says what to do, once, below
    text = ROUND_PREFIX.sub("", text)
    text = NOTHING_ANSWERS.sub(lambda m: nothing_answers(m.group(1)), text)
    text = UNKNOWN_HOST.sub(lambda m: tr("{host} is not a host name this computer knows").format(
        host=m.group(1)), text)
    text = NO_TOOL_CALL.sub(lambda m: tr(
        "the model answered without filling in the operation ({operations})").format(
        operations=", ".join(tool_words(t.strip()) for t in m.group(1).split(","))), text)
    text = PROVIDER_KIND.sub(lambda m: kind_words(m.group(1)) + ": ", text)
    text = HTTP_CODE.sub("", text)
    for tool in ("build_part", "edit_part", "transform_part", "repair_part", "audit_part",
                 "define_property", "assign_property", "audit_property", "refine_mesh",
                 "audit_mesh"):
        text = re.sub(rf"\b{tool}\b", tool_words(tool), text)
    return text


def nothing_answers(host: str) -> str:
    return tr("nothing answers at {host}").format(host=host)

