"""``inspector.capture.arrivals``: standard input timed by its reads (``check -``)."""
from __future__ import annotations

import io
import os
import threading
import time

from inspector.capture.arrivals import read_arrivals, with_arrivals
from inspector.capture.load import load_bytes
from inspector.model.capture import Chunk

SSE = b'event: ping\ndata: {"type": "ping"}\n\n'


def test_each_read_of_a_pipe_is_a_chunk_timed_from_the_first_byte():
    r, w = os.pipe()

    def write():
        os.write(w, SSE)
        time.sleep(0.3)
        os.write(w, SSE)
        os.close(w)

    threading.Thread(target=write).start()
    with os.fdopen(r, "rb") as f:
        chunks = read_arrivals(f, 1 << 20, name="<stdin>")
    assert [c.data for c in chunks] == [SSE, SSE]
    assert chunks[0].t == 0.0 and chunks[1].t >= 0.25


def test_a_plain_body_takes_the_arrival_times():
    arrived = [Chunk(0.0, SSE), Chunk(2.5, SSE)]
    cap = with_arrivals(load_bytes(SSE + SSE), arrived)
    assert [c.t for c in cap.chunks] == [0.0, 2.5] and not cap.request_relative


def test_a_native_capture_keeps_its_recorded_times():
    native = (b'{"format": "stream-inspector-capture", "version": 1, "request": null, "response": null}\n'
              b'{"t": 0.5, "data": "event: ping\\ndata: {}\\n\\n"}\n')
    cap = with_arrivals(load_bytes(native), [Chunk(0.0, native)])
    assert [c.t for c in cap.chunks] == [0.5]


def test_a_paste_whose_prose_was_cut_stays_untimed():
    pasted = b"Here is what I got:\n\n" + SSE + b"\nthanks\n"
    cap = with_arrivals(load_bytes(pasted), [Chunk(0.0, pasted[:10]), Chunk(1.0, pasted[10:])])
    assert all(c.t is None for c in cap.chunks)


def test_a_file_object_without_a_descriptor_is_one_untimed_chunk():
    assert read_arrivals(io.BytesIO(SSE), 1 << 20, name="x") == [Chunk(None, SSE)]
