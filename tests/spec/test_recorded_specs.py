"""The demo's recorded answers are JSON specs of their mode, and their recorded calls carry
out exactly their steps on the demo workspace (docs/architecture.md §4 "The spec")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sam_plugin.compilers import registry
from sam_plugin.compilers.protocol import Target
from sam_plugin.compilers.spec.reading import read_spec
from sam_plugin.demo.examples import WORKSPACE_FILE, load_examples
from tests.support.pipeline import Pipeline, fresh_database

fresh_sam = pytest.fixture(fresh_database)
EXAMPLES = load_examples()


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.id for e in EXAMPLES])
@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_recorded_answer_binds_to_its_recorded_calls(fresh_sam: Any, tmp_path: Path,
                                                       example, language):
    fresh_sam.openMdb(str(WORKSPACE_FILE))
    module = registry.get_module(example.mode)
    content, _ = example.recorded(language)
    spec = read_spec(content, module.vocabulary)
    pipe = Pipeline(module, fresh_sam, tmp_path, Target(model_name=example.model,
                                                        part_name=example.part))
    part = pipe.gateway.part(pipe.target)
    empty = part is None or not (len(part.nodes) or len(part.elements))
    route = module.route_steps(spec.capabilities(), empty)
    assert route.tools == [name for name, _ in example.tool_calls]
    chain = pipe.chain(example.request_in(language), spec)
    for tool, arguments in example.tool_calls:
        chain.add(tool, arguments)
    assert chain.unbound() == []
    assert len(chain.bound) == len(spec.steps)
