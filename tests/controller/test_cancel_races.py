"""Cancel at awkward moments: between streams, while a stream closes, while compiling.

A cancel must never be lost (the script then running anyway) and must never leave the
controller stuck busy.
"""

from __future__ import annotations

import asyncio
import json

from controller_fakes import (
    TARGET,
    FakeHost,
    FakePartModule,
    ScriptedProvider,
    build_controller,
    calls,
    design,
    fake_compose,
    fake_spec,
    policy,
    settings,
)

from sam_plugin.runtime.run.controller import Phase, RunController

SPEC = fake_spec("build", "audit", summary="Build a plate.")


class SlowClosingProvider(ScriptedProvider):
    """Answers at once but takes a while to close its connection."""

    def __init__(self, *responses):
        super().__init__(*responses)
        self.closing = asyncio.Event()

    async def aclose(self) -> None:
        self.closing.set()
        await asyncio.sleep(0.05)


def _controller(tmp_path, provider, composer=fake_compose):
    built = build_controller(tmp_path, provider, host=FakeHost(), composer=composer)
    return built.controller, built.host


def test_a_cancel_while_the_collection_stream_closes_is_not_lost(tmp_path):
    async def scenario():
        provider = SlowClosingProvider(design(SPEC), calls(("build_part", {}), ("audit_part", {})))
        controller, host = _controller(tmp_path, provider)
        assert await controller.submit("x", "part", TARGET) == Phase.REVIEW
        provider.closing.clear()
        confirming = asyncio.ensure_future(controller.confirm("part", TARGET))
        await provider.closing.wait()  # the round's answer is in; its stream is closing
        await controller.cancel()
        result = await confirming
        return controller, host, result

    controller, host, result = asyncio.run(scenario())
    assert host.executions == []
    assert controller.phase == Phase.CANCELLED and result.status == "cancelled"
    assert result.submissions == 0


def test_a_cancel_while_the_design_stream_closes_does_not_reach_review(tmp_path):
    async def scenario():
        provider = SlowClosingProvider(design(SPEC))
        controller, _ = _controller(tmp_path, provider)
        submitting = asyncio.ensure_future(controller.submit("x", "part", TARGET))
        await provider.closing.wait()
        await controller.cancel()
        return controller, await submitting

    controller, phase = asyncio.run(scenario())
    assert phase == Phase.CANCELLED and controller.result.status == "cancelled"


def test_the_task_cancelled_while_compiling_ends_cancelled_and_frees_the_controller(tmp_path):
    async def scenario():
        provider = ScriptedProvider(
            design(SPEC), calls(("build_part", {}), ("audit_part", {})), design(SPEC)
        )
        confirming: list[asyncio.Future] = []

        def compose_then_interrupt(fragments, run_id, target):
            confirming[0].cancel()  # e.g. Ctrl-C in the CLI while the script is composed
            return fake_compose(fragments, run_id, target)

        controller, host = _controller(tmp_path, provider, compose_then_interrupt)
        await controller.submit("x", "part", TARGET)
        confirming.append(asyncio.ensure_future(controller.confirm("part", TARGET)))
        try:
            await confirming[0]
        except asyncio.CancelledError:
            pass
        after = await controller.submit("again", "part", TARGET)  # not stuck "compiling"
        return controller, host, after

    controller, host, after = asyncio.run(scenario())
    assert host.executions == []
    assert after == Phase.REVIEW
    runs = sorted((tmp_path / "runs").glob("2*/result.json"))
    first = json.loads(runs[0].read_text())
    assert (first["status"], first["submissions"]) == ("cancelled", 0)


def test_an_unexpected_error_quoting_the_key_never_writes_it(tmp_path, caplog):
    from controller_fakes import API_KEY

    class HeaderFailure(ScriptedProvider):
        async def stream_chat(self, messages, tools=None, listener=None, options=None):
            header = f"Bearer {API_KEY}\n"
            raise UnicodeEncodeError("ascii", header, 0, 1, f"bad header {header!r}")

    controller, _ = _controller(tmp_path, HeaderFailure())
    assert asyncio.run(controller.submit("x", "part", TARGET)) == Phase.FAILED
    assert "internal error while designing" in controller.result.error.message
    for path in (tmp_path / "runs").rglob("*"):
        if path.is_file():
            assert API_KEY not in path.read_text(errors="replace"), path
    assert API_KEY not in caplog.text
    assert "***" in controller.result.error.message


def test_a_failure_in_the_preflight_says_the_part_was_not_modified(tmp_path):
    from sam_plugin.runtime.host_gateway import ExecutionReceipt
    from sam_plugin.runtime.run.controller import PARTIAL_WARNING
    from sam_plugin.runtime.run.execute import PREFLIGHT_STOPPED

    class PreflightStop(FakeHost):
        def execute(self, script, target, output_dir):
            self.executions.append(script)
            return ExecutionReceipt(status="FAIL", traceback="PreflightError: label 9",
                                    duration_s=0.0, stage="preflight")

    provider = ScriptedProvider(design(SPEC), calls(("build_part", {}), ("audit_part", {})))
    host = PreflightStop()
    controller = RunController(
        runs_dir=tmp_path / "runs", settings=settings(), policy=policy(), host=host,
        provider_factory=provider.factory, module_factory=lambda mode: FakePartModule(),
        composer=fake_compose,
    )
    asyncio.run(controller.submit("x", "part", TARGET))
    result = asyncio.run(controller.confirm("part", TARGET))
    assert len(host.executions) == 1 and result.status == "failed"
    assert PREFLIGHT_STOPPED in result.error.message
    assert PARTIAL_WARNING not in result.error.message
    assert result.error.part == "unchanged"  # carried as data for the views (issue 17)
