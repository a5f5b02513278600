"""Fixtures for the provider tests: ``chat`` runs one stream_chat against the fake server."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from sam_plugin.runtime.config.settings import ProviderSettings
from sam_plugin.runtime.provider.client import ChatProvider, ChatResponse

USER = [{"role": "user", "content": "build a 60 x 100 plate"}]

ChatFn = Callable[..., ChatResponse]


@pytest.fixture
def chat(provider_settings: ProviderSettings) -> ChatFn:
    """``chat(tools=None, *, settings=None, messages=None, **stream_chat_kwargs)``."""

    def run(
        tools: list[dict[str, Any]] | None = None,
        *,
        settings: ProviderSettings | None = None,
        messages: list[dict[str, Any]] | None = None,
        **kwargs: Any,
    ) -> ChatResponse:
        async def go() -> ChatResponse:
            provider = ChatProvider(settings or provider_settings)
            try:
                return await provider.stream_chat(messages or USER, tools, **kwargs)
            finally:
                await provider.aclose()

        return asyncio.run(go())

    return run
