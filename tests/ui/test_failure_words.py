"""A failed provider call is said from its data (kind, what the transport said, host), not
by reading its message; a run written before that data shows its stored words."""

from __future__ import annotations

from sam_plugin.errors import ProviderFailure
from sam_plugin.ui.plain_words import error_words
from sam_plugin.ui.status_words import error_action


def _failure(cause: str | None, kind: str = "connection", said: str = "") -> ProviderFailure:
    return ProviderFailure(kind=kind, cause=cause, host="h:1", said=said)  # type: ignore[arg-type]


def test_the_call_is_said_by_its_cause_whatever_words_httpx_used() -> None:
    said = "connection: cannot reach h:1: some words httpx may use one day"
    message = f"the design request failed: {said}"
    assert error_words(message, _failure("refused", said=said)) == (
        "the design request failed: nothing answers at h:1")
    assert error_words(message, _failure("unknown_host", said=said)) == (
        "the design request failed: h:1 is not a host name this computer knows")


def test_the_advice_follows_the_kind_not_the_message() -> None:
    base_url = ("Nothing was executed. Check the base URL in Settings… and that the model "
                "server there is running, then submit again.")
    assert error_action("provider", False, message="x", failure=_failure("refused")) == base_url
    assert error_action("provider", False, message="x",
                        failure=_failure("connect_timeout", kind="timeout")) == base_url
    assert "API key" in error_action("provider", False, message="connection: cannot reach",
                                     failure=_failure(None, kind="auth"))


def test_a_message_without_data_is_shown_as_stored() -> None:
    old = "connection: cannot reach h:1: [Errno 111] Connection refused"
    assert error_words(old, None) == old  # neither httpx's words nor the kind are read back


# each kind's words, as the dock read them from a message before it said them from the data
KIND_WORDS = {
    "auth": "the provider refused the API key",
    "rate_limit": "the provider is rate-limiting requests",
    "server": "the provider had a server error",
    "bad_request": "the provider refused the request",
    "protocol": "the provider's answer could not be read",
    "timeout": "the provider did not answer in time",
    "cancelled": "the request was cancelled",
    "connection": "the provider could not be reached",
}


def test_every_kind_is_said_from_its_data_as_the_message_was_read_before() -> None:
    from sam_plugin.errors import ERROR_KINDS, ProviderError
    from sam_plugin.runtime.provider.choice import REPLAY_ADVICE
    from sam_plugin.runtime.provider.errors import error_from_http

    errors = [ProviderError(kind, "the provider's words") for kind in ERROR_KINDS]  # type: ignore[arg-type]
    errors.append(error_from_http(401, b'{"error": {"message": "Incorrect API key"}}', {},
                                  secret=""))
    errors.append(error_from_http(400, b'{"error": {"message": "no build_part here. '
                                  + REPLAY_ADVICE.encode() + b'"}}', {}, secret=""))
    read = [f"{KIND_WORDS[kind]}: the provider's words" for kind in ERROR_KINDS]
    read += ["the provider refused the API key: Incorrect API key",
             "the provider refused the request: no build the part here."]
    assert set(KIND_WORDS) == set(ERROR_KINDS)
    for error, words in zip(errors, read, strict=True):
        message = f"the design request failed: {error}"
        assert error_words(message, error.failure) == f"the design request failed: {words}", (
            error)
    assert error_words(f"x: {errors[-2]}", errors[-2].failure) == (
        "x: the provider refused the API key: Incorrect API key")


def test_a_retry_is_said_from_its_failure_never_from_its_reason(monkeypatch):
    from sam_plugin.runtime import event_types as ev
    from sam_plugin.ui import plain_words
    from sam_plugin.ui.status_words import retry_words

    def never(text: str) -> str:
        raise AssertionError(f"the retry's reason was read back: {text!r}")

    monkeypatch.setattr(plain_words, "stored_message", never)
    failure = _failure("refused", said="connection: cannot reach h:1: [Errno 111]")
    event = ev.ProviderRetry(attempt=1, of=3, host="h:1", reason=failure.said,
                             failure=failure)
    assert retry_words(event).endswith("the last try: nothing answers at h:1")


def test_a_tool_the_providers_words_quote_is_said_only_as_a_whole_word() -> None:
    """The provider's own words (``detail``) are not the product's: only a tool name in them,
    whole, is said in words, as the pattern ``\\btool\\b`` found it before."""
    failure = ProviderFailure(kind="bad_request", detail="no audit_part, (audit_part.) "
                              "audit_parts or xaudit_part or audit_part2 here")
    from sam_plugin.ui.plain_words import provider_words

    assert provider_words(failure) == (
        "the provider refused the request: no audit the part, (audit the part.) audit_parts "
        "or xaudit_part or audit_part2 here")
