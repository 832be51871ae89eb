"""The footer is one widget redrawn only when the keys it shows change, and the main screen is styled
once at start (issue 16: Textual's footer composes a widget per key again on every change of focus,
twice while the inspector starts, and Textual restyles every widget when a screen gets its
breakpoint classes)."""
from __future__ import annotations

from textual import events

from inspector.tui.app import make_app
from inspector.tui.layout import FittedFooter
from inspector.tui.screens.timeline import TimelineScreen
from inspector.tui.widgets.event_log import EventLog
from inspector.tui.widgets.findings_list import FindingsList
from tests.ui.conftest import VIOLATIONS, playback, settle


def _line(app) -> str:
    return app.query_one(FittedFooter).render_line(0).text


def _x(app, text: str) -> int:
    """The column of ``text`` in the footer line."""
    at = _line(app).index(text)
    assert at >= 0
    return at


async def test_the_footer_is_one_widget_redrawn_only_when_its_keys_change():
    app = make_app(playback(VIOLATIONS), paused=True)
    async with app.run_test(size=(150, 44)) as pilot:
        await settle(pilot)
        footer = app.query_one(FittedFooter)
        assert not footer.children  # no widget per key to compose, style and lay out
        assert "v Severity" in _line(app)  # the findings list has the focus
        redrawn: list[bool] = []
        original = footer.refresh

        def counted(*args, **kwargs):
            redrawn.append(True)
            return original(*args, **kwargs)

        footer.refresh = counted
        for _ in range(3):  # asked again and again with the same keys: nothing to do
            app.screen.refresh_bindings()
        await pilot.pause()
        await pilot.pause()
        assert redrawn == []
        app.query_one(EventLog).focus()  # other keys (enter: the event in detail; no severity)
        await pilot.pause()
        await pilot.pause()
        assert redrawn and "⏎ Detail" in _line(app) and "Severity" not in _line(app)
        app.query_one(FindingsList).focus()
        await pilot.pause()
        await pilot.pause()
        assert "v Severity" in _line(app)


async def test_footer_keys_are_compact_below_the_breakpoint_and_padded_above_it():
    for size, compact in (((80, 24), True), ((150, 44), False)):
        app = make_app(playback(VIOLATIONS), paused=True)
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            footer = app.query_one(FittedFooter)
            line = _line(app)
            assert footer.compact is compact and footer.has_class("-compact") is compact
            assert len(line) == size[0]
            # help, quit and the palette key docked on the right at any width
            if compact:  # no padding, one cell between keys, the palette key without its word
                assert line.startswith("v Severity space Pause") and "palette" not in line
                assert line.endswith("▏? Help ▏q Quit ▏^p ")
            else:
                assert line.startswith(" v Severity  space Pause ")
                assert line.endswith("▏? Help ▏q Quit ▏^p palette ")


async def test_clicking_a_footer_key_presses_it_and_hovering_shows_its_tooltip():
    app = make_app(playback(VIOLATIONS), paused=True)
    async with app.run_test(size=(150, 44)) as pilot:
        await settle(pilot)
        footer = app.query_one(FittedFooter)
        x = _x(app, "t Timeline") + 1
        await pilot.hover(FittedFooter, offset=(x, 0))
        await pilot.pause()
        timeline = next(a for a in app.screen.active_bindings.values() if a.binding.action == "timeline")
        assert timeline.tooltip and footer.tooltip == timeline.tooltip
        await pilot.click(FittedFooter, offset=(x, 0))
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, TimelineScreen)
        assert "t Timeline" not in _line(app)  # the timeline's own keys now


async def test_the_mouse_wheel_scrolls_keys_that_do_not_fit():
    app = make_app(playback(VIOLATIONS), paused=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        before = _line(app)
        assert "/ Search" not in before  # left out at 80 columns
        for _ in range(10):
            await pilot._post_mouse_events([events.MouseScrollDown], FittedFooter, offset=(5, 0))
        await pilot.pause()
        after = _line(app)
        assert "/ Search" in after and not after.startswith("v Severity")
        assert after.endswith("▏? Help ▏q Quit ▏^p ")  # the docked keys do not scroll
        for _ in range(10):
            await pilot._post_mouse_events([events.MouseScrollUp], FittedFooter, offset=(5, 0))
        await pilot.pause()
        assert _line(app) == before


def test_breakpoint_classes_are_textual_s_own():
    from textual.geometry import Size
    from textual.screen import Screen

    from inspector.tui.layout import HORIZONTAL_BREAKPOINTS, VERTICAL_BREAKPOINTS, breakpoint_classes

    screen = Screen()
    for width in range(1, 260, 7):
        for height in (1, 23, 24, 35, 36, 37, 80):
            on = {name for name, set_ in breakpoint_classes(Size(width, height)).items() if set_}
            assert on == (screen._get_breakpoint_classes(width, HORIZONTAL_BREAKPOINTS)
                          | screen._get_breakpoint_classes(height, VERTICAL_BREAKPOINTS))


async def test_the_main_screen_is_not_restyled_by_its_first_resize():
    for size in ((80, 24), (150, 44), (200, 60)):
        app = make_app(playback(VIOLATIONS), paused=True)
        changed: list[tuple] = []
        default_screen = app.get_default_screen

        def screen():
            s = default_screen()
            update = s.update_classes

            def watched(classes, *args, **kwargs):
                before = s.classes
                update(classes, *args, **kwargs)
                if s.classes != before:  # a change of class restyles every widget of the screen
                    changed.append((before, s.classes))
                return s

            s.update_classes = watched
            return s

        app.get_default_screen = screen
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            assert app.screen.has_class("-narrow" if size[0] < 110 else "-medium" if size[0] < 170 else "-wide")
        assert changed == [], size


async def test_the_stylesheet_is_parsed_once_with_the_chosen_theme_and_a_theme_change_reparses_it(monkeypatch):
    from textual.css.stylesheet import Stylesheet

    reparsed: list[bool] = []
    original = Stylesheet.reparse

    def counted(self):
        reparsed.append(True)
        return original(self)

    monkeypatch.setattr(Stylesheet, "reparse", counted)
    app = make_app(playback(VIOLATIONS), paused=True, theme="light")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert reparsed == []
        background = app.screen.styles.background
        assert background == app.current_theme.to_color_system().background  # the light theme's
        keys = [seg.style for seg in app.query_one(FittedFooter).render_line(0)]
        await pilot.press("ctrl+t")
        await settle(pilot)
        assert reparsed and app.theme != "inspector-light"
        assert app.screen.styles.background != background
        assert [seg.style for seg in app.query_one(FittedFooter).render_line(0)] != keys  # the keys recoloured


async def test_footer_keys_with_wide_characters_keep_their_columns():
    from rich.cells import cell_len
    from textual.app import App
    from textual.binding import Binding

    class Wide(App):
        BINDINGS = [Binding("a", "pick('a')", "漢字の説明"), Binding("b", "pick('b')", "次"),
                    Binding("c", "pick('c')", "🙂 smile")]
        picked: list[str] = []

        def compose(self):
            yield FittedFooter()

        def action_pick(self, what: str) -> None:
            self.picked.append(what)

    app = Wide()
    async with app.run_test(size=(60, 5)) as pilot:
        await pilot.pause()
        footer = app.query_one(FittedFooter)
        line = footer.render_line(0)
        assert line.cell_length == 60 and cell_len(line.text) == 60
        text = line.text
        b_at = cell_len(text[:text.index("b 次")])  # the column where "b" is drawn
        await pilot.click(FittedFooter, offset=(b_at, 0))
        c_at = cell_len(text[:text.index("c 🙂")])
        await pilot.click(FittedFooter, offset=(c_at + 2, 0))
        await pilot.pause()
        assert app.picked == ["b", "c"]
