"""One short example spec per mode in the design prompt (docs/architecture.md §4 "The spec"):
on another part with other numbers than any eval task or demo example, with placeholders
where a copy would be wrong; and no recorded answer repeats an example word for word."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from sam_plugin.compilers import registry
from sam_plugin.compilers.mesh import prompts as mesh_prompts
from sam_plugin.compilers.part import prompts as part_prompts
from sam_plugin.compilers.property import prompts as property_prompts
from sam_plugin.compilers.spec.reading import json_object_of, read_spec
from sam_plugin.demo.examples import load_examples
from sam_plugin.errors import SpecRejected
from sam_plugin.evaluation.task import load_suite
from sam_plugin.runtime.provider.sse import SSEDecoder
from sam_plugin.runtime.provider.stream import StreamAccumulator

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = {"part": part_prompts.EXAMPLE, "property": property_prompts.EXAMPLE,
            "mesh": mesh_prompts.EXAMPLE}
_PLACEHOLDER = re.compile(r'"?<([A-Z]+)>"?')
_NUMBER = re.compile(r"(?<![\w.^])-?\d+(?:\.\d+)?(?:e-?\d+)?(?![\w.])")


def filled(example: str) -> str:
    """The example with its placeholders filled (a name for names, a count for counts)."""
    def fill(match: re.Match[str]) -> str:
        word = match.group(1)
        return '"Filled"' if match.group(0).startswith('"') else ("1" if word else word)
    return _PLACEHOLDER.sub(fill, example)


@pytest.mark.parametrize("mode", registry.MODES)
@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_each_prompt_carries_its_modes_example(mode, language):
    assert EXAMPLES[mode] in registry.get_module(mode).design_prompt(language)


@pytest.mark.parametrize("mode", registry.MODES)
def test_a_verbatim_copy_of_the_example_is_not_a_spec(mode):
    with pytest.raises(SpecRejected):
        read_spec(EXAMPLES[mode], registry.get_module(mode).vocabulary)


@pytest.mark.parametrize("mode", registry.MODES)
def test_the_example_filled_in_is_a_spec_of_its_mode(mode):
    spec = read_spec(filled(EXAMPLES[mode]), registry.get_module(mode).vocabulary)
    assert len(spec.steps) >= 2


def _numbers(text: str) -> set[float]:
    return {float(n) for n in _NUMBER.findall(text)}


def test_the_examples_numbers_are_in_no_task_and_no_demo_request():
    requests = [t.request for t in load_suite(ROOT / "eval" / "suite")]
    requests += [e.request for e in load_examples()] + [e.request_zh for e in load_examples()]
    used = set().union(*(_numbers(r) for r in requests))
    for mode, example in EXAMPLES.items():
        # 0..3 are axes, levels and counts any spec uses: every other number is the example's
        distinctive = {n for n in _numbers(example) if n not in (0, 1, 2, 3)}
        assert distinctive and not distinctive & used, (mode, distinctive & used)


# -- no recorded answer repeats an example ------------------------------------------------


def _stream_content(raw: bytes) -> str:
    accumulator, decoder = StreamAccumulator(), SSEDecoder()
    for event in decoder.feed(raw):
        accumulator.handle(event)
    return accumulator.result(raw).content if accumulator.done else ""


def recorded_answers() -> list[tuple[str, str]]:
    """(where, content) of every recorded design answer: the demo's, the eval cassettes',
    the llama.cpp fixtures'."""
    found = [(f"demo {e.id} {language}", e.recorded(language)[0])
             for e in load_examples() for language in ("en", "zh")]
    for path in sorted((ROOT / "eval" / "cassettes").glob("*/*.pipeline.json")):
        for number, exchange in enumerate(json.loads(path.read_text())["exchanges"]):
            request = exchange["request"]
            if isinstance(request, dict) and not request.get("tools"):
                found.append((f"{path.name} #{number}",
                              _stream_content(exchange["response_sse"].encode())))
    for path in sorted((ROOT / "tests" / "fixtures" / "llamacpp").glob("*/1.sse")):
        found.append((str(path.relative_to(ROOT)), _stream_content(path.read_bytes())))
    return found


def repeated_example(content: str) -> str | None:
    """The example an answer repeats word for word (a sentence of it, or its whole spec)."""
    for mode, example in EXAMPLES.items():
        sentences = [s for s in re.findall(r'"(?:summary|text)": "([^"]+)"', example)
                     if len(s) >= 20]
        for sentence in sentences:
            if sentence in content:
                return f"{mode}: {sentence!r}"
        try:
            answer = json_object_of(content)
            copied = json_object_of(filled(example))
        except SpecRejected:
            continue
        if isinstance(answer, dict) and answer.get("steps") == copied.get("steps"):
            return f"{mode}: the example's steps"
    return None


def test_the_recorded_answers_are_there_to_check():
    where = [w for w, _ in recorded_answers()]
    assert sum(w.startswith("demo ") for w in where) == 2 * len(load_examples())
    assert any(".pipeline.json" in w for w in where) and any("llamacpp" in w for w in where)


def test_no_recorded_answer_repeats_a_prompt_example_word_for_word():
    copies = {where: hit for where, content in recorded_answers()
              if (hit := repeated_example(content)) is not None}
    assert copies == {}


@pytest.mark.parametrize("mode", registry.MODES)
def test_the_check_sees_a_copy(mode):
    example = EXAMPLES[mode]
    assert repeated_example(example) is not None
    assert repeated_example(f"Sure!\n```json\n{filled(example)}\n```") is not None
