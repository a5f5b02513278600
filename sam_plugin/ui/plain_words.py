"""The analyst's words for what the pipeline says in a programmer's: tool names, provider error
kinds, the routing line. The raw text stays in the tooltip and the run directory.

A run's message is said from its data (:func:`error_words`): ``result.json``'s
``error.phrase`` rendered in the dock's language, a failed provider call in it from
``error.provider`` (``provider_retry``'s ``failure``): its kind and what the transport said.
Nothing here reads the product's own words back: a message written before phrases (an old
run directory) is shown as it was stored (docs/architecture.md "Messages as data"). The
provider's own words (``ProviderFailure.detail``) are not the product's; a tool name the
provider quotes there, whole, is said in words.
"""

from __future__ import annotations

from functools import cache
from itertools import groupby
from typing import Any

from sam_plugin.compilers import registry
from sam_plugin.errors import ProviderFailure
from sam_plugin.runtime.provider.choice import REPLAY_ADVICE
from sam_plugin.runtime.run.run_phrases import said
from sam_plugin.ui.i18n import shown_language, tr
from sam_plugin.words.phrase import Phrase, render


def tool_words(tool: str) -> str:
    """A tool in the analyst's words: its domain's ``tool.<name>`` phrase in the dock's
    language (each domain words its own tools); the name itself where none does."""
    if tool not in every_tool():
        return tool
    return render(Phrase(key=f"tool.{tool}"), "zh_CN" if shown_language() == "zh" else "en")


@cache
def every_tool() -> tuple[str, ...]:
    """Every domain's tool names (importing the domains registers their words)."""
    return tuple(tool for mode in registry.MODES
                 for tool in registry.get_module(mode).tool_names.values())


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
    """The spec said build, but the part exists: the route edits it instead (the route's
    ``substituted``, the only substitution a domain has)."""
    return bool(getattr(route, "substituted", None))


def existing_target_message(part: str, node_count: int) -> str:
    return tr("{part} already has {nodes} nodes: ask to edit it, or pick a new part "
              "name").format(part=part, nodes=node_count)


def _tools(text: str) -> str:
    """The provider's own words with each tool name it quotes, as a whole word, in words
    (the words split where a word ends: nothing of the product's is parsed)."""
    tools = set(every_tool())
    return "".join(tool_words(part) if part in tools else part
                   for part in ("".join(run) for _, run in groupby(text, key=_in_word)))


def _in_word(character: str) -> bool:
    return character.isalnum() or character == "_"


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


def provider_words(failure: ProviderFailure) -> str:
    """A failed provider call in words, from its data alone."""
    return failure_words(failure) or kind_words(failure.kind)


def error_words(message: str, failure: ProviderFailure | None,
                phrase: Phrase | None = None) -> str:
    """A run's message in words: from its ``phrase`` when it has one (every run since
    phrases), a failed provider call in it from ``failure``; else (a run written before) the
    message as stored, its provider call's part (``failure.said``, recorded exactly) said
    from its data."""
    if phrase is not None:
        try:
            return phrase_words(phrase, failure)
        except KeyError:  # a key no catalogue here has (a newer plugin wrote it)
            return message.strip()
    return stored_message(message, failure)


def stored_message(message: str, failure: ProviderFailure | None) -> str:
    """A message written before ``error.phrase``, as it was stored: nothing in it is read
    back; only the failed provider call it quotes exactly is said from its data."""
    words = failure_words(failure) if failure is not None else None
    if failure is None or words is None or not failure.said or failure.said not in message:
        return message.strip()
    before, _, after = message.strip().partition(failure.said)
    return before + words + after


def unreachable(failure: ProviderFailure) -> bool:
    """No connection to the provider: the base URL or the server is what to check."""
    return failure.cause in ("refused", "unknown_host", "unreachable", "connect_timeout")



def phrase_words(message: Phrase, failure: ProviderFailure | None) -> str:
    """``message`` rendered in the dock's language; a failed provider call in it
    (``run.provider_call``, or its recorded words inside English said as it is) from
    ``failure``. Nothing is read back."""
    from sam_plugin.compilers.plan import every_domain_words
    from sam_plugin.ui.plan_text import language

    every_domain_words()
    return render(_spoken(message, failure), language())


def _spoken(message: Phrase, failure: ProviderFailure | None) -> Phrase:
    """``message`` with its provider call in words (a phrase of English as it is)."""
    if message.key == "run.provider_call":
        return said(provider_words(failure) if failure is not None
                    else str(message.values.get("said", "")))
    if message.key == "run.said" and failure is not None and failure.said:
        text = str(message.values.get("text", ""))
        if failure.said in text:  # the call's words exactly as recorded beside them
            before, _, after = text.partition(failure.said)
            return said(before + provider_words(failure) + after)
        return message
    values = {name: _spoken(value, failure) if isinstance(value, Phrase)
              else [_spoken(v, failure) for v in value] if _phrases(value) else value
              for name, value in message.values.items()}
    return message.model_copy(update={"values": values})


def _phrases(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(v, Phrase) for v in value)
