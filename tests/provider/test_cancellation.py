"""Cancelling the awaiting task closes the HTTP connection promptly."""

from __future__ import annotations

import asyncio
import time

import pytest

from sam_plugin.demo import streams
from sam_plugin.runtime.provider.client import ChatProvider
from tests.support.fixtures import RecordingListener


def test_cancel_mid_stream_closes_the_connection(fake_provider, provider_settings):
    fake_provider.enqueue_stream(
        streams.openai_stream(content="first then a long pause"), delay=0.3
    )
    listener = RecordingListener()

    async def go() -> float:
        provider = ChatProvider(provider_settings)
        task = asyncio.create_task(
            provider.stream_chat([{"role": "user", "content": "x"}], listener=listener)
        )
        while not listener.content:  # the body has started
            await asyncio.sleep(0.01)
        cancelled_at = time.monotonic()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await provider.aclose()
        return cancelled_at

    cancelled_at = asyncio.run(go())
    assert fake_provider.client_disconnected.wait(2.0)
    assert time.monotonic() - cancelled_at < 1.5  # the unread rest would take >= 3 s
    assert fake_provider.disconnects == 1


def test_cancel_while_waiting_for_headers(fake_provider, provider_settings):
    fake_provider.enqueue_hang(5.0)

    async def go() -> None:
        provider = ChatProvider(provider_settings)
        task = asyncio.create_task(provider.stream_chat([{"role": "user", "content": "x"}]))
        while not fake_provider.requests:
            await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await provider.aclose()

    started = time.monotonic()
    asyncio.run(go())
    assert fake_provider.client_disconnected.wait(2.0)
    assert time.monotonic() - started < 2.0


def test_cancel_during_retry_backoff(fake_provider, provider_settings):
    settings = provider_settings.model_copy(update={"backoff_base": 5.0, "backoff_max": 5.0})
    fake_provider.enqueue_error(503, {"error": {"message": "busy"}})

    async def go() -> None:
        provider = ChatProvider(settings)
        task = asyncio.create_task(provider.stream_chat([{"role": "user", "content": "x"}]))
        await asyncio.sleep(0.3)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await provider.aclose()

    started = time.monotonic()
    asyncio.run(go())
    assert time.monotonic() - started < 2.0
    assert len(fake_provider.requests) == 1
