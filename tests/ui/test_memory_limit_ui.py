"""``replay`` under the memory limit (``--max-memory``; ``tests/unit/test_memory_limit.py`` for the rest):
a capture that takes the process over it ends the TUI with one line and exit 2, never a traceback;
beside other streams, only that one is dropped. The RSS reading is a fixed figure here."""
from __future__ import annotations

import json

import pytest

from inspector.capture import memory
from inspector.cli import main, replay
from inspector.feeds.opening import OpeningFeed
from inspector.tui.app import make_app
from tests.ui.test_open_save import SIZE, wait_until
from tests.unit.test_memory_limit import GIB, answer

pytestmark = pytest.mark.usefixtures("over")


@pytest.fixture
def over(monkeypatch):
    """10 GiB in use, but at the first reading (the native reader's estimate, before its lines are
    split): the file opens, and playing it goes over."""
    readings = iter([0])
    monkeypatch.setattr(memory, "rss", lambda: next(readings, 10 * GIB))


@pytest.fixture
def native(tmp_path):
    """A native capture of three large records: read at once (few records), over the limit once played."""
    p = tmp_path / "big.jsonl"
    body = answer(10_000).decode()
    third = len(body) // 3
    head = {"format": "stream-inspector-capture", "version": 1, "request": None, "response": None}
    records = [{"t": 0.1 * (i + 1), "data": body[i * third:(i + 1) * third if i < 2 else None]} for i in range(3)]
    p.write_text("\n".join(json.dumps(r) for r in [head, *records]) + "\n")
    return p


@pytest.mark.parametrize("instant", [True, False])
async def test_a_replay_over_the_limit_ends_the_app_with_one_line(native, instant):
    app = make_app(OpeningFeed(native, instant=instant, speed=1000.0))
    with memory.limited(GIB):
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: app.failure is not None, "the failure")
    assert app.failure.startswith("big.jsonl: over the memory limit: 10 GiB in use") and app.return_code == 2


async def test_beside_another_stream_only_the_one_over_the_limit_is_dropped(native, tmp_path):
    small = tmp_path / "small.sse"
    small.write_bytes(answer(3))
    app = make_app(OpeningFeed(native, instant=True), OpeningFeed(small, instant=True))
    with memory.limited(GIB):
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: len(app.feeds) == 1, "the stream dropped")
            assert app.failure is None and app.feeds[0].label == "small.sse"


def test_replay_without_a_terminal_says_the_limit_in_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(replay, "terminal_problem", lambda: "no terminal")
    p = tmp_path / "unknown.sse"
    p.write_bytes(b"data:{}\n\n" * 120_000)  # no event names a dialect: read to its end to judge it
    assert main(["replay", "--max-memory", "1G", str(p)]) == 2
    assert capsys.readouterr().err == (f"stream-inspector: {p}: over the memory limit: 10 GiB in use with part of it "
                                       "read, more than reading may take (50 % of the 1 GiB limit; --max-memory "
                                       "raises it)\n")
