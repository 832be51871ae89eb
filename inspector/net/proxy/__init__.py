"""``proxy --upstream URL``: a local pass-through endpoint that inspects every exchange an agent makes.

Why it exists: the way to debug a running agent without touching its code is to point its base
URL at the inspector. Every request is forwarded unchanged and every response streamed back
byte for byte *as it arrives*, while a copy of the bytes (with arrival times) goes through the
same ``Session`` as ``check`` and ``live`` (DESIGN.md, "One direction of flow").

One job per module; the forwarding path (endpoint → tap → sink) never waits for inspection:

- ``endpoint``: the ASGI app relaying one exchange (bytes untouched, timing, upstream faults);
- ``upstream``: the HTTP client for the upstreams (httpx's API over aiohttp: its C parser);
- ``pump``: the upstream body read ahead of the relay, so that what arrived together is relayed,
  recorded and queued as one batch (fewer writes and loop iterations on a fast stream);
- ``routes``: which upstream a path goes to (one for all, or one per prefix: ``run``);
- ``headers``: which header fields cross the proxy (hop-by-hop fields dropped);
- ``tap``: the inspected copy of a response (decoded, recorded with ``--record``, handed on);
- ``decode``: ``content-encoding`` decoding for that copy (gzip, deflate, br/zstd if installed);
- ``sink``: the hand-off of each step onto the inspecting event loop, in order, in slices that
  never hold other exchanges back long (fairness), with a bounded backlog;
- ``collect``: full garbage collections only between streams (headless);
- ``reports``: one report per exchange (``--format json|text``);
- ``server``: starting it (background thread, or foreground headless);
- ``wsrelay``: WebSocket upgrades on the same port, relayed message for message (close codes both ways);
- ``wstap``: each relayed socket recorded, and each response on it inspected as an exchange.

The exchanges themselves (record, log, pairing) are pure and live in ``inspector.feeds.exchanges``.

May import: ``inspector.feeds`` (the exchange log it feeds), ``inspector.report``, the layers below, and
the other ``inspector.net`` modules; never the TUI (``inspector.cli.proxy`` wires the two).
"""
