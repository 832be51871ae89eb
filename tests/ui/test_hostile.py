"""A capture cannot drive your terminal (issue 24, item 1): hostile captures of every dialect
(escape sequences, C1 controls, bidi overrides and markup in every field: ``tests/hostile.py``)
opened in every screen, and the bytes the app writes to its driver hold none of them.

Pilot's driver writes nothing, so it is made to record what the app writes (the same
``CompositorUpdate`` text a terminal would receive)."""
from __future__ import annotations

import pytest
from textual.drivers.headless_driver import HeadlessDriver

from inspector.compare.diff import diff_captures
from inspector.tui.app import make_app
from inspector.tui.screens.compare import make_compare_app
from inspector.tui.screens.diff import make_diff_app
from inspector.tui.screens.exchanges import ExchangeDetailScreen
from tests.hostile import BODIES, FORBIDDEN, write_all
from tests.ui.conftest import settle
from tests.ui.test_sizes import _feed_exchange, _proxy_app

SIZE = (160, 50)


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    return write_all(tmp_path_factory.mktemp("hostile"))


@pytest.fixture
def terminal(monkeypatch):
    """What the app writes to its terminal, as one string per write."""
    written: list[str] = []
    monkeypatch.setattr(HeadlessDriver, "is_headless", property(lambda self: False))
    monkeypatch.setattr(HeadlessDriver, "write", lambda self, data: written.append(data))
    return written


def _clean(written: list[str], where: str) -> str:
    out = "".join(written)
    assert out, f"{where}: nothing was written (the recording driver is not in use)"
    found = [f for f in FORBIDDEN if f in out]
    assert not found, f"{where}: {found!r} reached the terminal"
    return out


async def _visit(pilot, keys: list[str], written, where: str) -> None:
    await pilot.press(*keys)
    await pilot.pause()
    pilot.app.refresh_now() if hasattr(pilot.app, "refresh_now") else None
    await pilot.pause()
    _clean(written, f"{where} after {keys}")


@pytest.mark.parametrize("dialect", list(BODIES))
async def test_replay_screens_write_nothing_from_the_data(hostile, dialect, terminal):
    app = make_app(hostile[dialect], stall_s=0.05)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        out = _clean(terminal, dialect)
        assert "\\x1b]52;c;" in out  # the hostile text is on screen, escaped
        for keys in (["j"], ["j"], ["2", "i"], ["escape"], ["2", "down", "down", "i"], ["escape"], ["t"],
                     ["escape"], ["question_mark"], ["escape"], ["3", "end", "up", "enter"], ["r"], ["escape"], ["3", "home", "enter"],
                     ["r"], ["escape"], ["slash", "e"],
                     ["escape"], ["z"], ["z"], ["x", "e", "enter"], ["escape"], ["g"], ["escape"], ["s"],
                     ["escape"], ["ctrl+p"], ["escape"]):
            await _visit(pilot, keys, terminal, dialect)


async def test_compare_and_diff_screens_write_nothing_from_the_data(hostile, terminal):
    app = make_compare_app(hostile["anthropic"], hostile["openai-chat"], cursor=0.3)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        out = _clean(terminal, "compare")
        assert "toolname:" in out
        await _visit(pilot, ["right", "down", "j"], terminal, "compare")
    terminal.clear()
    diff = diff_captures(str(hostile["anthropic"]), str(hostile["openai-chat"]))
    app = make_diff_app(diff)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        out = _clean(terminal, "diff")
        assert "\\x1b]52;c;" in out
        await _visit(pilot, ["n", "n"], terminal, "diff")


async def test_proxy_screens_write_nothing_from_the_data(hostile, terminal, monkeypatch):
    app = _proxy_app(monkeypatch)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for n, dialect in enumerate(BODIES, start=1):
            _, _, path = BODIES[dialect]
            _feed_exchange(app.proxy.log, n, hostile[dialect], path + "?\x1b]52;c;SElKQUNL\x07\u202e")
        app._sync_list()
        for _ in range(3):
            await pilot.pause()
            app.refresh_now()
        _clean(terminal, "proxy list")
        for n in range(1, len(BODIES) + 1):
            app.push_screen(ExchangeDetailScreen(app.proxy.log.by_n[n]))
            await pilot.pause()
            await _visit(pilot, ["escape"], terminal, f"exchange {n}")


async def test_explain_and_pretty_arguments_on_deep_nesting_keep_the_app_up(tmp_path):
    """Issue 24, item 3: the explain screen on an event nested 5 000 deep, and pretty arguments
    nested 1 000 deep, show the text; the app does not crash."""
    from inspector.tui.screens.finding_detail import FindingDetailScreen
    from tests.unit.test_depth import _anthropic, _nested, _tool

    deep_event = tmp_path / "deep-event.sse"
    deep_event.write_bytes(_anthropic('{"type": "ping", "x": ' + _nested(5_000) + "}"))
    deep_args = tmp_path / "deep-args.sse"
    deep_args.write_bytes(_tool('{"a": ' + _nested(1_000) + "}"))
    for path, code in ((deep_event, "S019"), (deep_args, "S019")):
        app = make_app(path)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            assert [f.code for f in app.feed.session.findings] == [code]
            await pilot.press("2", "i")
            await pilot.pause()
            assert isinstance(app.screen, FindingDetailScreen)
            await pilot.press("escape", "j")
            await settle(pilot)
            await pilot.press("j", "3", "end", "enter")
            await settle(pilot)
        assert app._exception is None and app.return_code in (0, None)
