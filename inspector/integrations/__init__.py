"""Where users already work: the pytest plugin (``pytest_plugin``: cassettes and responses a test
used), the MCP server (``mcp_server``) and the mitmproxy addon (``mitm``). Each integration reads
streams through the same pipeline as the CLI and reports findings in the stream's own terms.
May import: every layer below the CLI (``net``, ``tui`` excepted: integrations draw no screen), and
the optional libraries each integration is for (vcrpy, httpx, mcp, mitmproxy) where it uses them.
"""
from __future__ import annotations

from pathlib import Path


def mitm_addon_path() -> Path:
    """The mitmproxy addon file (``mitm_addon.py``; loaded by mitmproxy, never imported here)."""
    return Path(__file__).resolve().parent / "mitm_addon.py"
