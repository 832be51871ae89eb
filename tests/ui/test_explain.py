"""Explain (``i``): the rule in the user's terms, rendered Markdown, and a word when there is nothing to explain."""
from __future__ import annotations

from inspector.tui.app import make_app
from inspector.tui.screens.finding_detail import FindingDetailScreen
from tests.ui.conftest import CLEAN, QUIRKS, VIOLATIONS, explain, playback, settle

SIZE = (150, 44)


async def test_explain_renders_the_user_text_as_markdown():
    pb = playback(VIOLATIONS, instant=True)
    app = make_app(pb)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        blocks = await explain(pilot, "J002")
        headings = [str(w.render()) for w in blocks if type(w).__name__ == "MarkdownH3"]
        assert headings == ["What happened", "Why it breaks clients", "What to do", "The exact rule"]
        text = " ".join(str(w.render()) for w in blocks)
        assert "**" not in text and "`" not in text  # rendered, not shown raw
        assert "stop_reason" in text and "the inspector must" not in text.lower()
        await pilot.press("escape")
        assert not isinstance(app.screen, FindingDetailScreen)


async def test_i_without_findings_says_so():
    app = make_app(playback(CLEAN, instant=True))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("i")
        await pilot.pause()
        assert not isinstance(app.screen, FindingDetailScreen)
        assert any("no findings" in n.message for n in app._notifications)


async def test_i_when_the_filter_hides_every_finding_says_so():
    app = make_app(playback(QUIRKS, instant=True))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("x", *"no-such-code", "enter", "i")
        await pilot.pause()
        assert not isinstance(app.screen, FindingDetailScreen)
        assert any("filter hides all" in n.message for n in app._notifications)
