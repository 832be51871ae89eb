"""Every shared corpus capture, every Bedrock case (binary event-stream) and garbage opens in the TUI
without an error: one app, cycled with ``]``."""
from __future__ import annotations


from inspector.capture.load import load_bytes
from inspector.feeds.replay import Playback
from inspector.tui.app import make_app
from inspector.tui.widgets.event_log import EventLog
from inspector.tui.widgets.findings_list import FindingsList
from tests.conftest import BEDROCK_CORPUS, SHARED_CORPUS
from tests.ui.conftest import settle

GARBAGE = bytes(range(256)) * 8 + b"\xff\xfe data: {oops\n\n"


def _feeds():
    feeds = []
    paths = sorted(SHARED_CORPUS.iterdir())
    paths += sorted(p for p in BEDROCK_CORPUS.iterdir() if p.suffix in (".jsonl", ".bin"))
    for p in paths:
        if not p.name.endswith(".expect.json"):
            feeds.append(Playback(load_bytes(p.read_bytes(), name=p.name), instant=True, label=p.name))
    feeds.append(Playback(load_bytes(GARBAGE, name="garbage"), instant=True, label="garbage"))
    return feeds


async def test_every_corpus_capture_renders():
    feeds = _feeds()
    app = make_app(*feeds)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        for i, feed in enumerate(feeds):
            await app.workers.wait_for_complete()
            app.refresh_now()
            assert app.feed is feed and feed.finished, feed.label
            assert app.shown_blocks == feed.session.blocks, feed.label
            assert app.query_one(FindingsList).option_count == len(feed.session.findings), feed.label
            assert app.query_one(EventLog).count == len(feed.session.events), feed.label
            app.pretty = i % 2 == 1  # half of them in the pretty partial-JSON view
            app.refresh_now()
            if i + 1 < len(feeds):
                app.action_next_source()
        await pilot.press("t")  # the timeline of the last one (garbage: no blocks, no times)
        await pilot.pause()
        app.refresh_now()
