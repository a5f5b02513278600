"""Ask for changes: the design round again with the analyst's remark and the previous spec.

Still a design request (no ``tools``, I1); it sends the remark with the current spec (as
data). Every version of the spec is kept in the run directory: ``design.1.txt`` and
``spec.1.json`` (the first), ``design.2.txt``/``spec.2.json``, …; ``design.txt`` and
``spec.json`` are always the current one (the one Confirm uses), and ``revisions.json`` lists
the remarks with the fields each version changed.
"""

from __future__ import annotations

import json
from typing import Any

from sam_plugin.compilers.spec.diff import FieldChange
from sam_plugin.compilers.spec.ir import Spec
from sam_plugin.errors import RevisionRefused
from sam_plugin.runtime.store.run_store import RunDir

__all__ = ["DEFAULT_MAX_REVISIONS", "RevisionRefused", "check_remark", "keep_version",
           "record_remark", "revision_messages"]

DEFAULT_MAX_REVISIONS = 3
REVISIONS_FILE = "revisions.json"

_REVISE = {
    "en": ("The analyst read your spec and asks for changes:\n{remark}\n\n"
           "Answer with the whole spec again, as one JSON object of the same schema, with "
           "these changes. Change nothing else."),
    "zh": ("分析人员阅读了你的规格并要求修改：\n{remark}\n\n"
           "请按这些修改重新给出完整的规格：一个相同模式的 JSON 对象，其他内容不要改动。"),
}


def check_remark(remark: str, used: int, bound: int) -> str:
    text = remark.strip()
    if not text:
        raise RevisionRefused("remark: empty; say what should change in the spec")
    if used >= bound:
        raise RevisionRefused(
            f"remark: this spec was already revised {used} time(s), the limit set in Settings "
            f"(max revisions {bound}); confirm it, cancel, or edit the request and submit anew")
    return text


def revision_messages(design_messages: list[dict[str, Any]], previous_spec: str, remark: str,
                      language: str) -> list[dict[str, Any]]:
    """The first design request, the current spec (its JSON), and the remark."""
    template = _REVISE.get(language, _REVISE["en"])
    return [*design_messages, {"role": "assistant", "content": previous_spec},
            {"role": "user", "content": template.format(remark=remark)}]


def keep_version(run_dir: RunDir, version: int, spec: str, data: Spec | None = None) -> None:
    """``design.<version>.txt`` (and ``spec.<version>.json``) hold that version of the spec."""
    run_dir.write_text(f"design.{version}.txt", spec + "\n" if spec else "")
    if data is not None:
        run_dir.write_json(f"spec.{version}.json", data.as_json())


def record_remark(run_dir: RunDir, version: int, remark: str,
                  changes: list[FieldChange] | None = None, *, author: str = "model") -> None:
    """Append ``{version, remark, changes, author}`` (the remark that produced ``version``,
    the fields it changed, and who wrote it: the model asked for changes, or the analyst who
    edited the spec) to revisions.json."""
    path = run_dir.file(REVISIONS_FILE)
    try:
        entries = json.loads(path.read_text(encoding="utf-8")) if path.exists() else []
    except ValueError:
        entries = []
    entries.append({"version": version, "remark": remark,
                    "changes": [c.as_json() for c in changes or []], "author": author})
    run_dir.write_json(REVISIONS_FILE, entries)
