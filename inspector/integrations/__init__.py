"""Where users already work: the pytest plugin (``pytest_plugin``: cassettes and responses a test
used), the MCP server (``mcp_server``) and the mitmproxy addon (``mitm``). Each integration reads
streams through the same pipeline as the CLI and reports findings in the stream's own terms.
May import: every layer below the CLI (``net``, ``tui`` excepted: integrations draw no screen), and
the optional libraries each integration is for (vcrpy, httpx, mcp, mitmproxy) where it uses them.
"""
