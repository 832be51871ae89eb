"""Headless Chromium for the HTML export's page tests and bench (Playwright driving a Chromium
already on the machine: Debian's ``chromium`` package, or a browser ``playwright install``
fetched). ``browser()`` is None when neither is there: the tests that need one skip."""
from __future__ import annotations

import shutil
from contextlib import contextmanager

try:
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import sync_playwright
except ImportError:  # the dev dependency is missing: no browser
    sync_playwright = None  # type: ignore[assignment]
    PlaywrightError = Exception  # type: ignore[assignment,misc]

EXECUTABLES = ("chromium", "chromium-browser", "google-chrome")


def executable() -> str | None:
    """A Chromium on the PATH, or None (Playwright's own download is tried after it)."""
    return next((p for p in map(shutil.which, EXECUTABLES) if p), None)


@contextmanager
def browser():
    """A launched headless Chromium (Playwright ``Browser``), or None when none can start."""
    if sync_playwright is None:
        yield None
        return
    with sync_playwright() as p:
        b = None
        for path in (executable(), None):
            try:
                b = p.chromium.launch(executable_path=path, args=["--no-sandbox"]) if path else p.chromium.launch()
                break
            except PlaywrightError:
                continue
        try:
            yield b
        finally:
            if b is not None:
                b.close()


FIRST_ROWS = "document.querySelectorAll('tr.event').length > 0 ? performance.now() : null"
"""Evaluated until true: milliseconds from the navigation's start to the events table's first rows."""
