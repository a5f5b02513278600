"""What an analyst would want to read before a plan runs (docs/architecture.md §5 "Plan"):
warnings that stop ``--yes`` (and *Approve all*), beside the destructive lines, which alone do
not. A plan warns when it

- leaves the part with no elements where it had some (a rerun that would empty its target
  included);
- changes the part although the request says not to ("do not change anything", "不要修改");
- removes a set the request asks to keep ("keep set S1", "保留集合 S1").

Generic over domains: it reads the request's words and the counts and set names the plan
predicts, never a domain's tools.
"""

from __future__ import annotations

import re

from sam_plugin.compilers.evidence import Prediction, Readback

_DO_NOT_CHANGE = re.compile(
    r"\b(do not|don't|dont|never|must not|mustn't|should not|shouldn't|without)\s+"
    r"(change|changing|modify|modifying|alter|altering|touch|touching|edit|editing|move|"
    r"moving|delete|deleting|remove|removing)\b"
    r"|\b(change|modify|alter|touch) nothing\b|\bread[- ]only\b|\bonly (audit|check|report)\b"
    r"|不要(修改|改动|改变|更改|动|删除|移动)|不(修改|改动|改变|更改)|别(改|动|删)|只(审计|检查)",
    re.IGNORECASE)
_KEEP_SET = re.compile(r"\bkeep\s+(?:the\s+)?(?:element\s+)?set\s+([A-Za-z][\w.-]*)"
                       r"|保留(?:集合)?\s*([A-Za-z][\w.-]*)", re.IGNORECASE)


def attention_warnings(request: str, before: Readback, prediction: Prediction,
                       read_only: bool) -> list[str]:
    """The warnings a person should read before this plan runs (empty: none)."""
    found = []
    if before.element_count > 0 and prediction.element_count.max == 0:
        found.append(f"the plan leaves the part with no elements ({before.element_count} → 0)")
    said = _DO_NOT_CHANGE.search(request)
    if said and not read_only:
        found.append(f"the request says “{said.group(0)}”, and the plan changes the part")
    present = set(prediction.sets_present)
    for match in _KEEP_SET.finditer(request):
        name = (match.group(1) or match.group(2)).rstrip(".")  # a sentence's own full stop
        if name in before.sets and name not in present:
            found.append(f"the request asks to keep set {name}, and the plan leaves no set "
                         f"{name}")
    return found
