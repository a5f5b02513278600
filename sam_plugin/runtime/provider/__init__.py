"""The chat model: an OpenAI-compatible streaming client, its SSE decoder, errors, types,
and who answers."""
