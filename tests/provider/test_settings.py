"""ProviderSettings: environment over saved values, profile guessing, the key stays secret."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from sam_plugin.runtime.config.settings import (
    PROFILE_CAPABILITIES,
    PROFILES,
    ProviderSettings,
    guess_profile,
)

KEY = "sk-test-SECRET-KEY"


def test_environment_overrides_saved_values():
    saved = {"base_url": "http://saved:8000/v1", "api_key": "sk-saved", "model": "saved-model"}
    env = {
        "SAM_AGENT_BASE_URL": "https://api.deepseek.com",
        "SAM_AGENT_API_KEY": KEY,
        "SAM_AGENT_MODEL": "deepseek-chat",
    }
    settings = ProviderSettings.from_env(env, saved)
    assert settings.base_url == "https://api.deepseek.com"
    assert settings.api_key.get_secret_value() == KEY
    assert settings.model == "deepseek-chat"
    assert settings.profile == "deepseek"


def test_saved_values_used_when_environment_is_empty():
    saved = {"base_url": "http://localhost:11434/v1", "model": "qwen2.5:7b", "temperature": "0.3"}
    settings = ProviderSettings.from_env({"SAM_AGENT_MODEL": "  "}, saved)
    assert (settings.base_url, settings.model, settings.temperature) == (
        "http://localhost:11434/v1",
        "qwen2.5:7b",
        0.3,
    )
    assert settings.profile == "generic" and settings.profile_guessed  # the probe decides
    assert settings.is_configured()


def test_saved_profile_kept_for_the_saved_url_but_regueesed_for_an_env_url():
    saved = {"base_url": "http://gpu-box:9000/v1", "model": "m", "profile": "vllm"}
    assert ProviderSettings.from_env({}, saved).profile == "vllm"
    env = {"SAM_AGENT_BASE_URL": "http://127.0.0.1:8080/v1"}
    assert ProviderSettings.from_env(env, saved).profile_guessed  # the probe decides
    env["SAM_AGENT_PROFILE"] = "generic"
    assert ProviderSettings.from_env(env, saved).profile == "generic"


def test_from_env_reads_os_environ_by_default(monkeypatch):
    monkeypatch.setenv("SAM_AGENT_BASE_URL", "https://api.openai.com/v1")
    monkeypatch.setenv("SAM_AGENT_MODEL", "gpt-4o-mini")
    monkeypatch.setenv("SAM_AGENT_API_KEY", KEY)
    settings = ProviderSettings.from_env()
    assert (settings.profile, settings.model) == ("openai", "gpt-4o-mini")


def test_unknown_saved_keys_are_ignored_but_bad_values_name_the_field():
    assert ProviderSettings.from_env({}, {"window_geometry": "x", "model": "m"}).model == "m"
    with pytest.raises(ValidationError) as info:
        ProviderSettings.from_env({}, {"profile": "anthropic"})
    text = str(info.value)
    assert "profile" in text
    assert "'openai', 'deepseek', 'ollama', 'vllm', 'llamacpp' or 'generic'" in text


@pytest.mark.parametrize(
    ("url", "profile"),
    [
        ("https://api.deepseek.com", "deepseek"),
        ("https://api.deepseek.com/v1", "deepseek"),
        ("https://api.openai.com/v1", "openai"),
        # never from the port or a name: the server's probe decides (test_probe.py)
        ("http://localhost:11434/v1", "generic"),
        ("http://ollama.lan/v1", "generic"),
        ("http://10.0.0.5:8000/v1", "generic"),
        ("http://127.0.0.1:8080/v1", "generic"),
        ("https://openrouter.ai/api/v1", "generic"),
        ("", "generic"),
    ],
)
def test_profile_guessed_from_url(url, profile):
    assert guess_profile(url) == profile
    assert ProviderSettings(base_url=url).profile == profile
    assert ProviderSettings(base_url=url).profile_guessed
    assert not ProviderSettings(base_url=url, profile="vllm").profile_guessed


def test_explicit_profile_wins_over_the_guess():
    assert ProviderSettings(base_url="https://api.deepseek.com", profile="generic").profile == (
        "generic"
    )


def test_tool_choice_is_off_for_every_profile_unless_allowed():
    assert all(not PROFILE_CAPABILITIES[p].tool_choice for p in PROFILES)
    settings = ProviderSettings(profile="openai", allow_tool_choice=True)
    assert settings.capabilities.tool_choice
    assert not ProviderSettings(profile="openai").capabilities.tool_choice


def test_capabilities_per_profile():
    deepseek = ProviderSettings(profile="deepseek").capabilities
    assert (deepseek.include_usage, deepseek.reasoning_field, deepseek.strict_tools) == (
        True,
        True,
        False,
    )
    generic = ProviderSettings(profile="generic").capabilities
    assert not (generic.include_usage or generic.strict_tools or generic.reasoning_field)


def test_missing_fields_in_a_fixed_order():
    assert ProviderSettings().missing_fields() == ["base_url", "model"]
    hosted = ProviderSettings(base_url="https://api.deepseek.com")
    assert hosted.missing_fields() == ["model", "api_key"]
    assert not hosted.is_configured()
    local = ProviderSettings(base_url="http://localhost:11434/v1", model="llama3.1")
    assert local.missing_fields() == [] and local.is_configured()


def test_key_never_in_repr_str_or_json():
    settings = ProviderSettings(base_url="https://api.openai.com/v1", api_key=KEY, model="m")
    for text in (repr(settings), str(settings), settings.model_dump_json(), f"{settings!r}"):
        assert KEY not in text
    assert "**********" in repr(settings)


def test_bad_values_are_rejected_with_the_field_name():
    with pytest.raises(ValidationError, match="temperature"):
        ProviderSettings(temperature=3)
    with pytest.raises(ValidationError, match="idle_read_timeout"):
        ProviderSettings(idle_read_timeout=0)
    with pytest.raises(ValidationError, match="Extra inputs are not permitted"):
        ProviderSettings(api_base="x")  # type: ignore[call-arg]


def test_defaults():
    settings = ProviderSettings()
    assert settings.temperature == 0.1
    assert settings.chat_completions_url == "/chat/completions"
    assert ProviderSettings(base_url="https://api.deepseek.com/").chat_completions_url == (
        "https://api.deepseek.com/chat/completions"
    )


def test_a_base_url_that_is_not_http_is_refused_with_the_field_and_an_example():
    import pytest
    from pydantic import ValidationError

    with pytest.raises(ValidationError) as refused:
        ProviderSettings(base_url="ftp:/x", model="m")
    assert refused.value.errors()[0]["loc"] == ("base_url",)
    assert "'ftp:/x' is not an http:// or https:// URL (e.g. https://api.deepseek.com/v1" in (
        str(refused.value)
    )
    assert ProviderSettings(base_url="", model="m").missing_fields() == ["base_url"]
    assert ProviderSettings(base_url="HTTPS://api.openai.com/v1", model="m").base_url


@pytest.mark.parametrize("pasted", ["sk-SECRET\u00a0123", "sk-SECRET 123", "sk-SECRET\n123"])
def test_a_key_that_cannot_go_into_a_header_is_refused_without_echoing_it(pasted):
    with pytest.raises(ValidationError) as refused:
        ProviderSettings(base_url="https://api.openai.com/v1", model="m", api_key=pasted)
    text = str(refused.value)
    assert "api_key: contains a character that cannot be sent in an HTTP header" in text
    assert "SECRET" not in text


def test_surrounding_whitespace_of_a_pasted_key_is_dropped():
    settings = ProviderSettings(base_url="https://x.test/v1", model="m", api_key=" sk-abc\n")
    assert settings.api_key.get_secret_value() == "sk-abc"
