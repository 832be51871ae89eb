"""``write_whole``: a report reaches a pipe whole even when the pipe's write end is non-blocking."""
from __future__ import annotations

import io
import os
import threading
import time

from inspector.model.writes import write_whole


def _slow_drain(fd: int, got: bytearray) -> None:
    while True:
        time.sleep(0.002)  # the pipe fills: the writer meets EAGAIN again and again
        data = os.read(fd, 8192)
        if not data:
            return
        got += data


def test_a_line_bigger_than_two_pipe_buffers_survives_a_nonblocking_write_end():
    r, w = os.pipe()
    os.set_blocking(w, False)  # what asyncio's connect_write_pipe or a child sharing stdout can do
    got = bytearray()
    reader = threading.Thread(target=_slow_drain, args=(r, got))
    reader.start()
    line = "".join(f'"field{i:06d}",' for i in range(20_000)) + "é\n"  # ~300 KB, one non-ASCII char
    with open(w, "w", encoding="utf-8", closefd=True) as out:
        out.write("before ")  # buffered in the text layer: must come out first
        write_whole(out, line)
        write_whole(out, "after\n")
    reader.join(10)
    os.close(r)
    assert got.decode("utf-8") == "before " + line + "after\n"


def test_a_stream_without_a_descriptor_gets_write_and_flush():
    out = io.StringIO()
    write_whole(out, "one\n")
    write_whole(out, "two\n")
    assert out.getvalue() == "one\ntwo\n"
