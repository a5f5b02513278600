"""What goes on the wire: design requests carry no tools; tool_choice only when allowed."""

from __future__ import annotations

import pytest

from sam_plugin.demo import streams
from sam_plugin.runtime.config.settings import PROFILES
from sam_plugin.runtime.provider.client import ChatProvider
from tests.support.fixtures import TEST_API_KEY, TEST_MODEL, settings_for

TOOL = {
    "type": "function",
    "function": {"name": "audit_part", "parameters": {"type": "object"}, "strict": True},
}


@pytest.mark.parametrize("tools", [None, []])
def test_design_request_has_exactly_model_stream_temperature_messages(fake_provider, chat, tools):
    fake_provider.enqueue_reply("spec")
    chat(tools, tool_choice="auto")

    [request] = fake_provider.requests
    assert request.path == "/v1/chat/completions"
    assert request.json == {
        "model": TEST_MODEL,
        "stream": True,
        "temperature": 0.1,
        "messages": [{"role": "user", "content": "build a 60 x 100 plate"}],
    }
    assert request.headers["authorization"] == f"Bearer {TEST_API_KEY}"
    assert request.headers["accept"] == "text/event-stream"


@pytest.mark.parametrize("profile", PROFILES)
def test_no_profile_sends_tools_on_a_design_request_or_tool_choice_by_default(
    fake_provider, chat, profile
):
    settings = settings_for(fake_provider, profile=profile)
    fake_provider.enqueue_reply("spec")
    fake_provider.enqueue_reply(tool_calls=[("audit_part", "{}")])

    chat(settings=settings, tool_choice="required")
    chat([TOOL], settings=settings, tool_choice="required")

    design, script = (r.json for r in fake_provider.requests)
    assert "tools" not in design and "tool_choice" not in design
    assert script["tools"][0]["function"]["name"] == "audit_part"
    assert "tool_choice" not in script


def test_tool_choice_sent_only_when_allowed_and_asked(fake_provider, chat):
    settings = settings_for(fake_provider, profile="openai", allow_tool_choice=True)
    fake_provider.enqueue_reply(tool_calls=[("audit_part", "{}")])
    fake_provider.enqueue_reply(tool_calls=[("audit_part", "{}")])
    fake_provider.enqueue_reply("spec")

    chat([TOOL], settings=settings, tool_choice="required")
    chat([TOOL], settings=settings)
    chat(settings=settings, tool_choice="required")

    asked, not_asked, design = (r.json for r in fake_provider.requests)
    assert asked["tool_choice"] == "required"
    assert "tool_choice" not in not_asked
    assert "tools" not in design and "tool_choice" not in design


def test_script_request_adds_only_the_given_tools(fake_provider, chat):
    settings = settings_for(fake_provider, profile="openai")
    fake_provider.enqueue_reply(tool_calls=[("audit_part", "{}")])
    chat([TOOL], settings=settings)
    [request] = fake_provider.requests
    assert set(request.json) == {
        "model",
        "stream",
        "temperature",
        "messages",
        "stream_options",
        "tools",
    }
    assert request.json["tools"] == [TOOL]  # openai accepts strict schemas: sent as given
    assert request.json["stream_options"] == {"include_usage": True}


def test_strict_flag_is_removed_for_profiles_that_do_not_accept_it(fake_provider, chat):
    fake_provider.enqueue_reply(tool_calls=[("audit_part", "{}")])
    chat([TOOL], settings=settings_for(fake_provider, profile="deepseek"))
    sent = fake_provider.requests[0].json["tools"][0]["function"]
    assert sent == {"name": "audit_part", "parameters": {"type": "object"}}
    assert TOOL["function"]["strict"] is True  # the caller's definition is untouched


def test_build_request_matches_what_is_sent(fake_provider, chat, provider_settings):
    provider = ChatProvider(provider_settings)
    expected = provider.build_request([{"role": "user", "content": "hi"}], [TOOL])
    fake_provider.enqueue_stream(streams.openai_stream(tool_calls=[("audit_part", "{}")]))
    chat([TOOL], messages=[{"role": "user", "content": "hi"}])
    assert fake_provider.requests[0].json == expected


def test_full_chat_completions_url_is_not_doubled(fake_provider, chat):
    settings = settings_for(fake_provider, base_url=fake_provider.base_url + "/chat/completions/")
    fake_provider.enqueue_reply("ok")
    assert chat(settings=settings).content == "ok"
    assert fake_provider.requests[0].path == "/v1/chat/completions"


def test_no_authorization_header_without_a_key(fake_provider, chat):
    fake_provider.enqueue_reply("ok")
    chat(settings=settings_for(fake_provider, api_key="", profile="ollama"))
    assert "authorization" not in fake_provider.requests[0].headers


def test_environment_proxy_is_not_used_for_a_local_server(fake_provider, chat, monkeypatch):
    monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:9")  # nothing listens there
    monkeypatch.setenv("ALL_PROXY", "http://127.0.0.1:9")
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    fake_provider.enqueue_reply("direct")
    assert chat().content == "direct"
