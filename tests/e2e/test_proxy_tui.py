"""The proxy's TUI (``ProxyApp``) driven by Pilot while real requests go through a real proxy.

The proxy runs in its own thread on 127.0.0.1 and hands every chunk to the app's loop; requests
are sent from the test (the app's loop) with httpx. Checked: the exchange list fills in (method,
path, model, status, findings), the inspector follows the newest exchange until an older one is
picked, a stream is shown live while it is still arriving, the Q findings of a request show on
its exchange, and the details screen shows the request with its secrets redacted.
"""
from __future__ import annotations

import threading

import httpx
import pytest

from inspector.net.proxy.server import ProxyThread
from inspector.net.serve import ServerThread
from tests.conftest import SHARED_CORPUS
from tests.e2e.conftest import ANTHROPIC_OPENING, WAIT_S, sse_event

pytest.importorskip("textual")

from inspector.tui.screens.exchanges import ExchangeDetailScreen, ProxyApp  # noqa: E402
from inspector.tui.widgets.exchange_list import COLUMNS, ExchangeList  # noqa: E402

SECRET = "sk-ant-TUISECRET77"
SIZE = (160, 48)


async def until(pilot, pred, what: str):
    """Let the app run until ``pred()`` (bounded by WAIT_S)."""
    for _ in range(int(WAIT_S / 0.02)):
        if pred():
            return
        await pilot.pause(0.02)
    pytest.fail(f"timed out waiting for {what}")


def row(table: ExchangeList, n: int) -> dict[str, str]:
    return {key: str(table.get_cell(str(n), key)) for key, _ in COLUMNS}


@pytest.fixture
def served():
    caps = [SHARED_CORPUS / "anthropic-doc-tool-call.sse", SHARED_CORPUS / "openai-parallel-indexed.sse"]
    with ServerThread(caps, instant=True) as srv:
        proxy = ProxyThread(srv.url, timeout=WAIT_S, external=True).start()
        try:
            yield srv, proxy
        finally:
            proxy.stop()


async def test_exchange_list_follows_new_exchanges_and_shows_q_findings(served):
    srv, proxy = served
    app = ProxyApp(proxy, listen_url=proxy.url, upstream=srv.url)
    async with app.run_test(size=SIZE) as pilot:
        table = app.query_one(ExchangeList)
        assert table.row_count == 0 and app.feed.label.startswith("waiting for requests on http://127.0.0.1:")
        async with httpx.AsyncClient(timeout=WAIT_S) as client:
            await client.post(f"{proxy.url}/anthropic-doc-tool-call/v1/messages",
                              json={"model": "claude-case", "stream": True, "messages": []},
                              headers={"x-api-key": SECRET})
            await client.post(f"{proxy.url}/openai-parallel-indexed/v1/chat/completions",
                              json={"model": "m-case", "stream": True, "messages": []})
            await until(pilot, lambda: table.row_count == 2 and all(ex.done for ex in app.exchanges), "2 exchanges")
            app.refresh_now()
            await pilot.pause()
            first, second = row(table, 1), row(table, 2)
            assert first["n"] == "1" and first["method"] == "POST"
            assert first["path"] == "/anthropic-doc-tool-call/v1/messages"
            assert first["model"] == "claude-case" and first["status"] == "200"
            assert first["findings"].startswith("✖0 ▲0 ●0")
            assert second["path"] == "/openai-parallel-indexed/v1/chat/completions" and second["model"] == "m-case"
            # Following the newest: the inspector shows exchange 2.
            assert app.feed_index == 1 and app.feed.session.dialect_name == "openai-chat"
            assert len(app.shown_blocks) == 2

            # Pick the older one: the inspector switches and stops following.
            table.focus()
            await pilot.press("up")
            await pilot.pause()
            assert app.feed_index == 0 and not app.auto_follow
            assert app.feed.session.dialect_name == "anthropic-messages"

            # A request sending back a truncated tool input: Q006 on the new exchange, not followed...
            history = [{"role": "user", "content": "weather?"},
                       {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_01PoA7q",
                                                          "name": "get_weather", "input": {"location": "Por"}}]},
                       {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01PoA7q",
                                                     "content": "x"}]}]
            await client.post(f"{proxy.url}/anthropic-doc-tool-call/v1/messages",
                              json={"model": "claude-case", "stream": True, "messages": history})
            await until(pilot, lambda: len(app.exchanges) == 3 and app.exchanges[2].done, "exchange 3")
        app.refresh_now()
        await pilot.pause()
        assert app.feed_index == 0
        assert row(table, 3)["findings"].startswith("✖0 ▲1 ●0")
        # ...until `a` follows the newest again.
        await pilot.press("a")
        await pilot.pause()
        assert app.feed_index == 2 and app.auto_follow
        assert [f.code for f in app.feed.session.findings] == ["Q006"]
        assert "vs exchange #1" in app.feed.session.findings[0].message

        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, ExchangeDetailScreen)
        shown = " ".join(str(w.render()) for w in app.screen.query("Static"))
        assert "Q006" in shown and "continues the answer of exchange #1" in shown
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, ExchangeDetailScreen)
        # The first exchange's stored request never holds the key.
        assert SECRET not in str(app.exchanges[0].request)


async def test_a_stream_is_shown_live_while_it_arrives(raw_server):
    release = threading.Event()
    rest = b"".join(sse_event(e) for e in [
        {"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "is\"}"}},
        {"type": "content_block_stop", "index": 0},
        {"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": None},
         "usage": {"output_tokens": 3}},
        {"type": "message_stop"}])

    def behave(srv, conn, request):
        srv.head(conn)
        srv.chunk(conn, b"".join(sse_event(e) for e in ANTHROPIC_OPENING))
        release.wait(WAIT_S)
        srv.chunk(conn, rest)
        srv.finish(conn)

    up = raw_server(behave)
    proxy = ProxyThread(up.url, timeout=WAIT_S, external=True).start()
    try:
        app = ProxyApp(proxy, listen_url=proxy.url, upstream=up.url)
        async with app.run_test(size=SIZE) as pilot:
            async with httpx.AsyncClient(timeout=WAIT_S) as client:
                async with client.stream("POST", f"{proxy.url}/v1/messages", json={"stream": True}) as resp:
                    it = resp.aiter_raw()
                    await it.__anext__()
                    await until(pilot, lambda: len(app.feed.session.events) == 3, "the first events")
                    app.refresh_now()
                    await pilot.pause()
                    ex = app.exchanges[0]
                    assert not ex.done and app.feed.session.blocks[0].status == "partial"
                    assert row(app.query_one(ExchangeList), 1)["duration"].endswith("s…")  # duration still running
                    release.set()
                    async for _ in it:
                        pass
            await until(pilot, lambda: app.feed.finished, "the end of the stream")
            app.refresh_now()
            await pilot.pause()
            assert app.feed.session.blocks[0].input == {"body": "paris"}
            assert row(app.query_one(ExchangeList), 1)["duration"].endswith(" s")
    finally:
        release.set()
        proxy.stop()


async def test_the_findings_filter_box_works_in_the_proxy_as_in_the_inspector():
    """The proxy's own list filter used to take over the inspector's box handlers (a mixin's
    private method of the same name): enter in the findings filter set the exchange filter and
    left the box open, and esc did not close it."""
    proxy = ProxyThread("http://127.0.0.1:9", timeout=WAIT_S, external=True).start()
    try:
        app = ProxyApp(proxy, listen_url=proxy.url, upstream="http://127.0.0.1:9")
        async with app.run_test(size=SIZE) as pilot:
            from textual.widgets import Input

            from inspector.tui.widgets.findings_list import FindingsList

            box = app.query_one("#finding-filter", Input)
            await until(pilot, lambda: isinstance(app.focused, ExchangeList), "the list's focus after mount")
            await pilot.press("x", "C", "0", "enter")
            await pilot.pause()
            assert box.has_class("-hidden") and isinstance(app.focused, FindingsList)
            assert app.query_one(FindingsList).text_filter == "C0" and not app.list_query
            await pilot.press("x", "escape")
            await pilot.pause()
            assert box.has_class("-hidden") and isinstance(app.focused, FindingsList)
    finally:
        proxy.stop()
