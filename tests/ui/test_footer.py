"""The footer recomposes only when the keys it shows change (issue 16: Textual's footer rebuilds
its keys on every change of focus, three times while the inspector starts)."""
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
