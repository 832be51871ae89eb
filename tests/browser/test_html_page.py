"""The exported HTML page in a real browser (issue 27 item 6): headless Chromium loads the page,
runs its script and shows the events table a page at a time; links to events, the pager and
the filter work; no script error; a screenshot is taken. Skipped when no Chromium can start
(``tests/browser/chromium.py`` says where it looks)."""
from __future__ import annotations

import pytest

from inspector.capture.load import load_path
from inspector.capture.recorder import write_capture
from inspector.feeds.run import run_capture
from inspector.report import html
from tests.browser.chromium import browser
from tests.conftest import ROOT
from tests.ui.capture_factory import big_capture

SMALL = ROOT / "inspector" / "data" / "captures" / "2-anthropic-stall-and-early-stop.jsonl"


@pytest.fixture(scope="module")
def chromium():
    with browser() as b:
        if b is None:
            pytest.skip("no headless Chromium here (apt install chromium, or playwright install chromium)")
        yield b


def _export(src, dst):
    cap = load_path(src)
    s = run_capture(cap)
    with open(dst, "w", encoding="utf-8") as f:
        html.write(f, str(src), s, cap)
    return s


@pytest.fixture
def page(chromium):
    p = chromium.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    yield p, errors
    p.close()


def test_a_small_page_shows_every_event_and_a_finding_links_to_its_event(page, tmp_path):
    p, errors = page
    s = _export(SMALL, tmp_path / "small.html")
    p.goto((tmp_path / "small.html").as_uri())
    p.wait_for_selector("tr.event")
    assert p.title() == f"{SMALL.name} · stream-inspector" and p.inner_text("h1") == SMALL.name
    assert p.locator("tr.event").count() == len(s.events)
    assert p.inner_text("#page-info").strip().startswith("page 1 of 1")
    finding = next(f for f in s.findings if f.event is not None)
    p.click(f'tr.finding[data-event="{finding.event}"] a')
    # the link's hashchange redraws the rows, the target marked "hit" (the row there before is replaced:
    # waiting for the id alone found it at once, and its summary, clicked, went with it)
    row = p.locator(f"#event-{finding.event}.hit")
    row.wait_for()
    assert row.is_visible()
    p.click(f"#event-{finding.event} summary")  # the data, written into the row when it opens ("toggle")
    pre = f"#event-{finding.event} pre"
    p.wait_for_function("sel => document.querySelector(sel).textContent !== ''", arg=pre)
    assert p.inner_text(pre) == s.events[finding.event].data
    shot = p.screenshot(full_page=True)
    (tmp_path / "small.png").write_bytes(shot)
    assert len(shot) > 20_000
    assert errors == []


def test_a_large_page_draws_one_page_of_rows_and_pages_filters_and_jumps(page, tmp_path):
    p, errors = page
    src = tmp_path / "big.jsonl"
    write_capture(big_capture(deltas=5_000), src)
    s = _export(src, tmp_path / "big.html")
    n = len(s.events)
    p.goto((tmp_path / "big.html").as_uri())
    p.wait_for_selector("tr.event")
    assert p.locator("tr.event").count() == html.PAGE_ROWS
    assert p.locator("#event-0").count() == 1 and p.locator(f"#event-{html.PAGE_ROWS}").count() == 0
    p.click("#next")  # rows are drawn once their batch is unpacked: wait for them
    p.wait_for_selector(f"#event-{html.PAGE_ROWS}")
    p.click("#last")
    p.wait_for_selector(f"#event-{n - 1}")
    p.fill("#filter", "message_stop")
    p.wait_for_function("document.querySelectorAll('tr.event').length === 1")
    assert "1 of" in p.inner_text("#page-info") and p.locator(f"#event-{n - 1}").count() == 1
    p.evaluate("location.hash = '#event-4321'")  # a link to an event the filter hides: the filter is cleared
    p.wait_for_selector("#event-4321")
    assert p.input_value("#filter") == "" and p.locator("tr.event").count() == html.PAGE_ROWS
    folded = p.locator("details.big")
    assert folded.count() >= 1 and not folded.first.evaluate("d => d.open")  # the long arguments, folded
    (tmp_path / "big.png").write_bytes(p.screenshot())
    assert errors == []
