"""``s`` in the proxy's TUI saves the exchange shown as a native capture (issue 12, item 7)."""
from __future__ import annotations

import httpx
import pytest

from inspector.capture.load import load_path
from inspector.feeds.run import run_capture
from tests.e2e.conftest import WAIT_S
from tests.e2e import test_proxy_tui
from tests.e2e.test_proxy_tui import SIZE, until

served = test_proxy_tui.served
"""The proxy TUI tests' fixture: a served corpus pair behind a real proxy."""

pytest.importorskip("textual")

from inspector.tui.screens.exchanges import ProxyApp  # noqa: E402
from inspector.tui.screens.save_file import SaveFileScreen  # noqa: E402


async def test_s_saves_the_exchange_shown_and_it_replays_to_the_same_result(served, tmp_path):
    srv, proxy = served
    app = ProxyApp(proxy, listen_url=proxy.url, upstream=srv.url)
    out = tmp_path / "exchange.jsonl"
    async with app.run_test(size=SIZE) as pilot:
        async with httpx.AsyncClient(timeout=WAIT_S) as client:
            await client.post(f"{proxy.url}/openai-parallel-indexed/v1/chat/completions",
                              json={"model": "m-case", "stream": True, "messages": []},
                              headers={"authorization": "Bearer sk-proj-SAVESECRET123456789"})
        await until(pilot, lambda: app.exchanges and app.exchanges[0].done, "the exchange to end")
        app.refresh_now()
        await pilot.pause()
        await pilot.press("s")
        assert isinstance(app.screen, SaveFileScreen)
        app.screen.query_one("#save-path").value = str(out)
        await pilot.press("enter")
        await pilot.pause()
        shown = app.feed.session
    text = out.read_text()
    assert "SAVESECRET" not in text
    saved = load_path(out)
    assert saved.request["url"].endswith("/openai-parallel-indexed/v1/chat/completions")
    replayed = run_capture(saved)
    assert [(f.code, f.event) for f in replayed.findings] == [(f.code, f.event) for f in shown.findings]
    assert [b.content for b in replayed.blocks] == [b.content for b in shown.blocks] and len(shown.blocks) == 2
