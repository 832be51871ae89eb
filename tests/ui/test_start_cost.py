"""The footer recomposes only when the keys it shows change, and the main screen is styled once at
start (issue 16: Textual rebuilds the footer on every change of focus, three times while the
inspector starts, and restyles every widget when a screen gets its breakpoint classes)."""
from __future__ import annotations

from textual.widgets._footer import FooterKey

from inspector.tui.app import make_app
from inspector.tui.layout import FittedFooter
from inspector.tui.widgets.event_log import EventLog
from inspector.tui.widgets.findings_list import FindingsList
from tests.ui.conftest import VIOLATIONS, playback, settle


def _keys(app) -> set[str]:
    return {k.description for k in app.query_one(FittedFooter).query(FooterKey)}


async def test_the_footer_recomposes_once_and_only_when_its_keys_change():
    app = make_app(playback(VIOLATIONS), paused=True)
    async with app.run_test(size=(150, 44)) as pilot:
        await settle(pilot)
        footer = app.query_one(FittedFooter)
        assert "Severity" in _keys(app)  # the findings list has the focus
        recomposed: list[bool] = []
        original = footer.recompose

        async def counted() -> None:
            recomposed.append(True)
            await original()

        footer.recompose = counted
        for _ in range(3):  # asked again and again with the same keys: nothing to do
            app.screen.refresh_bindings()
        await pilot.pause()
        await pilot.pause()
        assert recomposed == []
        app.query_one(EventLog).focus()  # other keys (enter: show block; no severity)
        app.screen.refresh_bindings()
        await pilot.pause()
        await pilot.pause()
        assert recomposed == [True]
        assert "Show block" in _keys(app) and "Severity" not in _keys(app)
        app.query_one(FindingsList).focus()
        await pilot.pause()
        await pilot.pause()
        assert recomposed == [True, True] and "Severity" in _keys(app)


async def test_footer_keys_have_the_footer_s_style_below_and_above_the_breakpoint():
    for size, compact in (((80, 24), True), ((150, 44), False)):
        app = make_app(playback(VIOLATIONS), paused=True)
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            footer = app.query_one(FittedFooter)
            keys = list(footer.query(FooterKey))
            assert keys and footer.compact is compact
            assert all(k.compact is compact and k.has_class("-compact") is compact
                       for k in keys if not k.has_class("-command-palette"))


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
