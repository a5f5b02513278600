"""``sam-agent run``: the headless gated pipeline (docs/architecture.md §6).

Registered in the one parser (``cli/main.py``); this module never imports the UI package.

``sam-agent run`` opens a workspace (through the offline SAM stub outside SAM, saying so),
streams the spec, asks y/N unless ``--yes``, prints progress with true status words, and exits
0 verified, 1 failed, 2 usage, 3 returned to review / nothing executed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shlex
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO, assert_never

from pydantic import ValidationError

from sam_plugin.cli.common import (
    EXIT_FAILED,
    EXIT_REVIEW,
    EXIT_VERIFIED,
    check_save_path,
    import_sam,
    names,
    open_workspace,
    repair_count,
    runs_dir_of,
    save_database,
    warn_recovered_runs,
)
from sam_plugin.compilers.protocol import Target
from sam_plugin.compilers.registry import MODES
from sam_plugin.errors import ProviderFailure, UsageError
from sam_plugin.runtime import event_types as ev
from sam_plugin.runtime.store.run_store import RunDir
from sam_plugin.runtime.store.workspace_save import OpenedWorkspace
from sam_plugin.runtime.text_safety import visible_json
from sam_plugin.samops.gc_pause import collector_paused


def add_parser(commands: Any) -> None:
    run = commands.add_parser(
        "run",
        help="observe, design, confirm, execute once and verify one request",
        description="Provider: --replay (the bundled recorded responses), else flags or "
        "SAM_AGENT_BASE_URL, SAM_AGENT_API_KEY, SAM_AGENT_MODEL (the key only from the "
        "environment), else the provider saved in the dock's Settings.",
    )
    run.add_argument("--workspace", required=True, type=Path, metavar="W.sam.json")
    run.add_argument("--mode", required=True, choices=MODES)
    run.add_argument("--model", required=True, help="target model name")
    run.add_argument("--part", required=True,
                     help="target part name (an existing part; Part mode builds a new one with "
                     "--new-part)")
    run.add_argument("--new-part", action="store_true",
                     help="Part mode: --part names a new part to build")
    source = run.add_mutually_exclusive_group(required=True)
    source.add_argument("--request", metavar="TEXT")
    source.add_argument("--request-file", type=Path, metavar="F")
    source.add_argument("--spec", metavar="FILE",
                        help="the spec IR (JSON) instead of a request, '-' for stdin: no "
                        "model is asked for it; it is reviewed against the part and "
                        "confirmed like a model's (--yes answers); with --calls spec no "
                        "provider is needed at all")
    run.add_argument(
        "--save",
        type=Path,
        metavar="OUT.sam.json",
        help="write the database here, only after a verified run",
    )
    run.add_argument("--runs-dir", type=Path, metavar="DIR")
    run.add_argument("--yes", action="store_true",
                     help="confirm the spec and approve a plan that carries no warning; a plan "
                     "with warnings stops (exit 3), nothing executed")
    run.add_argument("--yes-with-warnings", action="store_true",
                     help="as --yes, and approve a plan with warnings too (read them first)")
    run.add_argument("--base-url", metavar="URL")
    run.add_argument("--api-model", metavar="NAME")
    run.add_argument("--explore", action="store_true", help="read-only exploration phase")
    run.add_argument("--timeout", type=_seconds, metavar="S",
                     help="total seconds one provider call may take (default 600; "
                     "SAM_AGENT_TIMEOUT)")
    run.add_argument("--idle-timeout", type=_seconds, metavar="S",
                     help="seconds without progress (new content, tool-call argument or "
                     "reasoning text; empty deltas do not count) before a provider call is "
                     "given up (default 60; SAM_AGENT_IDLE_TIMEOUT)")
    run.add_argument("--replay", action="store_true",
                     help="answer with the bundled recorded responses, as the demo does "
                     "(only the bundled example requests, word for word)")
    run.add_argument(
        "--repairs",
        type=repair_count,
        metavar="N",
        help="repair rounds after a rejected tool call or a compile diagnostic "
        "(default 2; 0 turns them off)",
    )
    run.add_argument("--calls", choices=["spec", "model"],
                     help="where the tool calls come from: computed from the confirmed spec "
                     "(default; SAM_AGENT_CALLS) or filled in by the model in collection "
                     "rounds")
    run.add_argument("--design", choices=["parts", "whole"],
                     help="how the spec is asked: the whole spec in one request (default; "
                     "SAM_AGENT_DESIGN), or in parts, the actions then each action's values")
    run.add_argument("--json", action="store_true", help="print result.json on stdout")
    run.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    return asyncio.run(run_command(args))


async def run_command(
    args: argparse.Namespace,
    *,
    stdin: TextIO | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    stdin, out, err = stdin or sys.stdin, out or sys.stdout, err or sys.stderr
    given_spec = getattr(args, "spec", None)
    request = "" if given_spec is not None else _read_request(args)
    spec = read_spec_file(given_spec, stdin) if given_spec is not None else None
    save_path = check_save_path(args.save) if args.save else None
    policy = _policy(args)
    sam = import_sam(err)
    # the workspace and target first: a typo there is said as such, provider or not
    opened = open_workspace(sam, args.workspace, save_path)
    _check_target(sam, args.workspace, args.mode, args.model, args.part,
                  new_part=getattr(args, "new_part", False))
    with contextlib.ExitStack() as stack:
        client = None
        if spec is not None and policy.calls == "spec":
            settings, provider_name, probe = _no_provider(err)
        else:
            settings, provider_name, probe, client = await _provider(args, err, stack)
        try:
            return await _run(args, request, opened, save_path, sam, settings, provider_name,
                              policy, stdin=stdin, out=out, err=err, probe=probe, spec=spec,
                              client=client)
        finally:
            if client is not None:
                await client.aclose()


async def _run(args: argparse.Namespace, request: str, opened: OpenedWorkspace,
               save_path: Path | None, sam: Any, settings: Any, provider_name: str,
               policy: Any, *, stdin: TextIO, out: TextIO, err: TextIO,
               probe: Any = None, spec: str | None = None, client: Any = None) -> int:
    with collector_paused():  # the run's modules, long-lived (see cli/main.py)
        from sam_plugin.errors import SubmitRefused
        from sam_plugin.runtime.host_gateway import HostGateway
        from sam_plugin.runtime.run.controller import RunController
        from sam_plugin.runtime.run.phases import Phase
        from sam_plugin.runtime.run.provider_call import chat_provider

    host = HostGateway(sam)
    target = Target(model_name=args.model, part_name=args.part)
    controller = RunController(runs_dir=runs_dir_of(args), settings=settings, host=host,
                               provider_name=provider_name, policy=policy, server_probe=probe,
                               provider_factory=_sharing(client) if client else chat_provider)
    warn_recovered_runs(controller.recovered_runs, err)
    controller.units = _units(host, args.model, err)
    progress = _Progress(err, lambda: controller.plan)
    controller.subscribe(progress)
    try:
        if spec is not None:
            phase = await controller.submit_spec(spec, args.mode, target, source="cli")
        else:
            phase = await controller.submit(request, args.mode, target, explore=args.explore,
                                            source="cli")
    except SubmitRefused as refused:
        raise UsageError(str(refused)) from None
    progress.end_stream()
    if phase == Phase.REVIEW:
        _show_spec(controller.spec_text, err, controller.review_warnings,
                   [r.words() for r in controller.design_repairs])
    yes = args.yes or args.yes_with_warnings
    confirmed = _ask(stdin, err, policy.calls) if phase == Phase.REVIEW and not yes else True
    unanswered = confirmed is None
    if not confirmed:
        await controller.cancel()
    elif phase == Phase.REVIEW:
        # whatever the script prints goes to stderr: stdout carries only the result
        with contextlib.redirect_stdout(err):
            # --yes answers the plan question for a plan without warnings (a warned plan
            # waits whatever the policy); else the plan always waits for the answer
            await controller.confirm(args.mode, target,
                                     plan_wait="never" if yes else "always")
        if controller.phase == Phase.PLAN:
            assert controller.plan is not None
            approved: bool | None = False
            if args.yes and not args.yes_with_warnings:
                _refuse_warned_plan(controller.plan, err)
            else:
                approved = args.yes_with_warnings or _ask_plan_of(controller, stdin, err)
                unanswered = approved is None
            if approved:
                with contextlib.redirect_stdout(err):
                    await controller.execute(args.mode, target)
            else:
                controller.decline_plan()
    result = controller.result
    assert result is not None
    saved = None
    if result.status == "verified" and save_path is not None:
        outcome = save_database(host, save_path, opened, err)
        saved = outcome.saved
        result = result.model_copy(update={"save": outcome})
        RunDir(controller.runs_dir, result.run_id, controller.scrubber).write_result(result)
    _print_result(result, controller.runs_dir / result.run_id, args.json, out, args.workspace,
                  controller.units)
    if not args.json:
        _print_next_step(result, settings.base_url, save_path, out, spec is not None,
                         unanswered=unanswered)
    if saved is False:
        return EXIT_FAILED
    return {"verified": EXIT_VERIFIED, "rejected": EXIT_REVIEW, "cancelled": EXIT_REVIEW}.get(
        result.status, EXIT_FAILED
    )


# -- inputs -----------------------------------------------------------------------------------


def _read_request(args: argparse.Namespace) -> str:
    from sam_plugin.runtime.run.start import MAX_REQUEST_BYTES, request_size_problem

    if args.request is not None:
        text: str = args.request
        too_large = request_size_problem(len(text.encode("utf-8", "surrogatepass")))
        if too_large is not None:
            raise UsageError(f"--request: {too_large}")
    else:
        from sam_plugin.runtime.store.path_kinds import not_a_file

        problem = not_a_file(args.request_file)
        if problem is not None:  # reading /dev/zero or a FIFO would never end
            raise UsageError(f"--request-file: {problem}")
        try:
            # the size before the read (a file that grows meanwhile is cut at the bound)
            size = args.request_file.stat().st_size
            too_large = request_size_problem(size, str(args.request_file))
            if too_large is not None:
                raise UsageError(f"--request-file: {too_large}")
            with args.request_file.open("rb") as handle:
                data = handle.read(MAX_REQUEST_BYTES + 1)
            too_large = request_size_problem(len(data), str(args.request_file))
            if too_large is not None:
                raise UsageError(f"--request-file: {too_large}")
            # as read_text would: universal newlines
            text = data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
        except UnicodeDecodeError:
            raise UsageError(
                f"--request-file: {args.request_file} is not UTF-8 text; save it as UTF-8 "
                "(e.g. iconv -f GBK -t UTF-8) and run again"
            ) from None
        except OSError as error:
            reason = error.strerror or str(error)
            raise UsageError(
                f"--request-file: cannot read {args.request_file} ({reason})"
            ) from None
    if not text.strip():
        flag = "--request" if args.request is not None else "--request-file"
        raise UsageError(f"{flag}: empty; describe the change you want")
    return text


def _sharing(client: Any) -> Any:
    """The provider factory whose chat models all use ``client`` (the one the server's probe
    used: one TLS context and one connection pool a command, not one each)."""
    from sam_plugin.runtime.provider.client import ChatProvider

    return lambda settings: ChatProvider(settings, client=client)


async def _provider(args: argparse.Namespace, err: TextIO, stack: contextlib.ExitStack
                    ) -> tuple[Any, str, Any, Any]:
    """(settings, provider name, server probe, HTTP client or None) by the rule of
    ``provider_choice``; the replay server, when chosen, runs until the command ends. A live
    server is asked what it is (runtime/provider/probe.py) before the first line names it,
    with the HTTP client its chat requests then use (the caller closes it)."""
    with collector_paused():  # the provider stack's modules, long-lived (see cli/main.py)
        from sam_plugin.runtime.config import env as environment
        from sam_plugin.runtime.config.store import SettingsStore
        from sam_plugin.runtime.provider.choice import choose
        from sam_plugin.runtime.provider.client import new_http_client
        from sam_plugin.runtime.provider.probe import (
            apply,
            detect,
            known_probe,
            probe_server,
            replay_probe,
        )

    env = dict(environment.environ())  # the flags count as the user's variables
    if args.base_url:
        env[environment.BASE_URL] = args.base_url
    if args.api_model:
        env[environment.MODEL] = args.api_model
    if getattr(args, "timeout", None) is not None:
        env[environment.TIMEOUT] = str(args.timeout)
    if getattr(args, "idle_timeout", None) is not None:
        env[environment.IDLE_TIMEOUT] = str(args.idle_timeout)
    saved = SettingsStore().load()
    try:
        choice = choose(env, saved, force_replay=args.replay, default_replay=False)
    except ValidationError as error:
        raise _setting_error(error) from None
    if choice.is_replay and choice.kind == "replay":
        from sam_plugin.demo.replay_service import ReplayService

        service = ReplayService(delay=0.0)
        stack.callback(service.close)
        why = "--replay" if args.replay else "saved in the dock's Settings"
        print(f"sam-agent: provider: Replay — the bundled recorded responses ({why}); it "
              "answers only the bundled example requests, word for word", file=err)
        return choice.settings(service.base_url), choice.name(), replay_probe(), None
    settings = _settings(choice.live)
    _refuse_key_as_model(settings, "--api-model" if args.api_model else environment.MODEL)
    client = new_http_client(settings)
    try:
        detection = await detect(settings, lambda asked: probe_server(asked, client=client))
    except BaseException:
        await client.aclose()
        raise
    where = {"environment": "flags or environment", "saved": "saved in the dock's Settings"}
    said = where.get(choice.reason, "flags")
    if not detection.server.reachable:  # the cause first, not a server it is not
        print(f"sam-agent: provider: {detection.words()} (the base URL {settings.base_url}, "
              f"{said}): start the server there, or correct --base-url or "
              "SAM_AGENT_BASE_URL", file=err)
        # said once: the run fails at its first call, without retrying a dead address
        settings = settings.model_copy(update={"max_retries": 0})
    else:
        print(f"sam-agent: provider: {choice.describe(detection)} ({said})", file=err)
    if detection.server.note and detection.server.reachable:
        print(f"sam-agent: {detection.words()}", file=err)
    from sam_plugin.runtime.store.scrubber import SHORT_KEY_WARNING, Scrubber

    if Scrubber(settings.api_key.get_secret_value()).short_key:
        print(f"sam-agent: warning: {SHORT_KEY_WARNING}", file=err)
    # the server was asked: the run records this answer, and does not ask again
    return apply(settings, detection), detection.profile, known_probe(detection.server), client


def _policy(args: argparse.Namespace) -> Any:
    """The saved run policy (repair rounds; the plan's wait is the CLI's own question),
    ``--repairs`` over it."""
    from sam_plugin.runtime.config.store import SettingsStore

    try:
        policy = SettingsStore().policy()
    except ValidationError as error:
        first = error.errors()[0]
        raise UsageError(f"saved setting {'.'.join(str(p) for p in first['loc'])}: "
                         f"{first['msg']}") from None
    if args.repairs is not None:
        policy = policy.model_copy(update={"repair_rounds": args.repairs})
    if getattr(args, "calls", None) is not None:
        policy = policy.model_copy(update={"calls": args.calls})
    if getattr(args, "design", None) is not None:
        policy = policy.model_copy(update={"design": args.design})
    return policy


def _no_provider(err: TextIO) -> tuple[Any, str, Any]:
    """A given spec whose calls are computed: no model is asked anything."""
    from sam_plugin.runtime.config.settings import ProviderSettings

    print("sam-agent: provider: none — the spec is given (--spec) and the calls are computed "
          "from its steps; no model is asked", file=err)
    return ProviderSettings(), "none", None


def read_spec_file(name: str, stdin: TextIO) -> str:
    """The text of ``--spec FILE`` (``-``: standard input): UTF-8 JSON, bounded as a request
    is and read by the strict reader an MCP agent's arguments meet (``strict_json``); a
    refusal object is no spec. The reader then checks it as a spec of the mode (naming
    every problem)."""
    from sam_plugin.compilers import strict_json
    from sam_plugin.runtime.run.start import request_size_problem

    where = "standard input" if name == "-" else name
    text, size = _spec_text(name, stdin)
    too_large = request_size_problem(size, where)
    if too_large is not None:
        raise UsageError(f"--spec: {too_large}")
    try:
        document = strict_json.loads_typed(text)
    except strict_json.StrictJSONError as error:
        if not error.syntax:
            raise UsageError(f"--spec: {where}: {error}") from None
        raise UsageError(f"--spec: {where} is not JSON ({error}); give the spec IR, one JSON "
                         'object {"summary": ..., "steps": [...]}') from None
    if isinstance(document, dict) and "refuse" in document:
        raise UsageError(f'--spec: {where} holds {{"refuse": ...}}, how a model declines a '
                         'request, not a spec; give the spec IR, one JSON object '
                         '{"summary": ..., "steps": [...]}')
    return text


_READ_CHUNK = 1 << 20
_COUNT_UP_TO = 1 << 30  # standard input is counted this far, no further


def _spec_text(name: str, stdin: TextIO) -> tuple[str, int]:
    """The spec's text (what was read of it, when it is over the size limit) and its size
    in UTF-8 bytes: the real size, a file's from the file system, standard input's counted to
    its end (up to 1 GiB)."""
    from sam_plugin.runtime.run.start import MAX_REQUEST_BYTES
    from sam_plugin.runtime.store.path_kinds import not_a_file

    if name == "-":
        text = stdin.read(MAX_REQUEST_BYTES + 1)
        size = len(text.encode("utf-8", "surrogatepass"))
        while size > MAX_REQUEST_BYTES and size <= _COUNT_UP_TO and (
                more := stdin.read(_READ_CHUNK)):
            size += len(more.encode("utf-8", "surrogatepass"))
        return text, size
    problem = not_a_file(Path(name))
    if problem is not None:
        raise UsageError(f"--spec: {problem}")
    try:
        with open(name, "rb") as handle:
            data = handle.read(MAX_REQUEST_BYTES + 1)
            if len(data) > MAX_REQUEST_BYTES:
                return "", max(os.fstat(handle.fileno()).st_size, len(data))  # never read
        return data.decode("utf-8"), len(data)
    except UnicodeDecodeError:
        raise UsageError(f"--spec: {name} is not UTF-8 text; save it as UTF-8") from None
    except OSError as error:
        raise UsageError(f"--spec: cannot read {name} "
                         f"({error.strerror or error})") from None


# ProviderSettings field -> the flag that sets it
_PROVIDER_FLAGS = {"model": "--api-model", "base_url": "--base-url", "total_timeout": "--timeout",
                   "idle_timeout": "--idle-timeout"}


def _setting_error(error: ValidationError) -> UsageError:
    first = error.errors()[0]
    field = ".".join(str(p) for p in first["loc"])
    from sam_plugin.runtime.config.env import PROVIDER_FIELDS

    flag = _PROVIDER_FLAGS.get(field)
    variable = PROVIDER_FIELDS.get(field)
    source = " or ".join(n for n in (flag, variable) if n) or field
    reason = first["msg"].removeprefix("Value error, ")
    return UsageError(f"provider setting {field} ({source}): {reason}")


def _refuse_key_as_model(settings: Any, where: str) -> None:
    """A model's name that is the API key, or looks like one, is never sent or written."""
    from sam_plugin.runtime.store.key_shape import key_shaped
    from sam_plugin.runtime.store.scrubber import Scrubber

    name = settings.model
    if Scrubber(settings.api_key.get_secret_value()).contains(name):
        what = "holds the API key"
    elif key_shaped(name):
        what = f"looks like an API key ({key_shaped(name)[0][:3]}…)"
    else:
        return
    raise UsageError(f"{where}: the value {what}, not a model's name; give the model's name "
                     "here (the key goes in SAM_AGENT_API_KEY or the dock's Settings); "
                     "nothing was sent")


def _settings(settings: Any) -> Any:
    """The live settings, complete (validated already by ``choose``)."""
    missing = settings.missing_fields()
    if missing:
        raise UsageError(
            "provider settings incomplete: missing "
            + ", ".join(missing)
            + " (use --base-url, --api-model, or SAM_AGENT_BASE_URL, SAM_AGENT_API_KEY, "
            "SAM_AGENT_MODEL; or --replay for the bundled recorded responses)"
        )
    return settings


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r}: give a positive number of seconds")
    return value


def _check_target(sam: Any, workspace: Path, mode: str, model: str, part: str, *,
                  new_part: bool = False) -> None:
    """The target must be there before a provider is asked: the model always, the part
    unless ``--new-part`` says Part mode is to build it. A part that is not there is a usage
    error listing the parts (and the name it may be a misspelling of), as in every mode."""
    from sam_plugin.compilers.registry import get_module
    from sam_plugin.runtime.run.target_check import (
        building_module,
        parts_by_model,
        target_problem,
    )

    by_model = parts_by_model(sam.mdb)
    if new_part and mode != "part":
        raise UsageError(f"--new-part: only Part mode builds a part ({mode} mode changes an "
                         "existing one)")
    problem = target_problem(by_model, Target(model_name=model, part_name=part),
                             get_module(mode))
    if problem is not None and problem.missing == "model":
        raise UsageError(
            f"--model: no model {model!r} in {workspace}; models there: {names(problem.models)}"
        )
    if problem is not None:
        raise UsageError(
            f"--part: no part {part!r} in model {model!r} (parts: {names(problem.parts)}); "
            f"{mode} mode changes an existing part: build it first with --mode "
            f"{building_module().mode}"
        )
    existing = list(by_model.get(model, ()))
    if new_part and part in existing:
        raise UsageError(f"--new-part: model {model!r} already has a part {part!r}; leave out "
                         "--new-part to change it")
    if new_part or part in existing:
        return
    close = _close_names(part, existing)
    build = f"build a new part named {part!r}, add --new-part"
    said = f"did you mean {close[0]!r}? To {build}" if close else f"to {build}"
    raise UsageError(f"--part: no part {part!r} in model {model!r} (parts: {names(existing)}); "
                     + said)


def _close_names(name: str, existing: Sequence[str]) -> list[str]:
    """The existing names ``name`` may be a misspelling of (case aside), closest first."""
    import difflib

    lowered = {n.lower(): n for n in existing}
    return [lowered[n] for n in difflib.get_close_matches(name.lower(), list(lowered), n=3,
                                                          cutoff=0.85)]


def _show_spec(spec: str, err: TextIO, warnings: Sequence[str] = (),
               repaired: Sequence[str] = ()) -> None:
    """The spec, once: exactly the text that is stored and confirmed (its rendering, from
    spec.json); then where it disagrees with the part as observed now, and the steps of the
    design that were asked again before Review."""
    print("\n--- proposed spec (nothing has been collected or executed) ---", file=err)
    print(spec, file=err)
    print("---", file=err)
    for warning in warnings:
        print(f"WARNING: {warning}", file=err)
    for words in repaired:
        print(f"REPAIRED: {words}", file=err)


def _units(host: Any, model_name: str, err: TextIO) -> Any:
    """The unit system the words say: the model's, else the one chosen in the dock's
    Settings (mm-N-t-s by default), said once."""
    from sam_plugin.runtime.config.units import model_units

    units, declared = model_units(host, model_name)
    where = "the model's" if declared else (
        "the model declares none; the dock's Settings choose them")
    print(f"sam-agent: units: {units.words()} ({where})", file=err)
    return units


def _ask(stdin: TextIO, err: TextIO, calls: str = "model") -> bool | None:
    question = ("Confirm this spec? Its tool calls are computed from its steps." if
                calls == "spec" else "Confirm this spec and let the model fill in the tool calls?")
    print(f"{question} [y/N] ", end="", file=err)
    return _answer(stdin, err)


def _refuse_warned_plan(plan: Any, err: TextIO) -> None:
    print("\n--- plan (compiled, not executed; destructive lines and warnings first) ---",
          file=err)
    print(plan.text(), file=err)
    print("---", file=err)
    print(f"sam-agent: the plan was not executed: it carries {len(plan.warnings)} warning(s), "
          "and --yes approves only a plan without warnings; read them, then run again without "
          "--yes to answer, or with --yes-with-warnings", file=err)


def _ask_plan_of(controller: Any, stdin: TextIO, err: TextIO) -> bool | None:
    """The plan put before the analyst at this terminal (``approval_requested``: cli)."""
    controller.approval_requested("cli")
    return _ask_plan(controller.plan.text(), stdin, err)


def _ask_plan(plan_text: str, stdin: TextIO, err: TextIO) -> bool | None:
    print("\n--- plan (compiled, not executed; destructive lines and warnings first) ---",
          file=err)
    print(plan_text, file=err)
    print("---", file=err)
    print("Execute this plan? [y/N] ", end="", file=err)
    return _answer(stdin, err)


def _answer(stdin: TextIO, err: TextIO) -> bool | None:
    """Yes or no; ``None`` when no answer came (the input ended, or was blank without a
    terminal): the next line then names --yes, the way to run without questions."""
    err.flush()
    answer = stdin.readline()
    terminal = _is_terminal(stdin)
    if not terminal:  # a piped answer is not echoed: show it, end the line
        print(answer.strip() or "(no answer: the input is not a terminal)", file=err)
    if not answer or (not terminal and not answer.strip()):
        return None
    return answer.strip().lower() in ("y", "yes")


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


# -- output -----------------------------------------------------------------------------------


class _Progress:
    """Progress lines on stderr; the streamed spec as it arrives."""

    def __init__(self, err: TextIO, plan: Callable[[], Any] | None = None):
        self.err = err
        self.streaming = False
        self.plan = plan  # the plan shown, for what a setting approves without asking

    def __call__(self, typed: ev.RunEvent) -> None:
        if isinstance(typed, ev.PlanApproved) and typed.by.startswith("plan_wait="):
            self._approved_unasked()
            return
        if isinstance(typed, ev.DesignDelta):
            # the spec is printed once, whole, when it is ready (_show_spec); a dot per piece
            # shows that the model is writing
            if typed.reset:
                print("\n[the stream restarted; the spec so far is discarded]", file=self.err)
            if typed.text:
                self.streaming = True
                self.err.write(".")
                self.err.flush()
            return
        line = progress_line(typed)
        if line:
            self.end_stream()
            print(line, file=self.err)

    def _approved_unasked(self) -> None:
        """--yes approved the plan without printing it: its destructive lines are said."""
        plan = self.plan() if self.plan is not None else None
        if plan is None:
            return
        self.end_stream()
        print(f"  plan approved by --yes: {plan.summary()}", file=self.err)
        for line in plan.destructive:
            print(f"  DESTRUCTIVE: {line}", file=self.err)

    def end_stream(self) -> None:
        if self.streaming:
            self.err.write("\n")
            self.streaming = False


def progress_line(event: ev.RunEvent) -> str | None:
    """The progress line an event gets on stderr, if any (docs/architecture.md §8: collected
    ≠ compiled ≠ executed)."""
    match event:
        case ev.PhaseChanged(phase=phase, label=label):
            return f"[{phase}] {label}"
        case ev.ToolCallCollected(tool=tool, source="spec"):
            return f"  computed from the confirmed steps, not executed: {tool}"
        case ev.ToolCallCollected(tool=tool, round=number):
            return f"  collected, not executed: {tool} (round {number})"
        case ev.ToolCallRejected(reason=reason):
            return f"  rejected: {reason}"
        case ev.RepairRequested(layer="design", headline=headline):
            return f"  not a spec ({headline}): one design repair round"
        case ev.ToolCallCompiled(tool=tool):
            return f"  compiled: {tool}"
        case ev.ScriptComposed(script_sha256=sha):
            return f"  script composed: sha256 {sha[:16]}…"
        case ev.PlanDeclined():
            return "  plan declined: nothing executed"
        case ev.ExecutionCompleted(status=status):
            return f"  executed: {status}"
        case (ev.DesignDelta() | ev.ReasoningDelta() | ev.ProviderRetry()
              | ev.CollectionProgress() | ev.RunCancelled() | ev.ObservationCompleted()
              | ev.ExplorationStarted() | ev.ExplorationQuery() | ev.ExplorationTurn()
              | ev.ExplorationCompleted() | ev.ServerDetected() | ev.DesignReceived()
              | ev.RevisionRequested() | ev.DesignConfirmed() | ev.ToolCallReconstructed()
              | ev.ConstraintDropped() | ev.RepairRequested() | ev.PlanShown()
              | ev.ApprovalRequested() | ev.DecisionForged() | ev.PlanApproved()
              | ev.SnapshotTaken()
              | ev.ExecutionSubmitted() | ev.ReadbackVerified() | ev.RestoreCompleted()
              | ev.RestoreFailed() | ev.RunUndone() | ev.ReturnedToReview() | ev.RunFailed()):
            return None
        case _:
            assert_never(event)


def _print_result(result: Any, run_dir: Path, as_json: bool, out: TextIO,
                  workspace: Path | None = None, units: Any = None) -> None:
    if as_json:
        payload = json.loads((run_dir / "result.json").read_text(encoding="utf-8"))
        plan = run_dir / "plan.json"
        # additive: the plan that was shown (and approved or declined), null before a plan
        payload["plan"] = json.loads(plan.read_text(encoding="utf-8")) if plan.is_file() else None
        out.write(visible_json(payload, indent=2) + "\n")
        return
    words = {
        "verified": "Verified: the change was executed once and confirmed by readback.",
        "failed": "Failed",
        "rejected": "Returned to review: nothing was executed.",
        "cancelled": "Cancelled: nothing was executed.",
        "unknown": "Unknown outcome: re-observe the part.",
    }
    headline = words.get(result.status, result.status)
    if result.error is not None and result.status == "failed":
        headline = f"Failed at {result.error.layer}"
        if getattr(result, "restored", False):
            headline += "; the part was restored exactly as it was"
    print(headline, file=out)
    if result.error is not None:
        print(f"  {result.error.layer}: {result.error.message}", file=out)
    from sam_plugin.compilers.units import measured
    from sam_plugin.runtime.verify.part_comparison import REST

    for check in result.checks:
        mark = "ok " if check.ok else "FAIL"
        if check.name == REST:  # the fingerprints stay in result.json: one short line here
            said = "as before the run" if check.ok else check.actual
            print(f"  [{mark}] {check.name}: {said}", file=out)
            continue
        expected, actual = (measured(check.expected, check.quantity, units),
                            measured(check.actual, check.quantity, units))
        print(f"  [{mark}] {check.name}: expected {expected}, actual {actual}", file=out)
    if result.after is not None:
        after = result.after
        print(f"  after: {after.node_count} nodes, {after.element_count} elements", file=out)
    print(f"  run directory: {run_dir}", file=out)
    hint = undo_hint(result, run_dir.parent, workspace)
    if hint:
        print(f"  {hint}", file=out)


def undone_name(saved: str) -> str:
    """``out.sam.json`` → ``out.undone.sam.json`` (beside it): where an undo may write."""
    path = Path(saved)
    stem = path.name.removesuffix(".sam.json") if path.name.endswith(".sam.json") else path.stem
    return str(path.with_name(f"{stem}.undone.sam.json"))


def undo_hint(result: Any, runs_dir: Path, workspace: Path | None) -> str | None:
    """How to undo a verified run, naming the file that holds its change (the one --save
    wrote); without a saved file there is nothing on disk to undo."""
    if result.status != "verified":
        return None
    save = getattr(result, "save", None)
    before, after = result.before, result.after
    changed = before is None or after is None or before.fingerprint != after.fingerprint
    if save is None and changed:
        where = f"{workspace} is unchanged on disk" if workspace else "nothing was written"
        return (f"not saved: without --save the change stays in this run only ({where}); "
                "run again with --save OUT.sam.json to keep it")
    if save is None or not save.saved or not getattr(result, "undoable", False):
        return None
    return (f"undo: sam-agent undo {result.run_id} --workspace {shlex.quote(save.path)} "
            f"--save {shlex.quote(undone_name(save.path))} "
            f"--runs-dir {shlex.quote(str(runs_dir))}")


UNANSWERED = ("Nothing was executed: the question got no answer (the input is not a "
              "terminal). Run again with --yes to confirm the spec and a plan without "
              "warnings, or --yes-with-warnings to approve a plan with warnings too; or run it "
              "at a terminal to answer.")


def next_step(status: str, layer: str | None, base_url: str, message: str = "",
              *, given_spec: bool = False, unanswered: bool = False,
              failure: ProviderFailure | None = None) -> str | None:
    """What the analyst should do after a run that did not verify, by where it stopped."""
    if status == "verified":
        return None
    if unanswered:
        return UNANSWERED
    if given_spec and layer in ("design", "compile", "tool_call") or (
            given_spec and status in ("rejected", "cancelled")):
        return "Nothing was executed. Edit the spec (--spec) as the message says and run again."
    if status in ("rejected", "cancelled"):
        return "Nothing was executed. Edit the request (or --request-file) and run again."
    if status == "unknown":
        return "The outcome is unknown: open the workspace and check the part; never rerun blindly."
    return {
        "observation": "Nothing was executed. Check --workspace, --model and --part, then run "
        "again.",
        "design": "Nothing was executed. Rephrase the request (what to change, on which part) "
        "and run again.",
        "provider": _provider_step(message, base_url, failure),
        "tool_call": "Nothing was executed. Edit the request and run again.",
        "compile": "Nothing was executed. Edit the request and run again.",
        "execution": "The part may be partly modified: re-observe it (open the workspace "
        "again) before the next run.",
        "verification": "The model was changed but did not read back as the spec said: "
        "inspect the part before the next run.",
    }.get(layer or "", "Nothing was verified: check the run directory before the next run.")


def _provider_step(message: str, base_url: str, failure: ProviderFailure | None) -> str:
    """By the failed call's kind (in a run written before it was data, by the message's)."""
    kind = failure.kind if failure is not None else next(
        (k for k in ("connection", "timeout", "auth") if f"{k}:" in message), "")
    if kind in ("connection", "timeout"):
        return (f"Nothing was executed. Check that the provider at {base_url} is running and "
                "reachable (--base-url or SAM_AGENT_BASE_URL), then run again.")
    if kind == "auth":
        return ("Nothing was executed. Check the API key (SAM_AGENT_API_KEY) for "
                f"{base_url}, then run again.")
    return ("Nothing was executed. Read the provider's message above; fix the request or the "
            "provider settings (--base-url, --api-model, SAM_AGENT_API_KEY), then run again.")


def _print_next_step(result: Any, base_url: str, save_path: Path | None, out: TextIO,
                     given_spec: bool = False, *, unanswered: bool = False) -> None:
    error = result.error
    layer, message = (error.layer, error.message) if error is not None else (None, "")
    step = next_step(result.status, layer, base_url, message, given_spec=given_spec,
                     unanswered=unanswered,
                     failure=getattr(error, "provider", None) if error is not None else None)
    if step:
        print(f"  next: {step}", file=out)
    if save_path is not None and result.status != "verified":
        print(f"  --save: {save_path} was not written (the run did not verify)", file=out)
    save = getattr(result, "save", None)
    if save is not None and not save.saved:
        print(f"  --save: {save.path} was {save.message}", file=out)

