"""``sam-agent eval SUITE`` once parsed (``sam_plugin/cli/eval.py``): pick the provider
source, run the suite, report, exit code."""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sam_plugin.errors import UsageError
from sam_plugin.runtime.text_safety import visible_json

EXIT_OK, EXIT_BELOW = 0, 1
LIVE_IDLE_TIMEOUT = 900.0  # a small CPU model may think for minutes before its first byte
LIVE_TOTAL_TIMEOUT = 3600.0


async def run(args: argparse.Namespace, out: Any = None) -> int:
    from sam_plugin.evaluation.report import build_report, write_reports
    from sam_plugin.evaluation.runner import RunnerOptions, run_policy, run_suite
    from sam_plugin.evaluation.task import load_suite

    out = out or sys.stdout
    if not 0.0 <= args.min_success <= 1.0:
        raise UsageError(f"--min-success: {args.min_success} is not between 0 and 1")
    if args.replay and (args.base_url or args.record):
        raise UsageError("--replay runs offline: drop --base-url/--record")
    if args.only_stale and not args.record:
        raise UsageError("--only-stale: needs --record DIR (the cassettes to bring up to date)")
    if args.fail_on_mismatch and not args.replay:
        raise UsageError("--fail-on-mismatch: needs --replay CASSETTES")
    if args.no_pipeline and not args.baseline:
        raise UsageError("--no-pipeline: needs --baseline free-python (there is nothing else "
                         "to run)")
    if args.unconstrained and args.replay:
        raise UsageError("--unconstrained: a replay asks what its meta.json recorded")
    if args.calls and args.replay:
        raise UsageError("--calls: a replay asks what its meta.json recorded (calls)")
    if args.design and args.replay:
        raise UsageError("--design: a replay asks what its meta.json recorded (design)")
    _check_task_timeout(args)
    if args.trust_cassette and not args.baseline:
        raise UsageError("--trust-cassette: needs --baseline free-python (only its scripts "
                         "run in a box)")
    if args.baseline:
        from sam_plugin.evaluation import isolation

        isolation.require(args.trust_cassette)  # no kernel box: one line, before any task
    run_policy(args.repairs)  # a bad SAM_AGENT_UNDO_* value: one line, exit 2, before any task
    only = [n.strip() for n in args.only.split(",") if n.strip()]
    tasks = load_suite(args.suite, only)  # a bad task file is a UsageError naming it
    source, meta = await _source(args)
    loads = None if args.replay else _load_log(args.record)
    options = RunnerOptions(work=args.out / "work", repairs=args.repairs,
                            baseline=args.baseline == "free-python",
                            script_timeout=args.script_timeout,
                            trust_cassette=args.trust_cassette,
                            pipeline=not args.no_pipeline, calls=meta["calls"],
                            design=meta["design"],
                            task_timeout=args.task_timeout,
                            after_task=None if loads is None else (
                                lambda result: loads.task_ended(result.name)))
    started = datetime.now(UTC)
    results = await run_suite(tasks, source, options)
    session_load = None if loads is None else loads.session()
    report = build_report(results, {
        "suite": str(args.suite),
        "started": started.isoformat(timespec="seconds"),
        "source": meta,
        "baseline": args.baseline,
        "min_success": args.min_success,
        "task_timeout": args.task_timeout,
        "load": None if session_load is None else session_load.model_dump(mode="json"),
    })
    written = write_reports(report, args.out)
    totals = report["totals"]
    summary = (f"success rate {totals['success_rate']:.1%} ({totals['accepted']}/"
               f"{totals['scored']} scored, {totals['skipped']} skipped, {totals['stale']} "
               f"stale, {totals['mismatches']} mismatched)")
    if "baseline_totals" in report:
        summary += f"; free-python {report['baseline_totals']['success_rate']:.1%}"
    print(f"sam-agent eval: {summary}; report: {', '.join(str(p) for p in written)}",
          file=sys.stderr)
    if args.json:
        out.write(visible_json(report, indent=1) + "\n")
    if args.fail_on_mismatch and _mismatches(report):
        print(f"sam-agent eval: {_mismatches(report)} cassette mismatch(es): the code sends "
              "other requests for the same prompts", file=sys.stderr)
        return EXIT_BELOW
    return EXIT_OK if totals["success_rate"] >= args.min_success else EXIT_BELOW


def _check_task_timeout(args: argparse.Namespace) -> None:
    if args.task_timeout is None:
        return
    if args.replay:
        raise UsageError("--task-timeout: a replay is not bounded; it reports the timeouts its "
                         "cassettes recorded")
    if not args.task_timeout > 0:
        raise UsageError(f"--task-timeout: {args.task_timeout:g} is not a positive number of "
                         "seconds")


def _load_log(record: Path | None) -> Any:
    """The load of a live session; when recording, each sample goes into meta.json too."""
    from sam_plugin.evaluation.cassette import load_meta, save_meta
    from sam_plugin.evaluation.machine_load import LoadLog

    def save(load: Any) -> None:
        if record is not None:
            save_meta(record, load_meta(record).model_copy(update={"load": load}))

    earlier = load_meta(record).load if record is not None else None
    return LoadLog(earlier, save, lambda line: print(line, file=sys.stderr))


def _mismatches(report: dict[str, Any]) -> int:
    counts = [report["totals"], report.get("baseline_totals") or {}]
    return sum(int(t.get("mismatches") or 0) for t in counts)


async def _source(args: argparse.Namespace) -> tuple[Any, dict[str, Any]]:
    from pydantic import ValidationError

    from sam_plugin.evaluation.cassette import CassetteMeta, load_meta, save_meta
    from sam_plugin.evaluation.runner import Source
    from sam_plugin.runtime.config import env as environment
    from sam_plugin.runtime.config.settings import ProviderSettings
    from sam_plugin.runtime.provider.probe import apply, detect, known_probe, replay_probe

    if args.replay:
        try:
            meta = load_meta(args.replay)
        except (FileNotFoundError, ValidationError) as error:
            raise UsageError(str(error)) from None
        settings = ProviderSettings(base_url="http://127.0.0.1:9/v1", model=meta.api_model,
                                    profile=meta.profile, temperature=meta.temperature,
                                    max_retries=0, retry_broken_stream=False,
                                    idle_read_timeout=60.0, total_timeout=300.0,
                                    constrained_calls=None if meta.constrained else False)
        probe = replay_probe(meta.server_kind or "unknown", meta.server_version)  # type: ignore[arg-type]
        return Source(settings=settings, replay=args.replay, server_probe=probe), {
            "kind": "replay", "cassettes": str(args.replay), **meta.model_dump()}
    env = dict(environment.environ())  # the flags count as the user's variables
    if args.base_url:
        env[environment.BASE_URL] = args.base_url
    if args.api_model:
        env[environment.MODEL] = args.api_model
    try:
        settings = ProviderSettings.from_env(env)
        patient = {"max_retries": 0, "retry_broken_stream": False,
                   "idle_read_timeout": LIVE_IDLE_TIMEOUT, "idle_timeout": LIVE_IDLE_TIMEOUT,
                   "total_timeout": LIVE_TOTAL_TIMEOUT}
        settings = settings.model_copy(update={
            k: v for k, v in patient.items() if k in ProviderSettings.model_fields})
    except ValidationError as error:
        raise UsageError(f"provider settings: {error.errors()[0]['msg']}") from None
    missing = settings.missing_fields()
    if missing:
        raise UsageError(
            f"provider settings incomplete: missing {', '.join(missing)} (use --base-url and "
            "--api-model, SAM_AGENT_BASE_URL/SAM_AGENT_MODEL, or --replay CASSETTES)")
    if args.unconstrained:
        settings = settings.model_copy(update={"constrained_calls": False})
    detection = await detect(settings)
    settings = apply(settings, detection)
    print(f"sam-agent eval: {detection.words()}", file=sys.stderr)
    meta = CassetteMeta(api_model=settings.model, profile=settings.profile,
                        temperature=settings.temperature, base_url=settings.base_url,
                        server=f"{detection.server.version} {detection.server.detail}".strip(),
                        server_kind=detection.server.kind,
                        server_version=detection.server.version,
                        constrained=not args.unconstrained,
                        calls=args.calls or environment.calls(env) or "spec",
                        design=args.design or environment.design(env) or "whole")
    if args.record:
        save_meta(args.record, _kept_notes(args.record, meta))
    # the server was asked once: every run (and an --only-stale replay) uses that answer
    source = Source(settings=settings, record=args.record, only_stale=args.only_stale,
                    server_probe=known_probe(detection.server))
    return source, {"kind": "live", **meta.model_dump(exclude={"load"})}


def _kept_notes(directory: Path, meta: Any) -> Any:
    """A new recording into a cassette directory keeps the notes written about it, and the
    load its earlier sessions were recorded under."""
    from sam_plugin.evaluation.cassette import load_meta

    try:
        old = load_meta(directory)
    except (FileNotFoundError, ValueError):
        return meta
    kept = meta if meta.notes or not old.notes else meta.model_copy(update={"notes": old.notes})
    return kept.model_copy(update={"load": old.load})
