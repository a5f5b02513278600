"""Settings: the dock's MCP server (docs/mcp.md "Inside SAM"): off by default; on, it serves
over HTTP on 127.0.0.1 at the port given, to clients that send the bearer token. A new token
is shown here once (copy it into the client's configuration); only its SHA-256 is kept, where
the API key is kept. Where a person may approve (the dock, the client's form, ``sam-agent
approve`` at a terminal) is chosen here too, for the dock's server and ``sam-agent mcp``."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
)

from sam_plugin.mcp_server.bearer import new_token, token_digest
from sam_plugin.runtime.config.store import SettingsStore
from sam_plugin.ui.i18n import tr


class McpSettingsBox(QGroupBox):
    def __init__(self, store: SettingsStore) -> None:
        super().__init__(tr("MCP server for external agents (Claude Desktop, Cursor, …)"))
        self.setObjectName("mcpSettings")
        self.store = store
        enabled, port = store.mcp_server()
        form = QFormLayout(self)
        self.serve = QCheckBox(tr("Serve on 127.0.0.1 while the dock is open (you approve "
                                  "every change)"))
        self.serve.setObjectName("mcpServeCheck")
        self.serve.setChecked(enabled)
        form.addRow(self.serve)
        self.port = QSpinBox()
        self.port.setObjectName("mcpPortSpin")
        self.port.setRange(1024, 65535)
        self.port.setValue(port)
        form.addRow(tr("Port"), self.port)
        row = QHBoxLayout()
        self.token = QLineEdit()
        self.token.setObjectName("mcpTokenEdit")
        self.token.setReadOnly(True)
        self.token.setPlaceholderText(tr("a token is set") if store.mcp_token_digest()
                                      else tr("no token yet"))
        self.new_token_button = QPushButton(tr("New token"))
        self.new_token_button.setObjectName("mcpTokenButton")
        row.addWidget(self.token, 1)
        row.addWidget(self.new_token_button)
        form.addRow(tr("Bearer token"), row)
        self.note = QLabel()
        self.note.setObjectName("mcpTokenNote")
        self.note.setWordWrap(True)
        form.addRow(self.note)
        self.approve_on: dict[str, QCheckBox] = {}
        try:
            allowed = store.approval_channels()
        except ValueError:  # a saved value that names no known channel: none is ticked
            allowed = ()
        channels = QHBoxLayout()
        for channel, words in (("dock", tr("this dock")), ("elicitation", tr("the client's form")),
                               ("command", tr("sam-agent approve in a terminal"))):
            box = QCheckBox(words)
            box.setObjectName(f"mcpApproveOn_{channel}")
            box.setChecked(channel in allowed)
            self.approve_on[channel] = box
            channels.addWidget(box)
        form.addRow(tr("A person approves on"), channels)
        trust = QLabel(tr("An agent that runs commands as you can also type at a terminal: turn "
                          "the terminal off where such agents run (docs/mcp.md, Trust "
                          "boundary)."))
        trust.setWordWrap(True)
        form.addRow(trust)
        self.new_token_button.clicked.connect(self.make_token)

    def make_token(self) -> str:
        """A new token, kept as its SHA-256 and shown once (the old one stops working)."""
        token = new_token()
        self.store.save_mcp_token_digest(token_digest(token))
        self.token.setText(token)
        self.note.setText(tr("Copy it now into the client's configuration "
                             "(Authorization: Bearer …): it is shown only once."))
        return token

    def save(self) -> None:
        self.store.save_mcp_server(enabled=self.serve.isChecked(), port=self.port.value())
        self.store.save_approval_channels(
            tuple(c for c, box in self.approve_on.items() if box.isChecked()))
