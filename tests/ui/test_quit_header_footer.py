"""Issue 27 item 4 and the footer of item 2: Ctrl+C quits every viewer (the proxy asks while
exchanges are in flight), TTFB and TTFC in the header, the save dialog's words, a focus key
followed at once by ``z``, and the footer keeping help, quit and the palette key at 80 columns."""
from __future__ import annotations

from inspector.capture.bundled import bundled_pair
from inspector.model.capture import Capture, Chunk, End
from inspector.net.proxy.server import ProxyThread
from inspector.tui.app import make_app
from inspector.tui.copy_save import save_summary
from inspector.tui.layout import FittedFooter
from inspector.tui.screens.compare import make_compare_app
from inspector.tui.screens.exchanges import ProxyApp
from inspector.tui.widgets.stream_header import StreamHeader
from tests.ui.conftest import VIOLATIONS, playback, settle


async def test_ctrl_c_quits_the_inspector_at_once_even_from_the_search_box():
    app = make_app(playback(VIOLATIONS, instant=True))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("3", "slash")  # the search box has the focus (its own ctrl+c copies)
        await pilot.pause()
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert app._exit


async def test_ctrl_c_quits_the_compare_viewer():
    a, b = bundled_pair()
    app = make_compare_app(a, b, cursor=6.0)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert app._exit


async def test_the_proxy_asks_before_ctrl_c_only_while_an_exchange_is_in_flight():
    proxy = ProxyThread("http://127.0.0.1:9", external=True)
    app = ProxyApp(proxy, listen_url="http://127.0.0.1:8787", upstream="http://127.0.0.1:9")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        proxy.log._open = 1  # one exchange still streaming through the proxy
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert not app._exit
        assert any("still in flight" in n.message for n in app._notifications)
        await pilot.press("ctrl+c")  # confirmed
        await pilot.pause()
        assert app._exit


async def test_the_proxy_quits_at_once_when_nothing_is_in_flight():
    proxy = ProxyThread("http://127.0.0.1:9", external=True)
    app = ProxyApp(proxy, listen_url="http://127.0.0.1:8787", upstream="http://127.0.0.1:9")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert app._exit


async def test_the_header_shows_ttfb_and_ttfc():
    pb = playback(VIOLATIONS, instant=True)
    app = make_app(pb)
    async with app.run_test(size=(200, 40)) as pilot:
        await settle(pilot)
        s = pb.session
        text = app.query_one(StreamHeader).render().plain
        assert f"TTFB {s.ttfb_s:.2f} s" in text and f"TTFC {s.ttfc_s:.2f} s" in text
        assert s.ttfb_s < s.ttfc_s  # two different moments, each named


def test_the_save_dialog_counts_chunks_in_words_and_knows_a_replay_is_complete():
    one = Capture(chunks=[Chunk(0.1, b"data: {}\n\n")], end=None)
    assert save_summary(one, still_arriving=False) == "1 chunk (complete)"
    assert save_summary(one, still_arriving=True) == "1 chunk (so far, still arriving)"
    two = Capture(chunks=[Chunk(0.1, b"a"), Chunk(0.2, b"b")], end=End(0.3, "eof"))
    assert save_summary(two, still_arriving=True) == "2 chunks (complete)"


async def test_a_focus_key_followed_at_once_by_z_maximises_that_pane():
    app = make_app(playback(VIOLATIONS, instant=True))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        app.action_focus_pane("log")
        app.action_maximize_pane()  # no refresh in between: the keys arrived together
        await pilot.pause()
        assert app.screen.maximized is app.query_one("#log-pane")


async def test_the_80_column_footer_keeps_help_quit_and_the_palette_key():
    app = make_app(playback(VIOLATIONS, instant=True))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        footer = app.query_one(FittedFooter)
        text = footer.render_line(0).text
        assert "? Help" in text and "q Quit" in text and "^p" in text
        assert text.rstrip().endswith("^p")  # docked on the right, after every other key


def test_help_lists_ctrl_c():
    from inspector.tui.quitting import INTERRUPT

    app = make_app(playback(VIOLATIONS, instant=True))
    rows = dict(app.help_groups()[0][1])
    assert rows["ctrl+c"] == INTERRUPT.tooltip and "proxy asks" in INTERRUPT.tooltip
