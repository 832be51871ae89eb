"""The proxy's TUI lists each response on a WebSocket as an exchange of its own (issue 30 item 3).

A ``websockets`` client in a thread plays two tool rounds and a final answer on one socket through a
real proxy (``external=True``: inspection on the app's loop) to ``serve``; the list must show three
``WS`` rows at the socket's path, each with its model and status 101, and the inspector the last one's
assembled text.
"""
from __future__ import annotations

import json
import threading

import pytest
from websockets.sync.client import connect

from inspector.net.proxy.server import ProxyThread
from inspector.net.serve import ServerThread
from tests.conftest import ROOT
from tests.e2e.conftest import WAIT_S
from tests.e2e.test_proxy_tui import SIZE, row, until

pytest.importorskip("textual")

from inspector.tui.screens.exchanges import ProxyApp  # noqa: E402
from inspector.tui.widgets.exchange_list import ExchangeList  # noqa: E402

SOCKET = ROOT / "tests" / "websocket" / "data" / "responses-two-tool-rounds.jsonl"


def three_responses(url: str, done: threading.Event) -> None:
    """Three ``response.create`` on one socket, each read to ``response.completed``."""
    try:
        with connect("ws" + url[len("http"):] + "/v1/responses", open_timeout=WAIT_S) as c:
            for k in range(3):
                c.send(json.dumps({"type": "response.create", "model": "gpt-5.1", "input": f"round {k}"}))
                while json.loads(c.recv(WAIT_S))["type"] != "response.completed":
                    pass
    finally:
        done.set()


async def test_each_response_on_a_socket_is_a_row():
    with ServerThread([SOCKET], instant=True) as srv:
        proxy = ProxyThread(srv.url, timeout=WAIT_S, external=True).start()
        try:
            app = ProxyApp(proxy, listen_url=proxy.url, upstream=srv.url)
            async with app.run_test(size=SIZE) as pilot:
                table = app.query_one(ExchangeList)
                done = threading.Event()
                threading.Thread(target=three_responses, args=(proxy.url, done), daemon=True).start()
                await until(pilot, lambda: done.is_set() and table.row_count == 3 and all(ex.done for ex in app.exchanges),
                            "3 exchanges")
                app.refresh_now()
                await pilot.pause()
                rows = [row(table, n) for n in (1, 2, 3)]
                assert [(r["method"], r["status"], r["path"]) for r in rows] == [("WS", "101", "/v1/responses")] * 3
                assert {r["model"] for r in rows} == {"gpt-5.1-2025-11-13"}
                assert all(r["findings"].startswith("✖0 ▲0 ●0") for r in rows)
                assert app.feed.session.dialect_name == "openai-responses"
                assert app.feed.session.blocks[0].content == "84 units on hand; restock arrives 2026-02-24."
        finally:
            proxy.stop()
