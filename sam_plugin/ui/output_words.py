"""What the script printed, in words (docs/ui.md "Script output").

The script's operations print one line each, ``<tool>: <a Python dict>`` (what they created,
replaced, refined); the host keeps each as data (``runtime/script_lines.py``: the tool and
its report), and the result view says it in words from that data, never from the printed
text, which stays one click away (and in ``script_output.txt``). Another line is shown as
printed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sam_plugin.runtime.script_lines import ScriptLine
from sam_plugin.ui.i18n import tr
from sam_plugin.ui.plain_words import tool_words


def output_words(lines: Sequence[ScriptLine]) -> str:
    """Every report the script printed in words; other lines as printed."""
    return "\n".join(_line_words(line) for line in lines).rstrip()


def _line_words(line: ScriptLine) -> str:
    if line.tool is None or line.report is None:
        return line.text
    words = _WORDERS.get(line.tool, _generic)(line.report)
    return f"{_capital(tool_words(line.tool))}: {words}"


def _refine(report: Mapping[str, Any]) -> str:
    text = tr("{refined} elements refined {levels}, {created} new elements in their place; "
              "{nodes} new nodes").format(
        refined=report.get("refined_elements", 0), levels=_levels(report.get("levels", 1)),
        created=report.get("created_elements", 0), nodes=report.get("created_nodes", 0))
    reused = report.get("reused_nodes") or []
    if reused:
        text += "; " + tr("{count} existing nodes used again").format(count=len(reused))
    return text


def _define(report: Mapping[str, Any]) -> str:
    parts = []
    created, unchanged = _names(report.get("created")), _names(report.get("unchanged"))
    if created:
        parts.append(tr("created {names}").format(names=created))
    if unchanged:
        parts.append(tr("already there as asked: {names}").format(names=unchanged))
    return "; ".join(parts) or tr("nothing to define")


def _assign(report: Mapping[str, Any]) -> str:
    parts = [tr("section {section} on {count} elements").format(
        section=a.get("section", "?"), count=a.get("elements", 0))
        for a in report.get("assigned") or [] if isinstance(a, dict)]
    parts += [tr("beams oriented with n1 = {n1} ({count} beams)").format(
        n1=_vector(o.get("n1")), count=o.get("beams", 0))
        for o in report.get("oriented") or [] if isinstance(o, dict)]
    replaced = [str(r) for r in report.get("replaced") or []]
    if replaced:
        parts.append(tr("replaced: {what}").format(what="; ".join(replaced)))
    return "; ".join(parts) or tr("nothing assigned")


def _generic(report: Mapping[str, Any]) -> str:
    """``key value`` pairs in words for a report this module does not know."""
    return "; ".join(f"{key.replace('_', ' ')} {_value(value)}" for key, value in report.items())


_WORDERS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "refine_mesh": _refine, "define_property": _define, "assign_property": _assign}


def _names(by_kind: Any) -> str:
    """``{"materials": ["Steel"], "sections": ["S1"]}`` -> ``material Steel, section S1``
    (the kind words translated)."""
    if not isinstance(by_kind, Mapping):
        return _value(by_kind) if by_kind else ""
    kinds = {"materials": tr("material"), "sections": tr("section")}
    return ", ".join(f"{kinds.get(kind, kind)} {name}" for kind, names in by_kind.items()
                     if isinstance(names, list) for name in names)


def _value(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(_value(v) for v in value) if value else tr("none")
    if isinstance(value, dict):
        return _generic(value)
    return str(value)


def _vector(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return "(" + ", ".join(f"{float(v):g}" for v in value) + ")"
    return str(value)


def _levels(levels: Any) -> str:
    return {1: tr("once"), 2: tr("twice")}.get(int(levels)) or tr("{n} times").format(n=levels)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
