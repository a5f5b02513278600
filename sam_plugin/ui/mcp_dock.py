"""The MCP server of the dock's process, and the dock as one of its approval channels
(docs/mcp.md "Inside SAM").

When Settings turn it on (off by default) the dock serves the gated pipeline over streamable
HTTP on 127.0.0.1 with a bearer token; it stops with the dock. A plan or an undo an MCP client
asks for is put before the analyst (``mcp_approver.py``) once the analyst's own run does not
need the dock, and what became of it is shown as the analyst's own run is
(``mcp_outcome.py``). The MCP SDK is imported only when the server starts (the ``[mcp]``
extra).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from pathlib import Path
from typing import Any

from sam_plugin.runtime.config.store import SettingsStore
from sam_plugin.ui.i18n import tr
from sam_plugin.ui.mcp_approver import DockApprover, DockQuestions, offer_waiting
from sam_plugin.ui.mcp_outcome import show_outcome

__all__ = ["DockApprover", "DockMcp"]

log = logging.getLogger(__name__)


class DockMcp:
    """Starts and stops the dock's MCP server as the saved settings say."""

    def __init__(self, dock: Any, sam_module: Any, runs_dir: Path, store: SettingsStore):
        self.dock = dock
        self.sam_module = sam_module
        self.runs_dir = Path(runs_dir)
        self.store = store
        self.service: Any = None
        self.problem = ""
        self.questions = DockQuestions(dock)
        self.gate: Any = None
        self._offering: asyncio.Future[None] | None = None

    @property
    def url(self) -> str:
        return str(self.service.url) if self.service is not None else ""

    def attach(self, gate: Any) -> None:
        """The dock becomes a channel of ``gate``: asked about its plans and undos, offered
        the plans that wait with no call asking, and told what became of each."""
        self.detach()
        self.gate = gate
        gate.approvers.append(DockApprover(self.questions, gate))
        gate.watchers.append(self._on_outcome)
        self._offering = asyncio.ensure_future(offer_waiting(gate, self.questions))

    def detach(self) -> None:
        offering, self._offering = self._offering, None
        if offering is not None:
            offering.cancel()
        gate, self.gate = self.gate, None
        if gate is not None:
            gate.approvers[:] = [a for a in gate.approvers if not isinstance(a, DockApprover)]
            with contextlib.suppress(ValueError):
                gate.watchers.remove(self._on_outcome)

    def _on_outcome(self, outcome: Any) -> None:
        show_outcome(self.questions, outcome)

    async def apply(self) -> str:
        """Serve when the settings say so (and a token was made), else stop; what the
        analyst should know, in words."""
        enabled, port = self.store.mcp_server()
        digest = self.store.mcp_token_digest()
        await self.stop()
        self.problem = ""
        if not enabled:
            return tr("MCP server: off")
        if not digest:
            self.problem = tr("MCP server: make a token first (Settings: New token)")
            return self.problem
        try:
            from sam_plugin.mcp_server.gate import Gate
            from sam_plugin.mcp_server.http import HttpService
            from sam_plugin.runtime.host_gateway import HostGateway
        except ImportError:
            self.problem = tr("MCP server: the MCP SDK is not installed (pip install "
                              "'mcp==2.3.0' into SAM's Python: docs/mcp.md)")
            return self.problem
        from sam_plugin.mcp_server.approval import channels_of

        try:
            channels = channels_of(",".join(self.store.approval_channels()))
        except ValueError:
            channels = ()  # none allowed: every plan is refused, saying so
        gate = Gate(host=HostGateway(self.sam_module), runs_dir=self.runs_dir,
                    policy=self.store.policy(), channels=channels)
        self.attach(gate)
        service = HttpService(gate, digest, port)
        try:
            url = await service.start()
        except OSError as error:
            self.detach()
            self.problem = tr("MCP server: cannot listen on 127.0.0.1:{port} ({error})").format(
                port=port, error=error.strerror or error)
            return self.problem
        self.service = service
        return tr("MCP server: serving at {url}").format(url=url)

    async def stop(self) -> None:
        self.detach()
        service, self.service = self.service, None
        if service is not None:
            await service.stop()
