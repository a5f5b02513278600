"""Every exception the plugin raises on purpose, under one base.

A leaf: standard library only, so ``samops`` (the code that runs inside SAM's script) may
raise these too, and any layer may catch them without importing another layer. Each class
keeps the builtin base its callers catch (``ValueError`` for bad input, ``RuntimeError`` for
a broken state), beside ``SamAgentError``::

    SamAgentError
    ├── inside the host's script (samops)
    │   ├── PreflightError(RuntimeError)       a check before the first mutation failed;
    │   │                                      nothing was changed
    │   ├── PropertyScriptError(RuntimeError)  a Property script stopped before changing
    │   │                                      something it must not change
    │   ├── RefinementDrift(RuntimeError)      the live part no longer refines as compiled
    │   ├── SelectionError(ValueError)         a selector names what the part does not have
    │   ├── NonFiniteValue(ValueError)         a coordinate or value read is NaN or infinite:
    │   │                                      refused before hashing (names the entities)
    │   └── ShadowDoubt                        the shadow part cannot tell what the host does
    ├── compiling (compilers)
    │   ├── CompileError                       a call that does not compile (diagnostics)
    │   ├── NotSimulated                       no exact evidence for a chain of calls
    │   │   ├── Doubted                        ... because call ``index`` has a host-decided step
    │   │   └── ShadowFailed                   ... because call ``index`` raised on the shadow
    │   │                                      (a compile error, I7)
    │   ├── RouteRefused                       no capability could be read from the spec
    │   ├── SpecRejected(ValueError)           a design answer that is not a spec of the
    │   │                                      mode (its problems, one per field)
    │   ├── StrictJSONError(ValueError)        tool arguments that are not one strict JSON value
    │   └── ScriptRefused                      a composed script outside the guard's allowlist
    ├── running (runtime)
    │   ├── QueryError(ValueError)             an observation query the model can fix
    │   ├── CollectionViolation                a tool-call round breaks the collection rules
    │   │   └── RoundRejected                  ... with what its repair round needs
    │   ├── ProviderError                      a failed provider call, classified by ``kind``
    │   ├── ExplorationChangedModel(RuntimeError)  exploration changed the part
    │   ├── SubmitRefused(ValueError)          ``submit`` could not start a run
    │   │   └── ControllerBusy                 a run is in progress or waiting for review
    │   ├── ControllerStateError(RuntimeError) an action the current phase does not allow
    │   ├── RunEnding                          a step of a run ended it early, at a layer
    │   │   ├── ReturnToReview                 ... back to Review, nothing executed
    │   │   └── FailRun                        ... as Failed
    │   ├── RevisionRefused(ValueError)        Ask for changes cannot send this remark
    │   ├── IllegalTransition(RuntimeError)    a phase change the table does not allow
    │   ├── AlreadySubmitted(RuntimeError)     a run id tried to submit a second time
    │   ├── UndoRefused                        a run that cannot be undone now (says why)
    │   ├── RerunRefused(ValueError)           a run that cannot be rerun, or targets it
    │   │                                      cannot be rerun on (says which)
    │   ├── NotUnknown(ValueError)             only an unknown run can be acknowledged
    │   ├── SaveConflict(RuntimeError)         --save would replace what another process saved
    │   ├── ToolRefused                        an MCP tool call refused, at a layer (docs/mcp.md)
    │   │   └── ToolArgumentError(ValueError)  ... because its arguments are
    │   ├── ApprovalRefused                    a plan's approval cannot be recorded (says why)
    │   ├── EnvironmentValueError(ValueError)  a SAM_AGENT_* variable holds an unusable value
    │   ├── UsageError                         bad command-line input (exit code 2)
    │   ├── OfflineSamMissing(RuntimeError)    outside SAM, and no offline SAM is shipped
    │   └── LocalModelError(RuntimeError)      ``sam-agent local`` could not set up or serve
    │       ├── MissingTools                   ... cmake or a C++ compiler is missing
    │       ├── SetupCancelled                 ... the user stopped it (it resumes)
    │       └── IllegalInstruction             ... the built server died with SIGILL
    └── AutomationTimeout(TimeoutError)        the GUI did not reach a state in time

Private control-flow signals (a provider stream that broke) stay private to their modules.
``RunEnding`` is the one signal shared by a package: the step modules of ``runtime/run/``
raise it, the controller turns it into the run's ending; it never leaves the controller.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, get_args


class SamAgentError(Exception):
    """The base of every exception the plugin raises on purpose."""


# -- inside the host's script --------------------------------------------------------------


class PreflightError(SamAgentError, RuntimeError):
    """A check before the first mutation failed; nothing has been changed."""


class PropertyScriptError(SamAgentError, RuntimeError):
    """A Property script stopped before changing something it must not change."""


class RefinementDrift(SamAgentError, RuntimeError):
    """The live part no longer refines to what was compiled; nothing was changed."""


class SelectionError(SamAgentError, ValueError):
    """A selector names something the part does not have; the message lists what exists."""


class NonFiniteValue(SamAgentError, ValueError):
    """A read holds a NaN or infinite coordinate or value; ``entities`` names them."""

    def __init__(self, entities: Sequence[str]):
        self.entities = list(entities)
        shown = "; ".join(self.entities[:5])
        more = f" (and {len(self.entities) - 5} more)" if len(self.entities) > 5 else ""
        super().__init__(f"non-finite value: {shown}{more}")


class ShadowDoubt(SamAgentError):
    """A step whose outcome depends on host details the host API does not fix."""


# -- compiling ------------------------------------------------------------------------------


class Diagnosed(Protocol):
    """One actionable problem (``compilers.protocol.Diagnostic``): field path and advice."""

    @property
    def path(self) -> str: ...

    @property
    def message(self) -> str: ...

    @property
    def needs(self) -> tuple[str, ...]: ...  # what the remedy has the step state

    @property
    def remedy_in(self) -> tuple[str, str] | None: ...  # the definition the remedy changes


class CompileError(SamAgentError):
    """A call that does not compile. Nothing was executed; the run goes back to Review."""

    def __init__(self, tool: str, diagnostics: Sequence[Diagnosed]):
        self.tool = tool
        self.diagnostics = list(diagnostics)
        lines = "\n".join(f"  - {d}" for d in self.diagnostics)
        super().__init__(f"{tool}: {len(self.diagnostics)} problem(s)\n{lines}")


class NotSimulated(SamAgentError):
    """The shadow cannot give exact evidence; the message says why (for the notes)."""


class Doubted(NotSimulated):
    """Call ``index`` (1-based in the run) has a step whose outcome the host decides."""

    def __init__(self, message: str, index: int) -> None:
        super().__init__(message)
        self.index = index


class ShadowFailed(NotSimulated):
    """Call ``index`` raised on the shadow: the script would meet the same in SAM (I7)."""

    def __init__(self, message: str, index: int, tool: str) -> None:
        super().__init__(message)
        self.index = index
        self.tool = tool


class RouteRefused(SamAgentError):
    """No capability could be read from the spec; the message tells the analyst what to do."""


class SpecRejected(SamAgentError, ValueError):
    """A design answer that is not a spec of its mode (docs/architecture.md §4 "The spec"):
    ``problems`` name each field and what is legal there; ``found_json`` says whether the
    answer held a JSON object at all."""

    def __init__(self, problems: Sequence[str], *, found_json: bool = True) -> None:
        self.problems = list(problems)
        self.found_json = found_json
        super().__init__("; ".join(self.problems))


# -- running --------------------------------------------------------------------------------


class DesignRefused(SamAgentError):
    """The design answer is the refusal ``{"refuse": "why"}``: the mode cannot do what was
    asked (docs/architecture.md §4 "The spec"); nothing runs."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class StepsNotComputable(SamAgentError, ValueError):
    """The tool calls cannot be computed from step ``step`` (0-based): it does not state
    enough (docs/architecture.md §4 "Calls from the steps"); the message names the step and
    what to give. ``joins``: the earlier step (0-based) the remedy makes one step with
    ("refining them twice is one step"), when it is that. ``needs``: what the step must
    state for the remedy (``scope``), which a step asked again is held to."""

    def __init__(self, step: int, message: str, joins: int | None = None,
                 needs: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.step = step
        self.message = message
        self.joins = joins
        self.needs = needs


class QueryError(SamAgentError, ValueError):
    """An observation query the model can fix (L2 regions, L3 entities): the message names
    the field and the legal values."""


class CollectionViolation(SamAgentError):
    """A round that breaks the collection rules; the message says which rule and how.
    ``phrase``: the same as data (a ``words.phrase.Phrase`` whose English is the message),
    when the rule has one."""

    def __init__(self, message: str, phrase: Any = None) -> None:
        super().__init__(message)
        self.phrase = phrase


class RoundRejected(CollectionViolation):
    """A round's answer was refused; ``rejection`` (a ``runtime.repair.Rejection``) is what
    the repair round needs: the call as sent, the diagnostic, the tool asked for."""

    def __init__(self, rejection: Any) -> None:
        super().__init__(str(getattr(rejection, "diagnostic", rejection)))
        self.rejection = rejection


ErrorKind = Literal[
    "auth", "rate_limit", "server", "bad_request", "protocol", "timeout", "cancelled", "connection"
]
ERROR_KINDS: tuple[str, ...] = get_args(ErrorKind)


# what the transport said, by the exception httpx raised (mapped where the provider client
# calls httpx, ``runtime/provider/transport.py``): nothing listens at the port, the host name
# does not resolve, another connect failure, no connection in time, no data in time, the
# stream broke after it began
TransportCause = Literal["refused", "unknown_host", "unreachable", "connect_timeout",
                         "read_timeout", "broken_stream"]
TRANSPORT_CAUSES: tuple[str, ...] = get_args(TransportCause)


@dataclass(frozen=True)
class ProviderFailure:
    """A failed provider call as data, for the words at the edge (docs/architecture.md
    "Messages as data"): its ``kind``, what the transport said (``cause``, None when the
    provider answered), the ``host`` it called, and ``said``: the call's part of the run's
    message as recorded (``str`` of the error), which the front ends say from the kind;
    ``detail``: the provider's own words in it (without the HTTP status)."""

    kind: ErrorKind
    cause: TransportCause | None = None
    host: str = ""
    said: str = ""
    detail: str = ""


class ProviderError(SamAgentError):
    """A failed provider call. ``str(e)`` is ``"<kind>: <message>"`` and never holds the key.

    ``raw_sse`` holds the bytes of the failed response body when one had started (for the
    ``provider_*.sse`` artifact); it is empty for errors before the body. ``cause`` and
    ``host``: what the transport said, as data (:class:`ProviderFailure`).
    """

    kind: ErrorKind
    message: str
    status_code: int | None
    retry_after: float | None
    raw_sse: bytes
    cause: TransportCause | None
    host: str
    detail: str

    def __init__(
        self,
        kind: ErrorKind,
        message: str,
        *,
        status_code: int | None = None,
        retry_after: float | None = None,
        raw_sse: bytes = b"",
        cause: TransportCause | None = None,
        host: str = "",
        detail: str | None = None,
    ) -> None:
        if kind not in ERROR_KINDS:
            raise ValueError(f"ProviderError kind must be one of {list(ERROR_KINDS)}, got {kind!r}")
        super().__init__(f"{kind}: {message}")
        self.kind = kind
        self.message = message
        self.status_code = status_code
        self.retry_after = retry_after
        self.raw_sse = raw_sse
        self.cause = cause
        self.host = host
        self.detail = message if detail is None else detail

    @property
    def failure(self) -> ProviderFailure:
        return ProviderFailure(kind=self.kind, cause=self.cause, host=self.host, said=str(self),
                               detail=self.detail)

    def __str__(self) -> str:
        return f"{self.kind}: {self.message}"

    def __repr__(self) -> str:
        return (
            f"ProviderError(kind={self.kind!r}, message={self.message!r}, "
            f"status_code={self.status_code!r}, retry_after={self.retry_after!r})"
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.kind, self.message, self.status_code, self.retry_after,
                           self.cause, self.host, self.detail))


def _rebuild(
    kind: ErrorKind, message: str, status: int | None, retry: float | None,
    cause: TransportCause | None = None, host: str = "", detail: str | None = None,
) -> ProviderError:
    return ProviderError(kind, message, status_code=status, retry_after=retry, cause=cause,
                         host=host, detail=detail)


class ExplorationChangedModel(SamAgentError, RuntimeError):
    """The part's fingerprint differs after exploration: something modified the model."""


class SubmitRefused(SamAgentError, ValueError):
    """``submit`` could not start a run (settings, host, runs directory, mode or target)."""


class ControllerBusy(SubmitRefused):
    """A run is in progress or waiting for review."""


class ControllerStateError(SamAgentError, RuntimeError):
    """An action that the current phase does not allow (e.g. confirming twice)."""


# the layer a run failed or was returned at (result.json ``error.layer``, docs/architecture.md §7)
ErrorLayer = Literal[
    "observation", "design", "provider", "tool_call", "compile", "execution", "verification"
]


class RunEnding(SamAgentError):
    """A step of a run ended it early at ``layer``; the controller writes the ending.
    ``provider``: the failed provider call that ended it, as data; ``phrase``: the message
    as data (a ``words.phrase.Phrase`` whose English is ``message``), when it has one."""

    def __init__(self, layer: ErrorLayer, message: str, *,
                 provider: ProviderFailure | None = None, phrase: Any = None):
        super().__init__(message)
        self.layer: ErrorLayer = layer
        self.message = message
        self.provider = provider
        self.phrase = phrase


class ReturnToReview(RunEnding):
    """Back to Review (``rejected``): nothing was executed; the analyst decides again."""


class FailRun(RunEnding):
    """The run ends Failed at ``layer``."""


class RefusedByCategory(FailRun):
    """The design answered that the mode does not do this, naming one refusal ``category``
    (docs/architecture.md §4 "The design, asked in parts"): the run ends Failed at design,
    nothing run; ``result.json`` ``error.category`` holds it."""

    def __init__(self, category: str, message: str):
        super().__init__("design", message)
        self.category = category


class RevisionRefused(SamAgentError, ValueError):
    """Ask for changes cannot send this remark (empty, or the revision bound is reached)."""


class IllegalTransition(SamAgentError, RuntimeError):
    """A transition the phase table does not allow: a controller bug or a misuse of the API."""

    def __init__(self, source: str, target: str, legal: Iterable[str]):
        allowed = ", ".join(sorted(legal)) or "none"
        super().__init__(
            f"illegal phase transition {source} -> {target}; legal from {source}: {allowed}"
        )
        self.source = source
        self.target = target


class AlreadySubmitted(SamAgentError, RuntimeError):
    """A run id that the journal already holds tried to submit again."""

    def __init__(self, run_id: str, state: str):
        detail = (
            "its outcome is unknown; re-observe the workspace and submit a new request"
            if state == "submitted"
            else "it already executed"
        )
        super().__init__(
            f"run {run_id} was already submitted once and is never resubmitted: {detail}"
        )
        self.run_id = run_id
        self.state = state


class StrictJSONError(SamAgentError, ValueError):
    """Arguments that are not one strict JSON value; the message says why. ``syntax`` is true
    when the text is not JSON at all (else it is JSON that breaks a strict rule: a key twice,
    NaN or Infinity)."""

    def __init__(self, message: str, *, syntax: bool = False) -> None:
        super().__init__(message)
        self.syntax = syntax
        self.message = message  # as given: a problem at a JSON path keeps its path as data


class ScriptRefused(SamAgentError):
    """The composed script holds something outside the script guard's allowlist; nothing of
    it ran."""

    def __init__(self, line: int, what: str):
        super().__init__(f"line {line}: {what}")
        self.line = line
        self.what = what


class Unconfined(SamAgentError):
    """A layer of the kernel's box for a baseline script (evaluation/confine.py) could not be
    installed here; the message says which and why. Nothing of the script runs then."""


class NotUnknown(SamAgentError, ValueError):
    """Only a run whose outcome is unknown can be acknowledged."""


class SaveConflict(SamAgentError, RuntimeError):
    """A file ``--save`` would replace changed since the workspace was opened; nothing was
    written."""


class EnvironmentValueError(SamAgentError, ValueError):
    """A ``SAM_AGENT_*`` variable holds a value that cannot be used (names it and the legal
    values)."""


class UndoRefused(SamAgentError):
    """A run that cannot be undone now: not verified, snapshot dropped, or the part changed
    since (the message says which)."""


class RerunRefused(SamAgentError, ValueError):
    """A rerun that cannot start: the source run is not a verified run with saved calls, or
    a target cannot take them (the message names which and what would do)."""


class ToolRefused(SamAgentError):
    """An MCP tool call that ran nothing: ``layer`` (as in result.json's ``error.layer``, or
    ``arguments``/``spec``), the words the client reads, and ``data`` for its result."""

    def __init__(self, layer: str, message: str, **data: Any) -> None:
        super().__init__(message)
        self.layer = layer
        self.message = message
        self.data = data


class ToolArgumentError(ToolRefused, ValueError):
    """An MCP client's tool arguments are refused before anything runs: the field and what is
    legal there (docs/mcp.md)."""

    def __init__(self, message: str) -> None:
        super().__init__("arguments", message)


class ApprovalRefused(SamAgentError):
    """A decision on a waiting plan cannot be recorded: no plan waits, it was decided already,
    its server is gone, or no person is at a terminal (the message says which)."""


class ForgedRecord(ApprovalRefused):
    """A request, decision or kept plan in a run directory whose seal does not hold under this
    user's secret, or that names another run or request: refused as forged, never taken for a
    person's decision (docs/mcp.md "Trust boundary")."""


class UsageError(SamAgentError):
    """Bad command-line input: printed as ``sam-agent: error: ...`` with exit code 2."""


class OfflineSamMissing(SamAgentError, RuntimeError):
    """Outside SAM, and neither the wheel nor a checkout holds the offline SAM."""


class AutomationTimeout(SamAgentError, TimeoutError):
    """A GUI automation helper waited longer than its timeout for a state."""


class LocalModelError(SamAgentError, RuntimeError):
    """Setting up or serving the local model (``sam-agent local``) failed; the message is the
    one line the user reads."""


class MissingTools(LocalModelError):
    """cmake or a C++ compiler is not installed; the message names the packages."""


class SetupCancelled(LocalModelError):
    """The user stopped the local model's set-up; what was done is kept and the next set-up
    resumes."""


class IllegalInstruction(LocalModelError):
    """The built llama-server died with SIGILL: its CPU variant is not granted here."""
