"""``gateway --gateway-url URL --upstream URL``: both sides of a translating gateway, paired and compared.

Two proxy endpoints (``inspector.net.proxy``) in one process: the *front* tap (clients point at
it; it forwards to the gateway) and the *back* tap (the gateway's provider base URL points at it;
it forwards to the provider). Both exchange logs feed one pair log on one event loop
(``inspector.compare.hops``, headless), which pairs their exchanges
(``inspector.feeds.exchanges.hops``), diffs each pair (``inspector.compare.diff``: A = what the
provider sent, B = what the gateway sent on) and names the hop of every difference and finding
(upstream, gateway, client). Here, one job per module:

- ``record``: ``--record DIR`` (each pair's captures and report in a folder of its own);
- ``server``: starting both taps (background threads; inspection on the caller's loop).

May import: ``inspector.net.proxy``, ``inspector.compare``, ``inspector.feeds`` and the layers below;
never the TUI (``inspector.cli.gateway`` wires the two).
"""
