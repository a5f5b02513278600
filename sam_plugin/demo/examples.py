"""The bundled example requests and their recorded provider responses: each domain's
(``compilers/<domain>/demo_examples.json``, found through the registry), in the registry's
order of modes."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from sam_plugin.compilers import registry
from sam_plugin.compilers.protocol import ModeName

EXAMPLES_FILE = "demo_examples.json"  # in each domain's package
WORKSPACE_FILE = Path(__file__).resolve().parent / "workspace.sam.json"


class Example(BaseModel):
    """One example: where it applies, what the user types, what the model answered."""

    model_config = ConfigDict(frozen=True)

    id: str
    title: str
    mode: ModeName
    model: str
    part: str
    request: str
    style: Literal["openai", "deepseek"] = "openai"
    reasoning: str = ""
    spec: dict[str, Any]  # the recorded design answer: a spec as data (docs/architecture.md §4)
    tool_calls: tuple[tuple[str, dict[str, Any]], ...]
    # Simplified Chinese: what the zh_CN dock shows and the spec recorded for that request
    title_zh: str = ""
    request_zh: str = ""
    reasoning_zh: str = ""
    spec_zh: dict[str, Any] | None = None

    def title_in(self, language: str = "en") -> str:
        return self.title_zh if language == "zh" and self.title_zh else self.title

    def request_in(self, language: str = "en") -> str:
        return self.request_zh if language == "zh" and self.request_zh else self.request

    def recorded(self, language: str) -> tuple[str, str]:
        """(the design answer's content, reasoning) recorded for the request in ``language``:
        the spec as one JSON object, as a model answers under the spec's schema."""
        if language == "zh" and self.spec_zh:
            return json.dumps(self.spec_zh, ensure_ascii=False), self.reasoning_zh
        return json.dumps(self.spec, ensure_ascii=False), self.reasoning

    def picker_entry(self, language: str = "en") -> dict[str, str]:
        return {"id": self.id, "title": self.title_in(language), "mode": self.mode,
                "model": self.model, "part": self.part, "request": self.request_in(language)}

    def calls_for(self, tool_names: list[str]) -> list[tuple[str, str]]:
        """The recorded calls for the tools offered, in the order offered."""
        recorded = {name: arguments for name, arguments in self.tool_calls}
        return [(name, json.dumps(recorded[name])) for name in tool_names if name in recorded]


@lru_cache(maxsize=1)
def load_examples() -> tuple[Example, ...]:
    found: list[Example] = []
    for mode in registry.MODES:
        path = registry.domain_file(mode, EXAMPLES_FILE)
        data = json.loads(path.read_text(encoding="utf-8")) if path is not None else []
        found += [Example.model_validate(item) for item in data]
    return tuple(found)


@lru_cache(maxsize=1)
def sample_parts() -> frozenset[tuple[str, str]]:
    """(model, part) of each part in the bundled sample workspace."""
    data = json.loads(WORKSPACE_FILE.read_text(encoding="utf-8"))
    return frozenset((model["name"], part["name"]) for model in data["models"]
                     for part in model.get("parts", ()))


def builds_new_part(example: Example) -> bool:
    """Whether the example's part is not in the sample workspace (the run builds it: the
    CLI's ``--new-part``)."""
    return (example.model, example.part) not in sample_parts()


def example_by_id(example_id: str) -> Example:
    for example in load_examples():
        if example.id == example_id:
            return example
    known = ", ".join(e.id for e in load_examples())
    raise KeyError(f"example: unknown id {example_id!r}; known: {known}")
