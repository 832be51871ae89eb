"""Shared helpers for the TUI tests: bundled captures and a way to let the app settle."""
from __future__ import annotations

from pathlib import Path

import pytest

from inspector.capture.load import load_path
from inspector.feeds.replay import Playback
from inspector.tui.widgets.findings_list import FindingsList

ROOT = Path(__file__).resolve().parents[2]
CAPTURES = ROOT / "inspector" / "data" / "captures"
CLEAN = CAPTURES / "1-anthropic-tool-call.jsonl"
VIOLATIONS = CAPTURES / "2-anthropic-stall-and-early-stop.jsonl"
PARALLEL = CAPTURES / "3-openai-parallel-tool-calls.jsonl"
QUIRKS = CAPTURES / "4-openai-compatible-quirks.jsonl"


def playback(path: Path, **kw) -> Playback:
    return Playback(load_path(path), label=path.name, **kw)


async def settle(pilot) -> None:
    """Wait for the feed worker, then bring every widget up to date and let the screen lay out."""
    app = pilot.app
    await app.workers.wait_for_complete()
    await pilot.pause()
    app.refresh_now()
    await pilot.pause()


@pytest.fixture
def violations():
    return playback(VIOLATIONS, instant=True)


def highlight_finding(app, code: str) -> int:
    """Focus the findings list and highlight the first finding with ``code``; its position."""
    findings = app.query_one(FindingsList)
    findings.focus()
    pos = next(i for i, f in enumerate(app.feed.session.findings) if f.code == code)
    findings.highlighted = findings.get_option_index(str(pos))
    return pos


async def explain(pilot, code: str) -> list:
    """Open the explain screen (``i``) on the first finding with ``code``; its rendered Markdown blocks."""
    from textual.widgets import Markdown

    from inspector.tui.screens.finding_detail import FindingDetailScreen

    highlight_finding(pilot.app, code)
    await pilot.press("i")
    await pilot.pause()
    assert isinstance(pilot.app.screen, FindingDetailScreen)
    return [w for w in pilot.app.screen.query("Markdown *") if not isinstance(w, Markdown)]
