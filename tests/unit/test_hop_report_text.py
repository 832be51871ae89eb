"""A gateway pair in words (``gateway --format text``, the gateway screen's pair detail): each hop's
finding says its code once."""
from __future__ import annotations

from inspector.compare.diff.hops import HopFinding
from inspector.compare.hops.pairs import GatewayPair
from inspector.compare.hops.report import pair_text
from inspector.feeds.exchanges.hops import HopPair


def test_each_finding_names_its_code_once_and_a_difference_its_kind():
    found = [HopFinding("upstream", "A007", "A007 stop-reason-mismatch: stop_reason is 'end_turn' (passed on as C003)"),
             HopFinding("gateway", "arguments-differ", "tool #0 f: arguments differ at $.city"),
             HopFinding("client", "Q001", "Q001: the history drops the tool result")]
    text = pair_text(GatewayPair(1, HopPair("paired", None, None), found=found))
    lines = text.splitlines()
    assert "    A007 stop-reason-mismatch: stop_reason is 'end_turn' (passed on as C003)" in lines
    assert "    arguments-differ: tool #0 f: arguments differ at $.city" in lines
    assert "    Q001: the history drops the tool result" in lines
    assert "A007: A007" not in text and "Q001: Q001" not in text
