"""Standard error made safe for a terminal, for every message of every command.

Why it exists: the messages on stderr quote file names, URLs, a server's or a client's words and
a capture's text: all text from outside. Written raw, an ESC/CSI/OSC sequence in any of them moves
the cursor, clears the screen or writes the clipboard (``inspector.model.display``). Escaping each
message where it is made missed some (``serve``, ``live``, ``conform`` and ``rules`` named a file or an
argument raw); one wrapper around ``sys.stderr`` while a command runs covers every message, those
of libraries (argparse) included. Bytes written to ``.buffer`` (a launched command's own output,
replayed byte for byte) pass as they are.
"""
from __future__ import annotations

from inspector.model.display import display_text


class TerminalSafe:
    """A text stream that writes what it is given as ``display_text`` makes it (LF kept; other
    controls, DEL, C1 and bidi characters written out visibly). Anything else is the wrapped
    stream's (``flush``, ``isatty``, ``fileno``, ``buffer``, ``encoding``)."""

    def __init__(self, stream) -> None:
        self.wrapped = stream

    def write(self, text: str) -> int:
        self.wrapped.write(display_text(text))
        return len(text)

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str):
        return getattr(self.wrapped, name)


def guarded(stream):
    """``stream`` wrapped in :class:`TerminalSafe`, once (``main`` may run inside ``main``)."""
    return stream if isinstance(stream, TerminalSafe) or stream is None else TerminalSafe(stream)
