"""A gateway's two sides as pairs: decided, diffed and attributed to a hop, and reported.

- ``pairs``: the :class:`PairLog` that watches the front and back exchange logs, decides pairs
  (``inspector.feeds.exchanges.hops``), diffs each (``inspector.compare.diff``) and names the hop
  of every difference and finding;
- ``report``: one report per pair (``gateway --format json|text``, ``pair.json``, the TUI's detail).

Headless and network-free: ``inspector.net.gateway`` feeds it from its taps, the TUI shows it.
May import: ``inspector.compare.diff``, ``inspector.feeds`` and the layers below.
"""
from __future__ import annotations

from inspector.compare.hops.pairs import GatewayPair, PairLog, exchange_answer
from inspector.compare.hops.report import PairReports, exchange_json, pair_json, pair_text

__all__ = ["GatewayPair", "PairLog", "PairReports", "exchange_answer", "exchange_json", "pair_json", "pair_text"]
