"""pytest fixtures shared by every test folder (registered in tests/conftest.py).

- ``fake_provider``: a started :class:`~sam_plugin.demo.loopback.FakeProvider`
  (loopback HTTP server), closed after the test.
- ``provider_settings``: :class:`ProviderSettings` pointed at it, profile ``generic`` (so a
  design request carries exactly model, stream, temperature, messages), API key
  ``TEST_API_KEY`` so tests can assert it never leaks, and short timeouts and backoff.
- ``RecordingListener``: a :class:`StreamListener` that keeps everything it is told.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from sam_plugin.demo.loopback import FakeProvider
from sam_plugin.runtime.config.settings import ProviderSettings
from sam_plugin.runtime.provider.types import StreamListener, ToolCall

TEST_API_KEY = "sk-test-SECRET-KEY"
TEST_MODEL = "fake-model"


class RecordingListener(StreamListener):
    """Records every hook call, in order, for assertions."""

    def __init__(self) -> None:
        self.content: list[str] = []
        self.reasoning: list[str] = []
        self.raw: list[bytes] = []
        self.calls: list[ToolCall] = []
        self.usage: list[dict] = []
        self.retries: list[Exception] = []

    def on_content(self, text: str) -> None:
        self.content.append(text)

    def on_reasoning(self, text: str) -> None:
        self.reasoning.append(text)

    def on_raw(self, data: bytes) -> None:
        self.raw.append(data)

    def on_tool_call(self, call: ToolCall) -> None:
        self.calls.append(call)

    def on_usage(self, usage: dict) -> None:
        self.usage.append(usage)

    def on_retry(self, error: Exception) -> None:
        self.retries.append(error)


def settings_for(fake: FakeProvider, **overrides: object) -> ProviderSettings:
    """Settings for ``fake`` with test-friendly timeouts; ``overrides`` win."""
    values: dict[str, object] = {
        "base_url": fake.base_url,
        "api_key": TEST_API_KEY,
        "model": TEST_MODEL,
        "profile": "generic",
        "connect_timeout": 2.0,
        "idle_read_timeout": 5.0,
        "total_timeout": 30.0,
        "backoff_base": 0.01,
        "backoff_max": 0.05,
    }
    values.update(overrides)
    return ProviderSettings(**values)  # type: ignore[arg-type]  # validated by pydantic


@pytest.fixture
def fake_provider() -> Iterator[FakeProvider]:
    from sam_plugin.runtime.provider import probe

    probe.clear_cache()  # a port the OS gives out again is another server
    fake = FakeProvider()
    try:
        yield fake
    finally:
        fake.close()


@pytest.fixture
def provider_settings(fake_provider: FakeProvider) -> ProviderSettings:
    return settings_for(fake_provider)
