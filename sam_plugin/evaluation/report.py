"""report.json (docs/architecture.md §6), report.md and a PNG bar chart of outcomes per layer."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from sam_plugin.evaluation.runner import KindResult, TaskResult


class Totals(BaseModel):
    tasks: int
    scored: int  # tasks not skipped
    accepted: int
    success_rate: float
    success_within_one_repair: float
    mean_prompt_tokens: float
    mean_completion_tokens: float
    mean_seconds: float
    failures_per_layer: dict[str, int] = Field(default_factory=dict)
    skipped: int = 0
    mismatches: int = 0
    stale: int = 0  # recorded on other prompts: neither scored nor a mismatch


def totals(kinds: Sequence[KindResult]) -> Totals:
    scored = [k for k in kinds if k.outcome not in ("skipped", "stale")]
    accepted = [k for k in scored if k.accepted]
    within_one = [k for k in accepted if k.repair_rounds <= 1]
    n = len(scored)
    layers = Counter(k.layer or "unknown" for k in scored if not k.accepted)
    return Totals(
        tasks=len(kinds),
        scored=n,
        accepted=len(accepted),
        success_rate=round(len(accepted) / n, 4) if n else 0.0,
        success_within_one_repair=round(len(within_one) / n, 4) if n else 0.0,
        mean_prompt_tokens=_mean([k.prompt_tokens for k in scored]),
        mean_completion_tokens=_mean([k.completion_tokens for k in scored]),
        mean_seconds=_mean([k.seconds for k in scored]),
        failures_per_layer=dict(sorted(layers.items())),
        skipped=sum(1 for k in kinds if k.outcome == "skipped"),
        mismatches=sum(1 for k in scored if k.outcome == "mismatch"),
        stale=sum(1 for k in kinds if k.outcome == "stale"),
    )


def _mean(values: Sequence[float]) -> float:
    return round(sum(values) / len(values), 2) if values else 0.0


def build_report(results: Sequence[TaskResult], meta: dict[str, Any]) -> dict[str, Any]:
    tasks = []
    for r in results:
        entry = {"name": r.name, "mode": r.mode, "expect": r.expect, "tags": r.tags,
                 "expected_category": r.category, **r.pipeline.model_dump(mode="json")}
        if r.baseline is not None:
            entry["baseline"] = r.baseline.model_dump(mode="json")
        tasks.append(entry)
    report: dict[str, Any] = {
        **meta,
        "tasks": tasks,
        "totals": totals([r.pipeline for r in results]).model_dump(mode="json"),
        "refusals": refusal_totals(tasks),
    }
    baselines = [r.baseline for r in results if r.baseline is not None]
    if baselines:
        report["baseline_totals"] = totals(baselines).model_dump(mode="json")
    return report


def held_by_category(task: dict[str, Any]) -> bool:
    """A refusal task's run ended at design naming the category the task expects."""
    return (task.get("ended_at") == "design" and task.get("expected_category") is not None
            and task.get("category") == task["expected_category"])


def refusal_totals(tasks: Sequence[dict[str, Any]]) -> dict[str, int]:
    """Refusal tasks scored: how many held (nothing ran) and how many by their category."""
    scored = [t for t in tasks if t["expect"] == "nothing_runs"
              and t["outcome"] not in ("skipped", "stale")]
    return {"tasks": len(scored), "held": sum(1 for t in scored if t["accepted"]),
            "with_category": sum(1 for t in scored if t.get("expected_category")),
            "by_category": sum(1 for t in scored if held_by_category(t))}


def write_reports(report: dict[str, Any], out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = [out / "report.json", out / "report.md"]
    written[0].write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n",
                          encoding="utf-8")
    written[1].write_text(markdown(report), encoding="utf-8")
    from sam_plugin.evaluation.chart import draw_outcomes

    png = out / "outcomes.png"
    if draw_outcomes(report, png):
        written.append(png)
    return written


def markdown(report: dict[str, Any]) -> str:
    has_baseline = "baseline_totals" in report
    lines = [f"# sam-agent eval: {report.get('suite', '')}", ""]
    source = report.get("source", {})
    lines.append(f"Provider: {source.get('kind', '?')} — model `{source.get('api_model', '?')}`"
                 + (f", server {source['server_kind']} {source.get('server_version', '')}".rstrip()
                    if source.get("server_kind") else "")
                 + (f", profile `{source['profile']}`" if source.get("profile") else "")
                 + (f", cassettes `{source['cassettes']}`" if source.get("cassettes") else ""))
    if source.get("kind") == "replay":
        lines.append("")
        lines.append("Seconds and tokens are the live run's, as recorded in the cassettes.")
    lines += _load_lines(report)
    lines.append("")
    header = ["task", "mode", "expect", "status", "failing layer", "rounds", "repairs",
              "tokens (prompt/completion)", "seconds", "accepted"]
    if has_baseline:
        header += ["free-python", "fp layer"]
    lines.append("| " + " | ".join(header) + " |")
    lines.append("|" + "---|" * len(header))
    for t in report["tasks"]:
        row = [t["name"], t["mode"], t["expect"], t["status"], t["layer"] or "",
               str(t["provider_rounds"]), str(t["repair_rounds"]),
               f"{t['prompt_tokens']}/{t['completion_tokens']}", f"{t['seconds']:.1f}",
               _mark(t)]
        if has_baseline:
            b = t.get("baseline") or {}
            row += [_mark(b) if b else "", (b.get("layer") or "") if b else ""]
        lines.append("| " + " | ".join(row) + " |")
    lines += _refusal_lines(report)
    lines += ["", "## Totals", ""]
    kinds = [("pipeline", report["totals"])]
    if has_baseline:
        kinds.append(("free-python", report["baseline_totals"]))
    lines.append("| | " + " | ".join(k for k, _ in kinds) + " |")
    lines.append("|---|" + "---|" * len(kinds))
    for label, key, fmt in [
        ("success rate", "success_rate", "{:.1%}"),
        ("success within one repair", "success_within_one_repair", "{:.1%}"),
        ("accepted / scored", None, ""),
        ("skipped (no cassette)", "skipped", "{}"),
        ("cassette mismatches", "mismatches", "{}"),
        ("stale cassettes (other prompts)", "stale", "{}"),
        ("mean prompt tokens", "mean_prompt_tokens", "{:.0f}"),
        ("mean completion tokens", "mean_completion_tokens", "{:.0f}"),
        ("mean seconds", "mean_seconds", "{:.1f}"),
    ]:
        cells = [f"{t['accepted']}/{t['scored']}" if key is None else fmt.format(t[key])
                 for _, t in kinds]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines += ["", "Failures per layer:", ""]
    for label, t in kinds:
        per = ", ".join(f"{k} {v}" for k, v in t["failures_per_layer"].items()) or "none"
        lines.append(f"- {label}: {per}")
    stale = stale_tasks(report)
    if stale:
        lines += ["", "Stale cassettes (recorded on other prompts; `--record DIR --only-stale` "
                  "records them again):", ""]
        lines += [f"- {name}" for name in stale]
    lines += ["", "![outcomes per layer](outcomes.png)", ""]
    return "\n".join(lines)


def _refusal_lines(report: dict[str, Any]) -> list[str]:
    """Each task that must refuse: where its run ended and the category it named (acceptance
    is only that nothing ran; the category is said beside it)."""
    refusals = [t for t in report["tasks"] if t["expect"] == "nothing_runs"]
    if not refusals:
        return []
    lines = ["", "## Refusals", "",
             "| task | mode | category expected | ended at | category named | nothing ran | "
             "held at design by its category |", "|" + "---|" * 7]
    for t in refusals:
        lines.append("| " + " | ".join([
            t["name"], t["mode"], t.get("expected_category") or "", t.get("ended_at") or "",
            t.get("category") or "no category", _mark(t),
            "" if t.get("expected_category") is None else
            "yes" if held_by_category(t) else "no"]) + " |")
    counts = report.get("refusals") or refusal_totals(report["tasks"])
    said = f"Refusals held: {counts['held']}/{counts['tasks']}"
    if counts.get("with_category"):
        said += (f"; at design by their category: {counts['by_category']}/"
                 f"{counts['with_category']}")
    lines += ["", said + "."]
    return lines


def _load_lines(report: dict[str, Any]) -> list[str]:
    """The time bound and the machine's load: this session's, or the recording's on replay."""
    lines = []
    if report.get("task_timeout"):
        lines.append(f"Task timeout: {report['task_timeout']:g} s per run of a task.")
    live = report.get("load")
    load = live or (report.get("source") or {}).get("load")
    if load:
        tasks = sum(1 for s in load["samples"] if s.get("task"))
        lines.append(f"{'Load' if live else 'Recorded under load'} (1-minute average, "
                     f"{load['cores']} cores): {load['start']:.2f} at the start, at most "
                     f"{load['max']:.2f} ({tasks} task ends sampled).")
    return ["", *lines] if lines else []


def stale_tasks(report: dict[str, Any]) -> list[str]:
    """``task (pipeline|baseline)`` for every stale cassette of a report."""
    names = []
    for t in report["tasks"]:
        for kind, entry in (("pipeline", t), ("baseline", t.get("baseline") or {})):
            if entry.get("outcome") == "stale":
                names.append(f"{t['name']} ({kind})")
    return names


def _mark(kind: dict[str, Any]) -> str:
    if kind.get("outcome") == "skipped":
        return "skipped"
    if kind.get("outcome") == "stale":
        return "stale"
    if kind.get("outcome") == "mismatch":
        return "MISMATCH"
    return "yes" if kind.get("accepted") else "no"
