"""The MCP server of the dock's process, and the dock as one of its approval channels
(docs/mcp.md "Inside SAM").

When Settings turn it on (off by default) the dock serves the gated pipeline over streamable
HTTP on 127.0.0.1 with a bearer token; it stops with the dock. A plan an MCP client asks to
execute is shown in ``planView`` (once the analyst's own run does not need the dock), and
``executeButton`` approves it, ``cancelButton`` declines it: the same decision file as every
other channel, the first decision standing. The MCP SDK is imported only when the server
starts (the ``[mcp]`` extra).
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

from sam_plugin.compilers.plan import Plan
from sam_plugin.runtime.config.store import SettingsStore
from sam_plugin.ui.i18n import tr

log = logging.getLogger(__name__)

FREE_POLL_S = 0.5  # how often a waiting MCP plan looks whether the dock is free


class DockApprover:
    """The dock's plan view as an approval channel (``waiting.Approver``)."""

    channel = "dock"

    def __init__(self, dock: Any) -> None:
        self.dock = dock

    def _occupied(self) -> bool:
        """The analyst's own run needs the dock (busy, or waiting at its spec or plan)."""
        dock = self.dock
        phase = str(dock.controller.phase) if dock.controller is not None else "idle"
        return bool(dock.busy) or phase in ("review", "plan")

    async def ask(self, question: Any) -> None:
        plan = question.plan
        # what is shown is the plan whose script runs, never one read back from a file
        if not isinstance(plan, Plan) or plan.script_sha256 != question.request.plan_sha256:
            log.warning("the dock is not asked about run %s: no compiled plan with its SHA-256",
                        question.request.run_id)
            return
        while self._occupied():
            await asyncio.sleep(FREE_POLL_S)
        answer: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        dock = self.dock

        def decide(ok: bool) -> None:
            if not answer.done():
                answer.set_result(ok)

        def on_execute(*_: Any) -> None:
            decide(True)

        def on_cancel(*_: Any) -> None:
            decide(False)

        dock.plan_view.show_plan(plan)
        for button in (dock.execute_button, dock.cancel_button):
            button.setEnabled(True)
            button.show()
        dock.submit_button.setEnabled(False)
        dock.set_status(tr("Plan — an MCP client asks: {title}. Execute or Cancel").format(
            title=question.title))
        dock.execute_button.clicked.connect(on_execute)
        dock.cancel_button.clicked.connect(on_cancel)
        try:
            approved = await answer
            question.answer("approved" if approved else "declined", "dock",
                            "the analyst in the SAM dock")
        finally:
            for button, slot in ((dock.execute_button, on_execute),
                                 (dock.cancel_button, on_cancel)):
                try:
                    button.clicked.disconnect(slot)
                except (RuntimeError, TypeError):  # the dock is gone already
                    pass
            dock.plan_view.clear_plan()
            for button in (dock.execute_button, dock.cancel_button):
                button.setEnabled(False)
                button.hide()
            dock.submit_button.setEnabled(True)


class DockMcp:
    """Starts and stops the dock's MCP server as the saved settings say."""

    def __init__(self, dock: Any, sam_module: Any, runs_dir: Path, store: SettingsStore):
        self.dock = dock
        self.sam_module = sam_module
        self.runs_dir = Path(runs_dir)
        self.store = store
        self.service: Any = None
        self.problem = ""

    @property
    def url(self) -> str:
        return str(self.service.url) if self.service is not None else ""

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
        gate.approvers.append(DockApprover(self.dock))
        service = HttpService(gate, digest, port)
        try:
            url = await service.start()
        except OSError as error:
            self.problem = tr("MCP server: cannot listen on 127.0.0.1:{port} ({error})").format(
                port=port, error=error.strerror or error)
            return self.problem
        self.service = service
        return tr("MCP server: serving at {url}").format(url=url)

    async def stop(self) -> None:
        service, self.service = self.service, None
        if service is not None:
            await service.stop()
