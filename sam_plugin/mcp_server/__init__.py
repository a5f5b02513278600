"""``sam-agent mcp``: the gated pipeline offered to external agents over the Model Context
Protocol, a person approving every change (docs/mcp.md).

``approval`` (the decision files), ``waiting`` and ``outcome`` need no MCP SDK (the dock
imports them at load); ``server``, ``stdio`` and ``http`` do (the ``[mcp]`` extra). The
runtime never imports this package; the command is ``sam_plugin/cli/mcp.py``, the person's
terminal channel ``sam_plugin/cli/approve.py``.
"""
