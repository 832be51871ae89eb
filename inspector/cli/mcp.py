"""``stream-inspector mcp [DIR]``: an MCP server on stdio over a recording folder
(``inspector.integrations.mcp_server``). Exit 2 for a folder that does not exist or without the
``mcp`` extra (one line on stderr)."""
from __future__ import annotations

import os
import sys

from inspector.cli.codes import EXIT_OK, EXIT_USAGE
from inspector.integrations.mcp_server import McpUnavailable, serve_stdio


def run(args) -> int:
    if not os.path.isdir(args.folder):
        why = ("a file, not a folder (mcp serves a recording folder: proxy --record DIR, run --record DIR)"
               if os.path.exists(args.folder) else "no such folder")
        print(f"stream-inspector: mcp: {args.folder}: {why}", file=sys.stderr)
        return EXIT_USAGE
    try:
        serve_stdio(args.folder)
    except McpUnavailable as e:
        print(f"stream-inspector: {e}", file=sys.stderr)
        return EXIT_USAGE
    return EXIT_OK
