"""The block detail's text (``ArgumentView``) never shows a key: a key-shaped string in a tool
call's arguments or a block's text is drawn masked (``sk-ant-[redacted]***…``) where it is written,
also when the stream sends it in two deltas, when it is longer than a line (it straddles a wrap),
and when its characters are written as JSON ``\\u`` escapes; at the smallest and largest sizes."""
from __future__ import annotations

import random

import pytest

from inspector.capture.load import load_bytes
from inspector.capture.redact import secret_spans
from inspector.tui.app import make_app
from inspector.tui.widgets.argument_view import ArgumentView, find_secrets
from tests.helpers import sse
from tests.ui.conftest import settle
from tests.ui.test_sizes import _screen_text

_rng = random.Random(7)
BODY = "".join(_rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghjkmnpqrstuvwxyz23456789") for _ in range(95))
KEY = "sk-ant-api03-" + BODY  # an Anthropic key's length (108 characters): longer than an 80-column line
ESCAPED = "sk-\\u0061nt-api03-" + BODY[::-1]
"""A key whose ``a`` is written as a JSON escape (RFC 8259 §7 allows escaping any character)."""


def _tool_call(fragments: list[str]) -> bytes:
    events = [{"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant",
                                                    "model": "claude-x", "content": [], "usage": {"input_tokens": 1}}},
              {"type": "content_block_start", "index": 0,
               "content_block": {"type": "tool_use", "id": "toolu_1", "name": "save", "input": {}}}]
    events += [{"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": f}}
               for f in fragments]
    events += [{"type": "content_block_stop", "index": 0},
               {"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 3}},
               {"type": "message_stop"}]
    return sse(*events)


# No spaces: the arguments are one word, so the key starts mid-line and is cut by the wrap.
FRAGMENTS = ['{"path":"notes.txt","token":"', KEY[:21], KEY[21:], '","escaped":"', ESCAPED[:9], ESCAPED[9:], '"}']


def _leaks(screen: str) -> list[str]:
    """Any 10 characters of either key's secret part that the screen shows (a line may cut a key)."""
    secret = [BODY, BODY[::-1]]
    flat = screen.replace("\n", "")
    return [s[i:i + 10] for s in secret for i in range(len(s) - 9) if s[i:i + 10] in flat or s[i:i + 10] in screen]


@pytest.mark.parametrize("size", [(80, 24), (200, 60)], ids=["80x24", "200x60"])
async def test_a_key_split_over_two_deltas_and_a_wrapped_line_is_masked_in_the_block_detail(size):
    app = make_app(load_bytes(_tool_call(FRAGMENTS)))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        view = app.query_one(ArgumentView)
        text = view._text
        assert KEY in text and ESCAPED in text  # the view holds the arguments as they came
        start = text.index(KEY)
        # The key is longer than a line: the wrap cuts it (the case where a per-line scan misses it).
        assert any(a < start + 40 < b or start < a < start + len(KEY) for a, b in view._spans if b - a)
        screen = _screen_text(app)
        assert _leaks(screen) == []
        assert "sk-ant-[redacted]" in screen.replace("\n", "") or "sk-ant-[redac" in screen
        assert screen.count("[redacted]") + screen.count("[redac") >= 2  # both keys, the escaped one too


async def test_a_key_growing_delta_by_delta_is_never_shown():
    """Stepping through the call one event at a time: at no frame is a part of the key shown (its
    first part is masked while the block is open, before the next delta completes it)."""
    body = "".join(_rng.choice("abcdefghijkmnpqrstuvwxyz0123456789") for _ in range(48))
    key = "sk-proj-" + body  # an OpenAI project key: its first 20 characters are not yet a whole key
    fragments = ['{"k": "', key[:12], key[12:30], key[30:], '"}']
    app = make_app(load_bytes(_tool_call(fragments)), paused=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        shown = []
        for _ in range(len(fragments) + 4):
            await pilot.press(".")
            await settle(pilot)
            shown.append(_screen_text(app))
        assert any("[redacted]" in s for s in shown)
        for screen in shown:
            assert not any(body[i:i + 6] in screen for i in range(len(body) - 5)), screen


def test_the_secrets_found_as_text_arrives_are_those_of_the_whole_text():
    """``find_secrets`` reads again only the tail a new fragment can change: fed in pieces of any
    size, it ends with what one scan of the whole text finds."""
    text = ("x" * 700 + " key " + KEY + " and " + ESCAPED + " then Bearer " + BODY[:30] + " " + "y" * 900
            + '"' + KEY[::-1] + '" sk-ant-api03-' + BODY[:20])
    for seed in range(20):
        rng = random.Random(seed)
        found: list = []
        old = 0
        while old < len(text):
            seen = min(len(text), old + rng.choice((1, 3, 7, 40, 300, 900)))
            found = find_secrets(text[:seen], found, old, False)
            old = seen
        assert found == secret_spans(text), seed


@pytest.mark.parametrize("size", [(80, 24), (200, 60)], ids=["80x24", "200x60"])
async def test_no_screen_and_no_copy_shows_a_key_wherever_the_stream_put_it(size):
    """``tests.keyed_capture``: keys as a tool name, an id, a ``stop_reason``, in thinking, text,
    arguments, an error, a value a schema violation quotes. Every block's detail (raw and pretty),
    every finding's explain screen, every event's detail, and what ``y`` copies from each."""
    from inspector.tui.widgets.block_list import BlockList
    from inspector.tui.widgets.event_log import EventLog
    from inspector.tui.widgets.findings_list import FindingsList
    from tests.keyed_capture import keyed_capture, leaked

    text, secret = keyed_capture()
    app = make_app(load_bytes(text.encode()))
    copied: list[str] = []
    app.copy_to_clipboard = copied.append
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        seen = {"main": _screen_text(app)}
        app.query_one(BlockList).focus()
        for k in range(len(app.feed.session.blocks)):
            await pilot.press("down" if k else "home")
            await settle(pilot)
            seen[f"block {k}"] = _screen_text(app)
            await pilot.press("y", "j")
            await settle(pilot)
            seen[f"block {k} pretty"] = _screen_text(app)
            await pilot.press("j")
        app.query_one(FindingsList).focus()
        for k, f in enumerate(app.feed.session.findings):
            await pilot.press("down" if k else "home", "y", "i")
            await settle(pilot)
            seen[f"finding {f.code} explained"] = _screen_text(app)
            await pilot.press("escape")
        log = app.query_one(EventLog)
        log.focus()
        for i in range(len(app.feed.session.events)):
            log.center_on(i)
            log.pointer = i
            await pilot.press("y", "enter")
            await settle(pilot)
            seen[f"event {i} detail"] = _screen_text(app)
            await pilot.press("escape")
        assert len(copied) >= len(app.feed.session.blocks) + len(app.feed.session.events)
        seen.update({f"copy {i}": c for i, c in enumerate(copied)})
        assert "[redacted]" in seen["block 2"]
        assert {where: leaked(shown, secret) for where, shown in seen.items() if leaked(shown, secret)} == {}
