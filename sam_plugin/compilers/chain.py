"""Compiling the calls of one run in order: each call sees the state the earlier calls predict
and the fragments they produced (e.g. a section an earlier ``define_property`` creates).

The one place this chaining rule lives; the controller, the domain-test pipeline and the Part
test harness all compile through it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sam_plugin.compilers.evidence import Prediction
from sam_plugin.compilers.protocol import CompileContext, DomainModule, Fragment, Target


class CompileChain:
    """``add`` compiles the next call; ``fragments`` and ``state`` are the chain so far."""

    def __init__(self, module: DomainModule, *, request: str, target: Target,
                 start: Prediction, model: Any = None, part: Any = None) -> None:
        self.module = module
        self.request = request
        self.target = target
        self.state = start  # what the part is predicted to be after the calls so far
        self.model = model
        self.part = part
        self.fragments: list[Fragment] = []

    def context(self) -> CompileContext:
        """What the next call's compiler may consult."""
        return CompileContext(request_text=self.request, target=self.target, state=self.state,
                              model=self.model, part=self.part,
                              prior_fragments=tuple(self.fragments))

    def add(self, tool: str, arguments: Mapping[str, Any] | str) -> Fragment:
        """Compile ``tool(arguments)`` after the calls so far (raises ``CompileError``)."""
        fragment = self.module.compile(tool, arguments, self.context())
        self.fragments.append(fragment)
        self.state = fragment.evidence
        return fragment
