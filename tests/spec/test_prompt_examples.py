"""Worked examples in the design prompt (docs/architecture.md §4 "The spec"): per mode, a
request on another part and its answer. An example carries no placeholder a model can copy,
no number or name of its own (each comes from its own request), no step text worth copying,
and nothing of an eval task or a demo request; a recorded answer that repeats one is
refused as a copy."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from sam_plugin.compilers import registry
from sam_plugin.compilers.spec.reading import json_object_of, read_spec
from sam_plugin.demo.examples import load_examples
from sam_plugin.errors import SpecRejected
from sam_plugin.evaluation.task import load_suite
from sam_plugin.runtime.provider.sse import SSEDecoder
from sam_plugin.runtime.provider.stream import StreamAccumulator
from sam_plugin.runtime.run.design_answer import copied_examples

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = {mode: registry.get_module(mode).design_examples() for mode in registry.MODES}
PAIRS = [(mode, request, answer) for mode, pairs in EXAMPLES.items()
         for request, answer in pairs if '"refuse"' not in answer]

_NUMBER = re.compile(r"(?<![\w.^])-?\d+(?:\.\d+)?(?:e-?\d+)?(?![\w.])")


def _numbers(text: str) -> set[float]:
    return {float(n) for n in _NUMBER.findall(text)}


@pytest.mark.parametrize("mode", registry.MODES)
@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_each_prompt_carries_its_modes_examples(mode, language):
    prompt = registry.get_module(mode).design_prompt(language)
    assert all(request in prompt and answer in prompt for request, answer in EXAMPLES[mode])


@pytest.mark.parametrize(("mode", "request_text", "answer"), PAIRS)
def test_an_example_answer_is_a_spec_of_its_mode_with_nothing_of_its_own(
        mode, request_text, answer):
    spec = read_spec(answer, registry.get_module(mode).vocabulary)
    assert "<" not in answer and ">" not in answer  # no placeholder to copy
    assert all(not step.text for step in spec.steps)  # no step text worth copying
    # 0 and 1 are the axes and unit vectors a request names in words ("about the Y axis")
    own = {n for n in _numbers(answer) if n not in (0, 1)} - _numbers(request_text)
    assert own == set(), own
    names = set(re.findall(r'"name": "([A-Za-z][\w.-]*)"', answer))
    assert all(name in request_text for name in names), names


def test_the_examples_numbers_are_in_no_task_and_no_demo_request():
    requests = [t.request for t in load_suite(ROOT / "eval" / "suite")]
    requests += [e.request for e in load_examples()] + [e.request_zh for e in load_examples()]
    used = set().union(*(_numbers(r) for r in requests))
    for mode, request_text in [(m, r) for m, pairs in EXAMPLES.items() for r, _ in pairs]:
        # 0..3 are axes, levels and counts any spec uses: every other number is the example's
        distinctive = {n for n in _numbers(request_text) if n not in (0, 1, 2, 3)}
        assert not distinctive & used, (mode, distinctive & used)


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
    """The example an answer repeats word for word (its summary, or its whole steps)."""
    for mode, _, example in PAIRS:
        sentences = [s for s in re.findall(r'"(?:summary|text)": "([^"]+)"', example)
                     if len(s) >= 20]
        for sentence in sentences:
            if sentence in content:
                return f"{mode}: {sentence!r}"
        try:
            answer = json_object_of(content)
            copied = json_object_of(example)
        except SpecRejected:
            continue
        if isinstance(answer, dict) and answer.get("steps") == copied.get("steps"):
            return f"{mode}: the example's steps"
    return None


def test_the_recorded_answers_are_there_to_check():
    where = [w for w, _ in recorded_answers()]
    assert sum(w.startswith("demo ") for w in where) == 2 * len(load_examples())
    assert any(".pipeline.json" in w for w in where) and any("llamacpp" in w for w in where)


def test_a_recorded_answer_that_repeats_a_prompt_example_is_never_read_as_a_spec():
    """The 0.5B answered a load request with the Part example's steps, twice (its recording
    of refuse_outside_load, 2026-12-02): the design reader refuses such a copy, so its
    repair round asks again and no copied step reaches Review."""
    copies = [(where, hit.split(":")[0], content) for where, content in recorded_answers()
              if (hit := repeated_example(content)) is not None]
    for where, mode, content in copies:
        module = registry.get_module(mode)
        spec = read_spec(content, module.vocabulary)
        assert copied_examples(spec, module), where
    assert all(where.startswith("refuse_") for where, _, _ in copies), copies


@pytest.mark.parametrize(("mode", "request_text", "answer"), PAIRS)
def test_the_check_sees_a_copy(mode, request_text, answer):
    assert repeated_example(answer) is not None
    assert repeated_example(f"Sure!\n```json\n{answer}\n```") is not None


def test_a_step_whose_every_number_and_name_is_the_requests_own_is_no_copy():
    """"Push down on the corner node …; call it PUSH" came with "define the step PUSH",
    which the Load example's first step is too: refused as a copy twice, the run ended at
    design, though every name of that step was the request's."""
    module = registry.get_module("load")
    spec = read_spec('{"summary": "s", "steps": [{"capability": "step", "action": '
                     '"define_step", "values": {"name": "PUSH"}}]}', module.vocabulary)
    assert copied_examples(spec, module)  # with no words to tell it from the example
    assert copied_examples(spec, module, ["Define a step called PUSH after Initial."]) == []
    assert copied_examples(spec, module, ["Push down on node 21 in Squeeze."])
