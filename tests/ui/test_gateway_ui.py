"""The gateway screen: pairs appear as they are decided, with the hop of each finding; enter opens the diff."""
from __future__ import annotations

import asyncio

import httpx
from textual.widgets import DataTable

from inspector.net.gateway.server import GatewayTaps
from inspector.net.servers import BackgroundServer, bind_socket, url_for
from inspector.tui.screens.diff import DiffScreen
from inspector.tui.screens.gateway import GatewayApp, GatewayScreen
from tests.e2e.test_gateway import CAPTURE, Upstream
from inspector.net.serve import asgi_app, load_served
from tests.gateway import toy

SIZE = (140, 40)


async def _ask(client: httpx.AsyncClient, url: str, text: str) -> int:
    body = {"model": "claude", "stream": True, "messages": [{"role": "user", "content": text}]}
    async with client.stream("POST", url + "/v1/chat/completions", json=body) as r:
        await r.aread()
        return r.status_code


async def test_pairs_appear_with_their_hops_and_enter_opens_the_diff():
    upstream = BackgroundServer(asgi_app(Upstream(load_served([str(CAPTURE)]), instant=True))).start()
    back_sock = bind_socket("127.0.0.1", 0)  # the gateway must know the back tap's URL before it starts
    gw = BackgroundServer(toy.make_app(url_for(back_sock))).start()
    taps = GatewayTaps(gw.url, upstream.url, back_sock=back_sock, grace=0.2).start()
    app = GatewayApp(taps, banner="front → toy gateway → back → mock provider")
    try:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, GatewayScreen)
            async with httpx.AsyncClient(trust_env=False, timeout=20) as client:
                assert await _ask(client, taps.front.url, "Compare Lisbon and Porto. [finish-stop]") == 200
                assert await _ask(client, taps.front.url, "Faro from the cache? [cached]") == 200
            for _ in range(100):
                if len(screen.shown) == 2:
                    break
                await asyncio.sleep(0.05)
            table = screen.query_one(DataTable)
            rows = [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]
            assert rows[0][3].startswith("content 1.00") and rows[0][4] == "equivalent"
            assert rows[0][5:] == ["A007", "·", "·"]  # the upstream's defect, passed on
            assert rows[1][2] == "—" and rows[1][3] == "front only"
            report = str(screen.query_one("#pair-report").render())
            assert "upstream:" in report and "A007" in report and "passed on as C003" in report
            table.focus()
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, DiffScreen)
            assert app.screen.diff.a.dialect == "anthropic-messages" and app.screen.diff.b.dialect == "openai-chat"
            await pilot.press("q")
            await pilot.press("down", "enter")
            await pilot.pause()
            assert isinstance(app.screen, GatewayScreen)  # nothing to compare: a notice instead
            await pilot.press("q")
    finally:
        taps.stop()
        gw.stop()
        upstream.stop()
