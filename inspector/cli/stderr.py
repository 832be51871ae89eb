"""Standard error made safe for a terminal, secrets masked, for every message of every command.

Why it exists: the messages on stderr quote file names, URLs, a server's or a client's words and
a capture's text: all text from outside. Written raw, an ESC/CSI/OSC sequence in any of them moves
the cursor, clears the screen or writes the clipboard (``inspector.model.display``). Escaping each
message where it is made missed some (``serve``, ``live``, ``conform`` and ``rules`` named a file or an
argument raw); one wrapper around ``sys.stderr`` while a command runs covers every message, those
of libraries (argparse) included. Secrets are masked there too (``scrub_secrets``: key shapes and
the credentials this process sent; a message may name a file called after a key). Bytes written to ``.buffer`` (a launched command's own output,
replayed byte for byte) pass as they are.
"""
from __future__ import annotations

from inspector.model.display import display_text


class TerminalSafe:
    """A text stream that writes what it is given secrets masked and as ``display_text`` makes it
    (LF kept; other controls, DEL, C1 and bidi characters written out visibly). Anything else is the wrapped
    stream's (``flush``, ``isatty``, ``fileno``, ``buffer``, ``encoding``)."""

    def __init__(self, stream) -> None:
        self.wrapped = stream

    def write(self, text: str) -> int:
        # Loaded at the first message: ``rules`` and ``--help`` write none, and redaction costs their start-up.
        from inspector.capture.redact import scrub_secrets
        self.wrapped.write(display_text(scrub_secrets(text)))
        return len(text)

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str):
        return getattr(self.wrapped, name)


def guarded(stream):
    """``stream`` wrapped in :class:`TerminalSafe`, once (``main`` may run inside ``main``)."""
    return stream if isinstance(stream, TerminalSafe) or stream is None else TerminalSafe(stream)
