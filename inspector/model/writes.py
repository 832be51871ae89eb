"""Write one report (a JSON line, a text block, a page piece) to an output stream whole.

Why not ``out.write(text); out.flush()``: CPython's ``BufferedWriter.write`` returns a short
count when a signal interrupts a large blocking write to a pipe (``write(2)`` returns the part it
wrote), and ``TextIOWrapper`` ignores that count, so the rest of the line is silently dropped and
the next report is spliced onto the cut one (seen on 3.11 with a no-op SIGUSR1 handler and with
py-spy's ptrace stops; ``tests/e2e/test_report_pipe.py``). A stream with a file descriptor is
therefore written with ``os.write`` in a loop that completes partial writes and, if something
sharing the file description made it non-blocking, waits for it to drain instead of dropping data.

Imports: the standard library only.
"""
from __future__ import annotations

import io
import os


def write_whole(out, text: str) -> None:
    """Write ``text`` (``str``) to the text stream ``out`` completely, then return.

    ``out`` with a usable ``fileno()`` (``sys.stdout`` on a pipe, file or terminal): what it
    buffered is flushed first (order kept), then ``text`` encoded with ``out.encoding``/``out.errors``
    goes straight to the descriptor. Anything else (``io.StringIO``, a test's capture):
    ``out.write(text)`` then ``out.flush()``. Raises what the write raises (``BrokenPipeError``
    when the reader went away; ``UnicodeEncodeError`` under ``errors="strict"``).
    """
    try:
        fd = out.fileno()
    except (AttributeError, ValueError, io.UnsupportedOperation):
        out.write(text)
        out.flush()
        return
    out.flush()
    data = memoryview(text.encode(getattr(out, "encoding", None) or "utf-8", getattr(out, "errors", None) or "strict"))
    while data:
        try:
            n = os.write(fd, data)  # EINTR with nothing written is retried by os.write (PEP 475)
        except BlockingIOError:  # O_NONBLOCK set by something sharing the description: wait, never drop
            import select  # only here: most processes never need it (start-up)

            select.select([], [fd], [])
            continue
        data = data[n:]
