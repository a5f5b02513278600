"""Bounded repair rounds (docs/architecture.md §1): a rejected call gets N more tries, never more.

When a collected call is rejected — at the tool-call layer (wrong name, order, count, a call
written as text, a cut-off answer) or at the compile layer (a diagnostic) — nothing has
touched SAM, so instead of going back to Review the controller asks again: the confirmed
spec, the rejected call as the model sent it (its head: at most ``QUOTED_CALL_CHARS``), the
diagnostic with the legal set it names,
the calls already collected (collected, not executed) and only the tools still needed. A
repaired call is checked like any other. When the budget is spent, the run goes back to
Review with the last diagnostic.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from sam_plugin.runtime.run import run_phrases  # noqa: F401 (registers the run's phrases)
from sam_plugin.words.phrase import Phrase, phrase

RejectedLayer = Literal["tool_call", "compile"]

_SHOWN_CONTENT_CHARS = 1500
# a repair quotes this much of a rejected call, and of its diagnostic (a 4 MiB call re-sent
# whole in every round made 36 MB of requests); the model still sees where it went wrong
QUOTED_CALL_CHARS = 2000
QUOTED_DIAGNOSTIC_CHARS = 6000
_HEADLINE_CHARS = 120


@dataclass(frozen=True)
class SentCall:
    """A call exactly as the model sent it (``source`` says whether it was written as text)."""

    tool: str
    arguments: str
    source: str = "model"


@dataclass(frozen=True)
class Rejection:
    """Why a round's answer (or one collected call) was refused."""

    layer: RejectedLayer
    tool: str  # the tool the repair asks for first
    diagnostic: str  # the full text, legal sets included
    headline: str  # the first problem, for the status line
    sent: tuple[SentCall, ...] = ()
    content: str = ""  # the answer's text when it carried no usable call
    cut_tokens: int | None = None  # the answer was cut at this max_tokens (budgets.after_cut)
    # the repair round this rejection is sent in, and whether the answer repeated one that
    # was rejected before: a repair prompt never repeats an earlier one byte for byte
    attempt: int = 0
    repeated: bool = False
    # ``diagnostic`` as data (its English is the diagnostic), for the words at the edge
    phrase: Phrase | None = None


def rejection(
    layer: RejectedLayer,
    tool: str,
    diagnostic: str,
    *,
    headline: str | None = None,
    sent: Sequence[SentCall] = (),
    content: str = "",
    cut_tokens: int | None = None,
    phrase: Phrase | None = None,
) -> Rejection:
    first = headline if headline is not None else diagnostic.strip().splitlines()[0]
    if len(first) > _HEADLINE_CHARS:
        first = first[: _HEADLINE_CHARS - 1] + "…"
    return Rejection(layer, tool, diagnostic, first, tuple(sent), content, cut_tokens,
                     phrase=phrase)


@dataclass
class RepairBudget:
    """At most ``limit`` repair rounds per run; ``used`` is what result.json reports."""

    limit: int
    used: int = 0
    history: list[Rejection] = field(default_factory=list)

    def spend(self, refused: Rejection) -> bool:
        """Record ``refused``; True when a repair round may be sent for it."""
        self.history.append(refused)
        if self.used >= self.limit:
            return False
        self.used += 1
        return True

    def numbered(self, refused: Rejection) -> Rejection:
        """``refused`` with the round it is sent in, and whether the model sent the same
        rejected answer before (so that the next prompt says so, in other bytes)."""
        earlier = self.history[:-1]
        repeated = any(r.sent == refused.sent and r.content == refused.content
                       and r.diagnostic == refused.diagnostic for r in earlier)
        return replace(refused, attempt=self.used, repeated=repeated)

    def label(self, refused: Rejection) -> str:
        """The status line of the repair round just granted."""
        return f"Repair {self.used}/{self.limit}: {refused.tool} — {refused.headline}"

    def exhausted_message(self, refused: Rejection) -> str:
        """What Review shows when no repair round is left: the last diagnostic."""
        if self.limit == 0:
            return refused.diagnostic
        return (
            f"{refused.diagnostic}\n(still rejected after {self.used} repair round(s); "
            "nothing was executed)"
        )

    def exhausted_phrase(self, refused: Rejection) -> Phrase | None:
        """:meth:`exhausted_message` as data (None when the diagnostic has no phrase)."""
        if refused.phrase is None or self.limit == 0:
            return refused.phrase
        return phrase("run.still_rejected", reason=refused.phrase, repairs=self.used)


def repair_lines(refused: Rejection) -> list[str]:
    """The part of a round's user message that explains what to fix."""
    lines = ["Your previous answer was rejected; nothing was executed."]
    if refused.attempt:
        lines[0] = (f"Repair round {refused.attempt}: your previous answer was rejected; "
                    "nothing was executed.")
    if refused.repeated:
        lines.append("It repeated an answer that was rejected before, unchanged: change the "
                     "field the diagnostic names, and nothing else.")
    if refused.sent:
        lines.append("The rejected call(s), exactly as you sent them:")
        for call in refused.sent:
            written = " (written as text in your message)" if call.source == "text" else ""
            lines.append(f"- {call.tool}({_head(call.arguments, QUOTED_CALL_CHARS)}){written}")
    elif refused.content.strip():
        shown = refused.content.strip()
        if len(shown) > _SHOWN_CONTENT_CHARS:
            shown = shown[:_SHOWN_CONTENT_CHARS] + " …"
        lines += [
            "Your answer (it carried no usable tool call):",
            shown,
            "Send the call through the tools of this request (a structured tool call), not as "
            "text in your message.",
        ]
    lines += [
        "Diagnostic (fix exactly this; where it lists legal values, use one of them):",
        _head(refused.diagnostic, QUOTED_DIAGNOSTIC_CHARS, what="of the diagnostic"),
        "Do not send the rejected call again unchanged.",
        "",
    ]
    return lines


def _head(text: str, limit: int, *, what: str = "of the call") -> str:
    """``text``, or its first ``limit`` characters and how many more were left out."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]} … [{len(text) - limit} more characters {what} are not repeated]"
