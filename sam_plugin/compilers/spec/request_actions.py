"""The actions a request's words name unmistakably (``ActionDef.named_by``: "stray nodes",
"doubled quads", "缝合") that its spec does not plan, while a step of an action that stands
in their place does (``ActionDef.stand_ins``): "rm free nodes" answered with "delete nodes 1,
11". That step is asked again before Review, held to the actions named (docs/architecture.md
§4 "One repair before Review"). Nothing fails to compute or compile, so without this no
diagnostic reaches the model.

A request that names labels ("delete nodes 3 and 4, then the free nodes") is left as it is:
a step by labels may be what it asks. Words after a negation in their clause ("don't merge
the nodes", "保留重复单元") name nothing."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from sam_plugin.compilers.spec.ir import Spec
from sam_plugin.compilers.spec.request_words import fold
from sam_plugin.compilers.spec.vocabulary import Vocabulary

_NEGATED = re.compile(
    r"(?:\b(?:don't|dont|do\s+not|never|without|no\s+need\s+to|leave|keep)\b[^.;,!?]{0,25}"
    r"|(?:不要|别|不用|无需|不必|保留|留着)[^，。；！？]{0,8})$", re.IGNORECASE)
_LABELS = re.compile(
    r"\b(?:nodes?|elements?|elems?|labels?|ids?)\s*(?:#|no\.?|nos\.?)?\s*\d"
    r"|\b[ne]\d+\b|(?:节点|单元)\s*\d|\d+\s*号", re.IGNORECASE)


_FINDS = "; it finds them in the part itself, no labels"  # an action of the whole part


@dataclass(frozen=True)
class NamedAction:
    """An action the request's words name: its name and the words, as written."""

    action: str
    words: tuple[str, ...]


@dataclass(frozen=True)
class StandIn:
    """The step (0-based) that stands in the place of the named ``actions`` the spec does not
    plan, and the request's words that name them."""

    step: int
    actions: tuple[str, ...]
    words: tuple[str, ...]


def named_actions(vocabulary: Vocabulary, request: str) -> list[NamedAction]:
    """The actions of ``vocabulary`` the request's words name, unnegated, in its order."""
    folded = fold(request)
    found = []
    for action in vocabulary.actions:
        words = tuple(dict.fromkeys(
            match.group(0).strip() for pattern in action.named_by
            for match in re.finditer(pattern, folded, re.IGNORECASE)
            if not _NEGATED.search(folded, 0, match.start())))
        if words:
            found.append(NamedAction(action.name, words))
    return found


def stand_in(spec: Spec, vocabulary: Vocabulary, request: str) -> StandIn | None:
    """The first step standing in the place of actions the request names and the spec does
    not plan; None when there is none, or the request names labels."""
    return standing_in([step.action for step in spec.steps], vocabulary, request)


def standing_in(actions: Sequence[str], vocabulary: Vocabulary,
                request: str) -> StandIn | None:
    """:func:`stand_in` on the steps' actions alone, in order: also for an answer that does
    not read as a spec ("move_nodes" with one point for 25 labels, for "twice as big")."""
    if _LABELS.search(fold(request)):
        return None
    missing = [n for n in named_actions(vocabulary, request) if n.action not in set(actions)]
    for index, name in enumerate(actions):
        standing = [n for n in missing if (action := vocabulary.action(n.action)) is not None
                    and name in action.stand_ins]
        if standing:
            return StandIn(index, tuple(n.action for n in standing),
                           tuple(w for n in standing for w in n.words))
    return None


def stand_in_words(found: StandIn, vocabulary: Vocabulary, step: str) -> str:
    """What a step standing in for named actions is told: ``step`` its words."""
    said = " and ".join(f"“{w}”" for w in found.words)
    named = [a for name in found.actions if (a := vocabulary.action(name)) is not None]
    does = "; or ".join(f"{a.capability} {a.name} ({a.asks}{_FINDS if a.whole_part else ''})"
                        for a in named)
    return (f"the request says {said}, and no step does it: {step} stands in its place. "
            f"Write that step as {does}")
