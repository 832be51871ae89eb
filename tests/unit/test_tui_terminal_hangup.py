"""``tui.terminal``: the TUI's screen output survives a terminal that hung up.

Textual's writer thread (``drivers/_writer_thread.py``) died on the first write that failed (EIO,
the terminal closed) and, once its queue of 30 writes was full, the app blocked on the next write
for good: a TUI kept alive by ``nohup`` after its terminal closed never left on a later SIGTERM.
"""
from __future__ import annotations

import errno
import sys
import threading

import pytest

pytest.importorskip("textual")

from textual.app import App  # noqa: E402
from textual.drivers._writer_thread import WriterThread  # noqa: E402

from inspector.tui.terminal import TerminalApp  # noqa: E402


class HungUp:
    """A terminal that hung up: every write and flush fails with EIO."""

    def __init__(self) -> None:
        self.tries = 0

    def write(self, text: str) -> int:
        self.tries += 1
        raise OSError(errno.EIO, "Input/output error")

    def flush(self) -> None:
        raise OSError(errno.EIO, "Input/output error")

    def fileno(self) -> int:
        return 2


class Tui(TerminalApp, App[None]):
    pass


async def test_the_screen_output_of_a_hung_up_terminal_never_blocks_the_app(monkeypatch):
    terminal = HungUp()
    monkeypatch.setattr(sys, "__stderr__", terminal)  # what Textual's driver draws on
    driver = Tui().driver_class(Tui(), debug=False, mouse=False, size=(80, 24))
    writer = WriterThread(driver._file)
    writer.start()
    done = threading.Event()

    def draw_then_leave() -> None:
        for frame in range(100):  # far more than the writer's queue holds
            writer.write(f"frame {frame}")
        writer.stop()
        done.set()

    threading.Thread(target=draw_then_leave, daemon=True).start()
    assert done.wait(10.0), "the app blocked writing to a terminal that hung up"
    assert terminal.tries == 1  # the first failure said it is gone: nothing more is tried
