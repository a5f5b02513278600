"""The loopback fake provider itself: scripting, recording, replay by responder."""

from __future__ import annotations

import httpx
import pytest

from sam_plugin.demo import streams
from sam_plugin.demo.loopback import NO_SCRIPT_LEFT, FakeProvider, StreamResponse


def test_serves_scripted_responses_in_order_then_a_clear_500(fake_provider):
    fake_provider.enqueue_error(418, "teapot")
    fake_provider.enqueue_stream(["data: [DONE]\n\n"])
    url = fake_provider.base_url + "/chat/completions"
    with httpx.Client() as client:
        first = client.post(url, json={"n": 1})
        second = client.post(url, json={"n": 2})
        third = client.post(url, json={"n": 3})
    assert (first.status_code, first.text) == (418, "teapot")
    assert second.headers["content-type"].startswith("text/event-stream")
    assert second.text == "data: [DONE]\n\n"
    assert third.status_code == 500
    assert third.json()["error"]["message"] == NO_SCRIPT_LEFT
    assert [r.json for r in fake_provider.requests] == [{"n": 1}, {"n": 2}, {"n": 3}]
    assert fake_provider.requests[0].path == "/v1/chat/completions"
    assert fake_provider.requests[0].headers["content-type"] == "application/json"


def test_responder_answers_when_the_queue_is_empty():
    def replay(request: dict) -> list[str] | StreamResponse | None:
        text = request["messages"][-1]["content"]
        if text == "known":
            return streams.openai_stream(content="replayed", fragment_size=50)
        return None

    with FakeProvider(responder=replay) as fake, httpx.Client() as client:
        url = fake.base_url + "/chat/completions"
        hit = client.post(url, json={"messages": [{"role": "user", "content": "known"}]})
        miss = client.post(url, json={"messages": [{"role": "user", "content": "other"}]})
    assert '"content":"replayed"' in hit.text
    assert miss.status_code == 500


def test_models_listing_and_unknown_routes(fake_provider):
    with httpx.Client() as client:
        models = client.get(fake_provider.base_url + "/models")
        missing = client.post(fake_provider.base_url + "/embeddings", json={})
    assert models.json()["data"] == [{"id": "fake-model"}]
    assert missing.status_code == 404


def test_enqueue_reply_rejects_unknown_styles(fake_provider):
    with pytest.raises(
        ValueError,
        match=r"style must be one of \['deepseek', 'llamacpp', 'ollama', 'openai'\], got 'claude'",
    ):  # noqa: E501
        fake_provider.enqueue_reply("x", style="claude")


def test_builders_end_with_done_and_split_json_tokens():
    for builder in (
        streams.openai_stream,
        streams.deepseek_stream,
        streams.ollama_stream,
        streams.llamacpp_stream,
    ):
        pieces = builder(content="hi", tool_calls=[("audit_part", '{"checks": ["counts"]}')])
        assert pieces[-1] == "data: [DONE]\n\n"
    openai = streams.openai_stream(tool_calls=[("audit_part", '{"checks": ["counts"]}')])
    assert '"arguments":"{\\"check"' in openai[1]  # a fragment ends inside a JSON string
    assert '"choices":[]' in openai[-2] and '"usage"' in openai[-2]


def test_rule_responder_replays_recorded_sse_by_request_shape(fake_provider, chat):
    from sam_plugin.demo.loopback import (
        is_design_request,
        last_user_message_contains,
        offers_tool,
        rule_responder,
        split_sse,
    )

    design = "".join(streams.deepseek_stream(content="Spec.", reasoning="r")).encode()
    assert split_sse(design)[0] == b": keep-alive\n\n"
    fake_provider.responder = rule_responder(
        [
            (is_design_request, split_sse(design.replace(b"\n", b"\r\n"))),
            (offers_tool("audit_part"), streams.ollama_stream(tool_calls=[("audit_part", "{}")])),
            (last_user_message_contains("never"), []),
        ]
    )
    tool = {"type": "function", "function": {"name": "audit_part", "parameters": {}}}
    assert chat().content == "Spec."
    assert chat([tool]).tool_calls[0].name == "audit_part"
    assert chat().reasoning == "r"  # rules repeat
    assert fake_provider.pending == 0


def test_enqueue_reply_refuses_reasoning_for_styles_without_it(fake_provider):
    with pytest.raises(ValueError, match="style 'openai' streams no reasoning"):
        fake_provider.enqueue_reply("x", reasoning="why")
