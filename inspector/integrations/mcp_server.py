"""``stream-inspector mcp``: an MCP server over stdio (the official ``mcp`` Python SDK, the ``mcp``
extra) so a coding agent can ask about streams instead of reading a screen.

Tools (each answers text in the stream's terms; ``mcp_tools``): ``list_exchanges``,
``get_exchange``, ``check_capture``, ``explain_rule``, ``diff_captures``, over a recording folder
(``proxy --record DIR``, a running proxy's included: the folder is read on each call, or any folder
of captures and cassettes). Spec: modelcontextprotocol.io, "Tools"; transport stdio.
"""
from __future__ import annotations

from inspector import __version__
from inspector.integrations.mcp_tools import Folder, explain_rule

INSTALL_HINT = "pip install 'stream-inspector[mcp]' (from a checkout: uv sync --extra mcp)"
INSTRUCTIONS = ("Inspects LLM provider streams (SSE/NDJSON/event-stream) recorded in one folder. Findings are "
                "rule codes at an event of the stream (J002 at event 6: the tool call's arguments are incomplete, "
                "do not execute it). Start with list_exchanges(only_with_findings=true).")


class McpUnavailable(RuntimeError):
    """The ``mcp`` package is not installed; ``str(e)`` is one line."""


def build_server(root: str):
    """The MCP server for recording folder ``root``. Raises ``McpUnavailable`` without the SDK."""
    try:
        from mcp.server.mcpserver import MCPServer
    except ImportError:
        raise McpUnavailable(f"mcp needs the MCP Python SDK: {INSTALL_HINT}") from None
    folder = Folder(root)
    server = MCPServer("stream-inspector", version=__version__, instructions=INSTRUCTIONS)

    @server.tool()
    def list_exchanges(only_with_findings: bool = False, limit: int = 50) -> str:
        """Every recorded stream in the folder, one line each: dialect, events, stop reason, finding
        counts and its first findings (code at event: what it means)."""
        return folder.list_exchanges(only_with_findings, limit)

    @server.tool()
    def get_exchange(name: str) -> str:
        """One recorded stream (a name from list_exchanges, e.g. 003-POST-v1-messages.jsonl or
        cassette.yaml#2): request, each finding with what to do, each content block with its text or
        tool-call arguments."""
        return folder.get_exchange(name)

    @server.tool()
    def check_capture(path: str) -> str:
        """Lint a capture file (native recording, SSE, NDJSON, HAR, VCR cassette; relative to the
        folder or absolute): the same report as `stream-inspector check`."""
        return folder.check_capture(path)

    @server.tool(name="explain_rule")
    def explain(code: str) -> str:
        """What a rule code (e.g. J002, A005, T001) means: when it fires, what breaks, what to do."""
        return explain_rule(code)

    @server.tool()
    def diff_captures(a: str, b: str) -> str:
        """Are two streams of the same answer equivalent (e.g. before and after a gateway), whatever
        their dialects; the differences if not."""
        return folder.diff_captures(a, b)

    return server


def serve_stdio(root: str) -> None:
    """Run the server on standard input/output until the client closes it. Raises ``McpUnavailable``."""
    build_server(root).run("stdio")
