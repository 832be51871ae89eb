"""``proxy --upstream URL``: a local pass-through endpoint that inspects every exchange an agent makes.

Why it exists: the way to debug a running agent without touching its code is to point its base
URL at the inspector. Every request is forwarded unchanged and every response streamed back
byte for byte *as it arrives*, while a copy of the bytes (with arrival times) goes through the
same ``Session`` as ``check`` and ``live`` (DESIGN.md, "One direction of flow").

One job per module; the forwarding path (endpoint → tap → sink) never waits for inspection:

- ``endpoint``: the ASGI app relaying one exchange (bytes untouched, timing, upstream faults);
- ``headers``: which header fields cross the proxy (hop-by-hop fields dropped);
- ``tap``: the inspected copy of a response (decoded, recorded with ``--record``, handed on);
- ``decode``: ``content-encoding`` decoding for that copy (gzip, deflate, br/zstd if installed);
- ``sink``: the hand-off of each step onto the inspecting event loop, in order;
- ``exchange``: one exchange's record and whether its response is linted as a stream;
- ``log``: the exchanges, their sessions and the Q-rule history checks;
- ``pairing``: which earlier exchange a request's history continues (pure);
- ``reports``: one report per exchange (``--format json|text``);
- ``server``: starting it (background thread, or foreground headless);
- ``command``: ``cmd_proxy``, the command entry (the only place that imports the TUI, lazily).

This module only re-exports the names other code uses; it imports nothing but the package.
"""
from __future__ import annotations

from inspector.net.proxy.command import cmd_proxy
from inspector.net.proxy.decode import ContentDecoder, DecodeError, NotDecodable, decoder_for
from inspector.net.proxy.endpoint import ProxyEndpoint, make_asgi_app
from inspector.net.proxy.exchange import (BODY_EXCERPT, OLLAMA_STREAMING_PATHS, STREAM_TYPES, Exchange,
                                          should_lint, wants_stream)
from inspector.net.proxy.headers import forward_request_headers, forward_response_headers
from inspector.net.proxy.log import HISTORY_ONLY_RULES, ExchangeLog
from inspector.net.proxy.pairing import HISTORY_KEYS, continued_exchange
from inspector.net.proxy.reports import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, Reports, report_for, text_for
from inspector.net.proxy.server import ProxyThread
from inspector.net.proxy.sink import LoopSink
from inspector.net.proxy.tap import first_free_number, safe_name

__all__ = [
    "BODY_EXCERPT", "EXIT_FINDINGS", "EXIT_OK", "EXIT_USAGE", "HISTORY_KEYS", "HISTORY_ONLY_RULES",
    "OLLAMA_STREAMING_PATHS", "STREAM_TYPES", "ContentDecoder", "DecodeError", "Exchange", "ExchangeLog",
    "LoopSink", "NotDecodable", "ProxyEndpoint", "ProxyThread", "Reports", "cmd_proxy", "continued_exchange",
    "decoder_for", "first_free_number", "forward_request_headers", "forward_response_headers", "make_asgi_app",
    "report_for", "safe_name", "should_lint", "text_for", "wants_stream",
]
