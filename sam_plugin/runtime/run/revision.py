"""Ask for changes: the design round again with the analyst's remark and the previous spec.

Still a design request (no ``tools``, I1). Every version of the spec is kept in the run
directory: ``design.1.txt`` (the first), ``design.2.txt``, …; ``design.txt`` is always the
current one (the one Confirm uses), and ``revisions.json`` lists the remarks.
"""

from __future__ import annotations

import json
from typing import Any

from sam_plugin.errors import RevisionRefused
from sam_plugin.runtime.store.run_store import RunDir

__all__ = ["DEFAULT_MAX_REVISIONS", "RevisionRefused", "check_remark", "keep_version",
           "record_remark", "revision_messages"]

DEFAULT_MAX_REVISIONS = 3
REVISIONS_FILE = "revisions.json"

_REVISE = {
    "en": ("The analyst read your spec and asks for changes:\n{remark}\n\n"
           "Write the whole spec again with these changes (same format, ending with the "
           "capability line). Change nothing else."),
    "zh": ("分析人员阅读了你的规格并要求修改：\n{remark}\n\n"
           "请按这些修改重写完整的规格（格式相同，以操作类别行结尾），其他内容不要改动。"),
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
    """The first design request, the spec the model wrote, and the remark."""
    template = _REVISE.get(language, _REVISE["en"])
    return [*design_messages, {"role": "assistant", "content": previous_spec},
            {"role": "user", "content": template.format(remark=remark)}]


def keep_version(run_dir: RunDir, version: int, spec: str) -> None:
    """``design.<version>.txt`` holds that version of the spec."""
    run_dir.write_text(f"design.{version}.txt", spec + "\n" if spec else "")


def record_remark(run_dir: RunDir, version: int, remark: str) -> None:
    """Append ``{version, remark}`` (the remark that produced ``version``) to revisions.json."""
    path = run_dir.file(REVISIONS_FILE)
    try:
        entries = json.loads(path.read_text(encoding="utf-8")) if path.exists() else []
    except ValueError:
        entries = []
    entries.append({"version": version, "remark": remark})
    run_dir.write_json(REVISIONS_FILE, entries)
