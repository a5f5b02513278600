"""Compiling the calls of one run in order: each call sees the state the earlier calls predict
and the fragments they produced (e.g. a section an earlier ``define_property`` creates), and
each is bound to the confirmed spec (docs/architecture.md §4 "The spec", I15).

The one place this chaining rule lives; the controller, the domain-test pipeline and the Part
test harness all compile through it. With a ``spec``, a call that contradicts it is a compile
error naming the step and the value, and does not join the chain.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sam_plugin.compilers.evidence import Prediction
from sam_plugin.compilers.protocol import CompileContext, DomainModule, Fragment, Target
from sam_plugin.compilers.spec.binding import BoundStep, Contradiction, bind_call, unbound_steps
from sam_plugin.compilers.spec.ir import Spec
from sam_plugin.errors import CompileError
from sam_plugin.words.phrase import Phrase


class CompileChain:
    """``add`` compiles the next call; ``fragments`` and ``state`` are the chain so far, and
    ``bound`` the steps its calls carry out (call index, step)."""

    def __init__(self, module: DomainModule, *, request: str, target: Target,
                 start: Prediction, model: Any = None, part: Any = None,
                 spec: Spec | None = None, extra: Mapping[str, Any] | None = None) -> None:
        self.module = module
        self.extra = dict(extra or {})  # CompileContext.extra of every call
        self.request = request
        self.target = target
        self.state = start  # what the part is predicted to be after the calls so far
        self.model = model
        self.part = part
        self.spec = spec
        self.fragments: list[Fragment] = []
        self.bound: list[tuple[int, BoundStep]] = []
        # the steps' counts the calls do not make (the model's arithmetic): plan warnings
        self.claims: list[str] = []
        self.claim_phrases: list[Phrase] = []  # the claims as phrases, one each

    def context(self) -> CompileContext:
        """What the next call's compiler may consult."""
        return CompileContext(request_text=self.request, target=self.target, state=self.state,
                              model=self.model, part=self.part,
                              prior_fragments=tuple(self.fragments), extra=self.extra)

    def add(self, tool: str, arguments: Mapping[str, Any] | str) -> Fragment:
        """Compile ``tool(arguments)`` after the calls so far, bound to the spec (raises
        ``CompileError``, with every contradiction as a diagnostic)."""
        fragment = self.module.compile(tool, arguments, self.context())
        bound = self._bind(fragment)
        self.bound += [(len(self.fragments), b) for b in bound]
        self.fragments.append(fragment)
        self.state = fragment.evidence
        return fragment

    def unbound(self) -> list[Contradiction]:
        """Steps no call of the chain carries out (a capability whose call never came)."""
        if self.spec is None:
            return []
        return unbound_steps(self.spec, self.module.vocabulary, [b for _, b in self.bound])

    def _bind(self, fragment: Fragment) -> list[BoundStep]:
        if self.spec is None:
            return []
        capability = next((c for c, t in self.module.tool_names.items() if t == fragment.tool),
                          fragment.tool)
        # each operation's scope resolves on the part as it is when the operation runs: after
        # the earlier calls and the call's earlier operations (the shadow knows it)
        ctx = self.context()
        binding = bind_call(self.spec, self.module.vocabulary, capability,
                            self.module.operations(fragment), self.part,
                            part_at=lambda index: self.module.part_at(fragment, index, ctx))
        if not binding.holds:
            raise CompileError(fragment.tool, [c.diagnostic() for c in binding.contradictions])
        self.claims += binding.claims
        self.claim_phrases += binding.claim_phrases
        return list(binding.bound)
