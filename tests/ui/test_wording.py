"""What the screen says when there is nothing to show (issue 12, wording): a rate-limited answer
names its HTTP status instead of "unknown" and "no content blocks yet"; a live stream waiting for
its first event says so instead of "▶ playing no event yet"."""
from __future__ import annotations

import asyncio


from inspector.feeds.live import LiveFeed
from inspector.model.capture import End, Head
from inspector.tui.app import make_app
from inspector.tui.widgets.playback_bar import PlaybackBar
from inspector.tui.widgets.stream_header import StreamHeader
from tests.conftest import SHARED_CORPUS
from tests.ui.conftest import playback, settle

RATE_LIMITED = SHARED_CORPUS / "http-429-json-body.jsonl"


async def test_a_429_answer_names_its_status_not_unknown():
    app = make_app(playback(RATE_LIMITED, instant=True))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        header = app.query_one(StreamHeader)
        for shown in (header.content.plain, header.render().plain):
            assert "HTTP 429" in shown and "unknown" not in shown and "stop —" not in shown
        blocks = app.query_one("#blocks").border_subtitle
        assert "HTTP 429" in blocks and "yet" not in blocks
        assert "no event yet" not in app.query_one(PlaybackBar).render().plain


async def test_a_live_stream_waiting_for_its_first_event_says_so():
    release = asyncio.Event()

    async def source():
        yield Head(200, {"content-type": "text/event-stream"}, None)
        await release.wait()
        yield End(0.1, "eof")

    app = make_app(LiveFeed(source, label="live"))
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause(0.1)
        app.refresh_now()
        await pilot.pause()
        bar = app.query_one(PlaybackBar).render().plain
        assert "● live" in bar and "waiting for the first event" in bar and "playing" not in bar
        release.set()
        for _ in range(100):
            await pilot.pause(0.02)
            if app.feed.finished:
                break
        app.refresh_now()
        await pilot.pause()
        bar = app.query_one(PlaybackBar).render().plain
        assert "■ ended" in bar and "no events" in bar
        assert app.query_one("#blocks").border_subtitle == "no content blocks"
